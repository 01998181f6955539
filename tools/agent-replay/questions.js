'use strict';
// Labelled questions. Each has:
//   id, corpus (corpora.js), class (definition | concept | callers | outline | regex | config),
//   vendored (the answer lies in committed dependencies), question (plain words),
//   answer: [{ path, lines: [first, last] (1-based, inclusive), name? }] -- every span must be
//     printed (printed.js); `name` lets a location row (line + name) count, for definitions
//     and outlines. Files are pinned by SHA-256 in manifest.json (`run.js --pin`).
//   trufflepig: argv steps after `trufflepig --no-daemon --root R --cache C`
//   grep: argv steps run in the corpus root (rg, sed, head, ...)
// Placeholders fill from earlier output (strategies.js): {handle}, {handle~TEXT}, {path},
// {line}, {line+N}, {path~TEXT}, {line~TEXT}, {file}. Strategies are written as an agent that
// has only the question would work; they must not use what the label says.

const NPM = [
  {
    id: 'npm-def-arborist', corpus: 'npm', class: 'definition', vendored: true,
    question: 'Where is the Arborist class defined?',
    answer: [{ path: 'node_modules/@npmcli/arborist/lib/arborist/index.js', lines: [67, 67], name: 'Arborist' }],
    trufflepig: [['show', 'sym:Arborist']],
    grep: [['rg', '-n', '-t', 'js', 'class Arborist\\b']],
  },
  {
    id: 'npm-def-npm', corpus: 'npm', class: 'definition',
    question: 'Where is the Npm class (the CLI object every command gets) defined?',
    answer: [{ path: 'lib/npm.js', lines: [16, 16], name: 'Npm' }],
    trufflepig: [['show', 'sym:Npm']],
    grep: [['rg', '-n', '-t', 'js', 'class Npm\\b']],
  },
  {
    id: 'npm-def-basecmd', corpus: 'npm', class: 'definition',
    question: 'Where is BaseCommand, the class commands extend, defined?',
    answer: [{ path: 'lib/base-cmd.js', lines: [3, 3], name: 'BaseCommand' }],
    trufflepig: [['show', 'sym:BaseCommand']],
    grep: [['rg', '-n', '-t', 'js', 'class BaseCommand\\b']],
  },
  {
    id: 'npm-def-satisfies', corpus: 'npm', class: 'definition', vendored: true,
    question: 'How is semver satisfies(version, range) implemented?',
    answer: [{ path: 'node_modules/semver/functions/satisfies.js', lines: [4, 11] }],
    trufflepig: [['show', 'sym:satisfies']],
    grep: [['rg', '-n', '-t', 'js', 'const satisfies = \\(|function satisfies'], ['sed', '-n', '{line},{line+20}p', '{path~semver}']],
  },
  {
    id: 'npm-def-deref', corpus: 'npm', class: 'definition',
    question: 'How does npm turn an abbreviated or aliased command name into the real command?',
    answer: [{ path: 'lib/utils/cmd-list.js', lines: [142, 142], name: 'deref' }, { path: 'lib/utils/cmd-list.js', lines: [162, 162] }],
    trufflepig: [['search', 'command abbreviation alias resolve'], ['show', '{handle}']],
    grep: [['rg', '-n', '-t', 'js', 'abbrev', 'lib'], ['sed', '-n', '{line~cmd-list},{line+40~cmd-list}p', '{path~cmd-list}']],
  },
  {
    id: 'npm-concept-update-check', corpus: 'npm', class: 'concept',
    question: 'How often does npm check the registry for a newer npm, and where?',
    answer: [{ path: 'lib/cli/update-notifier.js', lines: [13, 14] }, { path: 'lib/cli/update-notifier.js', lines: [86, 86] }],
    trufflepig: [['search', 'check for newer npm version update notifier'], ['show', '{handle~update-notifier}'], ['show', 'path:lib/cli/update-notifier.js']],
    grep: [['rg', '-n', '-t', 'js', '-i', 'update.?notifier', 'lib'], ['sed', '-n', '1,100p', '{path~update-notifier.js}']],
  },
  {
    id: 'npm-concept-logfile-msg', corpus: 'npm', class: 'concept',
    question: 'Where does npm print "A complete log of this run can be found in" after a failure?',
    answer: [{ path: 'lib/npm.js', lines: [285, 288] }],
    trufflepig: [['search', '"A complete log of this run"'], ['show', '{handle}']],
    grep: [['rg', '-n', '-t', 'js', 'A complete log of this run'], ['sed', '-n', '{line-5},{line+15}p', '{path}']],
  },
  {
    id: 'npm-concept-otp', corpus: 'npm', class: 'concept',
    question: 'How does npm retry a registry request when a one-time password is required?',
    answer: [{ path: 'lib/utils/auth.js', lines: [6, 8] }, { path: 'lib/utils/auth.js', lines: [26, 28] }],
    trufflepig: [['search', 'one-time password retry OTP'], ['show', '{handle}']],
    grep: [['rg', '-n', '-t', 'js', 'EOTP', 'lib'], ['sed', '-n', '{line-15},{line+15}p', '{path}']],
  },
  {
    id: 'npm-callers-otplease', corpus: 'npm', class: 'callers',
    question: 'Which commands wrap their registry calls in otplease?',
    answer: [
      { path: 'lib/commands/publish.js', lines: [162, 162] },
      { path: 'lib/commands/unpublish.js', lines: [160, 160] },
      { path: 'lib/commands/deprecate.js', lines: [63, 63] },
      { path: 'lib/commands/owner.js', lines: [206, 206] },
      { path: 'lib/commands/team.js', lines: [47, 47] },
      { path: 'lib/commands/hook.js', lines: [23, 23] },
    ],
    trufflepig: [['refs', 'otplease']],
    grep: [['rg', '-n', '-t', 'js', 'otplease\\(', 'lib']],
  },
  {
    id: 'npm-callers-checkengine', corpus: 'npm', class: 'callers', vendored: true,
    question: 'Who calls checkEngine (the Node/npm engines check)?',
    answer: [
      { path: 'lib/commands/install.js', lines: [113, 113] },
      { path: 'node_modules/@npmcli/arborist/lib/arborist/reify.js', lines: [726, 726] },
      { path: 'node_modules/@npmcli/arborist/lib/arborist/build-ideal-tree.js', lines: [200, 200] },
      { path: 'node_modules/npm-pick-manifest/lib/index.js', lines: [10, 10] },
    ],
    trufflepig: [['refs', 'checkEngine']],
    grep: [['rg', '-n', '-t', 'js', 'checkEngine\\(']],
  },
  {
    id: 'npm-outline-install', corpus: 'npm', class: 'outline',
    question: 'What does lib/commands/install.js define (its outline)?',
    answer: [
      { path: 'lib/commands/install.js', lines: [10, 10], name: 'Install' },
      { path: 'lib/commands/install.js', lines: [43, 43], name: 'completion' },
      { path: 'lib/commands/install.js', lines: [98, 98], name: 'exec' },
    ],
    trufflepig: [['map', 'lib/commands/install.js']],
    grep: [['rg', '-n', '^\\s*(class|static|async|get|set|#?\\w+ \\(.*\\) \\{)', 'lib/commands/install.js']],
  },
  {
    id: 'npm-outline-npm', corpus: 'npm', class: 'outline',
    question: 'What methods and getters does the Npm class in lib/npm.js have?',
    answer: [
      { path: 'lib/npm.js', lines: [77, 77], name: 'load' },
      { path: 'lib/npm.js', lines: [203, 203], name: 'exec' },
      { path: 'lib/npm.js', lines: [285, 285], name: 'exitErrorMessage' },
      { path: 'lib/npm.js', lines: [358, 358], name: 'flatOptions' },
    ],
    trufflepig: [['map', 'lib/npm.js'], ['more', '{next}']],
    grep: [['rg', '-n', '^  (static |async |get |set |#)*[#\\w]+ \\(.*\\) \\{$', 'lib/npm.js']],
  },
  {
    id: 'npm-regex-scoped-name', corpus: 'npm', class: 'regex', vendored: true,
    question: 'Which regular expression splits a scoped package name like @user/pkg into scope and name?',
    answer: [{ path: 'node_modules/validate-npm-package-name/lib/index.js', lines: [4, 4] }],
    trufflepig: [['search', 're:new RegExp\\(.\\^\\(\\?:@'], ['show', '{handle}']],
    grep: [['rg', '-n', '-t', 'js', "new RegExp\\('\\^\\(\\?:@"]],
  },
  {
    id: 'npm-regex-semver-full', corpus: 'npm', class: 'regex', vendored: true,
    question: 'Where is the regular expression for a full semver version (major.minor.patch-pre+build) built?',
    answer: [{ path: 'node_modules/semver/internal/re.js', lines: [121, 123] }],
    trufflepig: [['search', 'semver full version regex createToken'], ['show', '{handle~re.js}']],
    grep: [['rg', '-n', "createToken\\('FULL"], ['sed', '-n', '{line-5},{line+10}p', '{path}']],
  },
  {
    id: 'npm-config-engine-strict', corpus: 'npm', class: 'config', vendored: true,
    question: 'What is the default of the engine-strict config, and where does it make an install fail?',
    answer: [
      { path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [596, 597] },
      { path: 'node_modules/@npmcli/arborist/lib/arborist/build-ideal-tree.js', lines: [203, 204] },
    ],
    trufflepig: [['search', "'engine-strict'"], ['show', '{handle~definitions}'], ['search', 'engineStrict'], ['show', '{handle~arborist}']],
    grep: [['rg', '-n', '-t', 'js', "'engine-strict'"], ['sed', '-n', '{line},{line+12}p', '{path}'], ['rg', '-n', '-t', 'js', 'engineStrict'], ['sed', '-n', '{line~if (engineStrict)},{line+8~if (engineStrict)}p', '{path~if (engineStrict)}']],
  },
  {
    id: 'npm-config-fetch-retries', corpus: 'npm', class: 'config', vendored: true,
    question: 'What is the default of fetch-retries, and where is it handed to the retry logic of registry requests?',
    answer: [
      { path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [626, 627] },
      { path: 'node_modules/npm-registry-fetch/lib/index.js', lines: [125, 126] },
    ],
    trufflepig: [['search', "'fetch-retries'"], ['show', '{handle~definitions}'], ['search', 'fetchRetries'], ['show', '{handle~registry-fetch}']],
    grep: [['rg', '-n', '-t', 'js', "'fetch-retries'"], ['sed', '-n', '{line},{line+15}p', '{path}'], ['rg', '-n', '-t', 'js', 'fetchRetries'], ['sed', '-n', '{line-5~registry-fetch},{line+5~registry-fetch}p', '{path~registry-fetch}']],
  },
  {
    id: 'npm-config-user-agent', corpus: 'npm', class: 'config', vendored: true,
    question: 'What is the default User-Agent npm sends?',
    answer: [{ path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [2106, 2112] }],
    trufflepig: [['search', 'user-agent default'], ['show', '{handle~definitions}']],
    grep: [['rg', '-n', '-t', 'js', "'user-agent'"], ['sed', '-n', '{line},{line+20}p', '{path~definitions}']],
  },
];

const FLASK = [];
const REGEX = [];

const QUESTIONS = [...NPM, ...FLASK, ...REGEX];
module.exports = { QUESTIONS };
