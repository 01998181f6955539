'use strict';
// Labelled questions. Each has:
//   id, corpus (corpora.js), class (definition | concept | callers | outline | regex | config),
//   vendored (the answer lies in committed dependencies), question (plain words),
//   answer: [{ path, lines: [first, last] (1-based, inclusive), name? } | { any: [span, ...] }]
//     -- every entry must be printed (printed.js); `any` lists equally right spans (one is
//     enough); `name` lets a location row (line + name) count, for definitions and outlines. Files are pinned by SHA-256 in manifest.json (`run.js --pin`).
//   trufflepig: argv steps after `trufflepig --no-daemon --root R --cache C`
//   grep: argv steps run in the corpus root (rg, sed, head, ...)
// Placeholders fill from earlier output (strategies.js): {handle}, {handle~TEXT}, {path},
// {line}, {line+N}, {path~TEXT}, {line~TEXT}, {file} ({path} and {line} read rg's
// `PATH:N:` rows, and a Trufflepig search's evidence rows alike). Strategies are written as an agent that
// has only the question would work; they must not use what the label says. Both get the
// same scoping knowledge: where the grep strategy's search says `-t LANG` or names a
// directory, the Trufflepig search says `lang:LANG` and `file:DIR/`. The Trufflepig
// strategies use the verbs as its help and agent skill teach: a question that asks where X
// is defined locates it with `search sym:X kind:K lang:L`, naming the kind and language the
// grep pattern encodes (`class X\b`, `def x`, `pub struct X\b` with `-t LANG`), as the
// skill's example `search sym:TokenBucket lang:rust kind:struct` does; a question that asks
// what X does reads it with `show sym:X` (the head of a long one, with its members); a search whose next
// step reads one of its hits asks for `-n 5`; a `re:` or quoted-literal search whose answer
// is the code around the match asks for `-C 5` instead of a second command; a config key
// the grep strategy searches as text is searched as the quoted literal (every matching line
// of a file, up to 5, as rg prints them).

const NPM = [
  {
    id: 'npm-def-arborist',
    corpus: 'npm',
    class: 'definition',
    vendored: true,
    question: 'Where is the Arborist class defined?',
    answer: [{ path: 'node_modules/@npmcli/arborist/lib/arborist/index.js', lines: [67, 67], name: 'Arborist' }],
    trufflepig: [['search', 'sym:Arborist', 'kind:class', 'lang:js']],
    grep: [['rg', '-n', '-t', 'js', 'class Arborist\\b']],
  },
  {
    id: 'npm-def-npm',
    corpus: 'npm',
    class: 'definition',
    question: 'Where is the Npm class (the CLI object every command gets) defined?',
    answer: [{ path: 'lib/npm.js', lines: [16, 16], name: 'Npm' }],
    trufflepig: [['search', 'sym:Npm', 'kind:class', 'lang:js']],
    grep: [['rg', '-n', '-t', 'js', 'class Npm\\b']],
  },
  {
    id: 'npm-def-basecmd',
    corpus: 'npm',
    class: 'definition',
    question: 'Where is BaseCommand, the class commands extend, defined?',
    answer: [{ path: 'lib/base-cmd.js', lines: [3, 3], name: 'BaseCommand' }],
    trufflepig: [['search', 'sym:BaseCommand', 'kind:class', 'lang:js']],
    grep: [['rg', '-n', '-t', 'js', 'class BaseCommand\\b']],
  },
  {
    id: 'npm-def-satisfies',
    corpus: 'npm',
    class: 'definition',
    vendored: true,
    question: 'How is semver satisfies(version, range) implemented?',
    answer: [{ path: 'node_modules/semver/functions/satisfies.js', lines: [4, 11] }],
    trufflepig: [
      ['show', 'sym:satisfies'],
      ['show', '{handle~semver}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', 'const satisfies = \\(|function satisfies'],
      ['sed', '-n', '{line},{line+20}p', '{path~semver}'],
    ],
  },
  {
    id: 'npm-def-deref',
    corpus: 'npm',
    class: 'definition',
    question: 'How does npm turn an abbreviated or aliased command name into the real command?',
    answer: [
      { path: 'lib/utils/cmd-list.js', lines: [142, 142], name: 'deref' },
      { path: 'lib/utils/cmd-list.js', lines: [162, 162] },
    ],
    trufflepig: [
      ['search', 'command abbreviation alias resolve', 'lang:js', 'file:lib/', '-n', '5'],
      ['show', '{handle}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', 'abbrev', 'lib'],
      ['sed', '-n', '{line~cmd-list},{line+40~cmd-list}p', '{path~cmd-list}'],
    ],
  },
  {
    id: 'npm-concept-update-check',
    corpus: 'npm',
    class: 'concept',
    question: 'How often does npm check the registry for a newer npm, and where?',
    answer: [
      { path: 'lib/cli/update-notifier.js', lines: [13, 14] },
      { path: 'lib/cli/update-notifier.js', lines: [86, 86] },
    ],
    trufflepig: [
      ['search', 'check for newer npm version update notifier', 'lang:js', 'file:lib/', '-n', '5'],
      ['show', '{handle~update-notifier}'],
      ['show', 'path:lib/cli/update-notifier.js'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', '-i', 'update.?notifier', 'lib'],
      ['sed', '-n', '1,100p', '{path~update-notifier.js}'],
    ],
  },
  {
    id: 'npm-concept-logfile-msg',
    corpus: 'npm',
    class: 'concept',
    question: 'Where does npm print "A complete log of this run can be found in" after a failure?',
    answer: [{ path: 'lib/npm.js', lines: [285, 288] }],
    trufflepig: [['search', '"A complete log of this run"', 'lang:js', '-n', '3', '-C', '5']],
    grep: [
      ['rg', '-n', '-t', 'js', 'A complete log of this run'],
      ['sed', '-n', '{line-5},{line+15}p', '{path}'],
    ],
  },
  {
    id: 'npm-concept-otp',
    corpus: 'npm',
    class: 'concept',
    question: 'How does npm retry a registry request when a one-time password is required?',
    answer: [
      { path: 'lib/utils/auth.js', lines: [6, 8] },
      { path: 'lib/utils/auth.js', lines: [26, 28] },
    ],
    trufflepig: [
      ['search', 'one-time password retry OTP', 'lang:js', 'file:lib/', '-n', '5'],
      ['show', '{handle~read.otp(}'],
    ],
    // The question's words, not npm's error code (`EOTP`, the answer's own test, was the
    // pattern until 2026-12-02); the agent picks the match that prompts inside an operation.
    grep: [
      ['rg', '-n', '-t', 'js', '-i', 'one-time password', 'lib'],
      ['sed', '-n', '{line-15~read.otp(},{line+15~read.otp(}p', '{path~read.otp(}'],
    ],
  },
  {
    id: 'npm-callers-otplease',
    corpus: 'npm',
    class: 'callers',
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
    id: 'npm-callers-checkengine',
    corpus: 'npm',
    class: 'callers',
    vendored: true,
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
    id: 'npm-outline-install',
    corpus: 'npm',
    class: 'outline',
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
    id: 'npm-outline-npm',
    corpus: 'npm',
    class: 'outline',
    question: 'What methods and getters does the Npm class in lib/npm.js have?',
    answer: [
      { path: 'lib/npm.js', lines: [77, 77], name: 'load' },
      { path: 'lib/npm.js', lines: [203, 203], name: 'exec' },
      { path: 'lib/npm.js', lines: [285, 285], name: 'exitErrorMessage' },
      { path: 'lib/npm.js', lines: [358, 358], name: 'flatOptions' },
    ],
    trufflepig: [
      ['map', 'lib/npm.js'],
      ['more', '{next}'],
    ],
    grep: [['rg', '-n', '^  (static |async |get |set |#)*[#\\w]+ \\(.*\\) \\{$', 'lib/npm.js']],
  },
  {
    id: 'npm-regex-scoped-name',
    corpus: 'npm',
    class: 'regex',
    vendored: true,
    question: 'Which regular expression splits a scoped package name like @user/pkg into scope and name?',
    answer: [{ path: 'node_modules/validate-npm-package-name/lib/index.js', lines: [4, 4] }],
    trufflepig: [['search', 're:new RegExp\\(.\\^\\(\\?:@', 'lang:js', '-n', '3', '-C', '5']],
    grep: [['rg', '-n', '-t', 'js', "new RegExp\\('\\^\\(\\?:@"]],
  },
  {
    id: 'npm-regex-semver-full',
    corpus: 'npm',
    class: 'regex',
    vendored: true,
    question: 'Where is the regular expression for a full semver version (major.minor.patch-pre+build) built?',
    answer: [{ path: 'node_modules/semver/internal/re.js', lines: [121, 123] }],
    trufflepig: [
      ['search', 'semver full version regex createToken', '-n', '5'],
      ['show', '{handle~re.js}'],
    ],
    grep: [
      ['rg', '-n', "createToken\\('FULL"],
      ['sed', '-n', '{line-5},{line+10}p', '{path}'],
    ],
  },
  {
    id: 'npm-config-engine-strict',
    corpus: 'npm',
    class: 'config',
    vendored: true,
    question: 'What is the default of the engine-strict config, and where does it make an install fail?',
    answer: [
      { path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [596, 597] },
      { path: 'node_modules/@npmcli/arborist/lib/arborist/build-ideal-tree.js', lines: [203, 204] },
    ],
    trufflepig: [
      ['search', '"engine-strict"', 'lang:js', '-n', '5'],
      ['show', '{handle~definitions}'],
      ['search', 'engineStrict', 'lang:js', '-n', '5'],
      ['show', '{handle~arborist}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', "'engine-strict'"],
      ['sed', '-n', '{line},{line+12}p', '{path}'],
      ['rg', '-n', '-t', 'js', 'engineStrict'],
      ['sed', '-n', '{line~if (engineStrict)},{line+8~if (engineStrict)}p', '{path~if (engineStrict)}'],
    ],
  },
  {
    id: 'npm-config-fetch-retries',
    corpus: 'npm',
    class: 'config',
    vendored: true,
    question: 'What is the default of fetch-retries, and where is it handed to the retry logic of registry requests?',
    answer: [
      { path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [626, 627] },
      { path: 'node_modules/npm-registry-fetch/lib/index.js', lines: [125, 126] },
    ],
    trufflepig: [
      ['search', '"fetch-retries"', 'lang:js', '-n', '5'],
      ['show', '{handle~definitions}'],
      ['search', 'fetchRetries', 'lang:js', '-n', '5'],
      ['show', '{handle~registry-fetch}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', "'fetch-retries'"],
      ['sed', '-n', '{line},{line+15}p', '{path}'],
      ['rg', '-n', '-t', 'js', 'fetchRetries'],
      ['sed', '-n', '{line-5~registry-fetch},{line+5~registry-fetch}p', '{path~registry-fetch}'],
    ],
  },
  {
    id: 'npm-config-user-agent',
    corpus: 'npm',
    class: 'config',
    vendored: true,
    question: 'What is the default User-Agent npm sends?',
    answer: [{ path: 'node_modules/@npmcli/config/lib/definitions/definitions.js', lines: [2106, 2112] }],
    trufflepig: [
      ['search', 'user-agent default', 'lang:js', '-n', '5'],
      ['show', '{handle~definitions}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'js', "'user-agent'"],
      ['sed', '-n', '{line},{line+20}p', '{path~definitions}'],
    ],
  },
];

const FLASK = [
  {
    id: 'flask-def-flask',
    corpus: 'flask',
    class: 'definition',
    question: 'Where is the Flask application class defined?',
    answer: [{ path: 'flask/app.py', lines: [110, 110], name: 'Flask' }],
    trufflepig: [['search', 'sym:Flask', 'kind:class', 'lang:py']],
    grep: [['rg', '-n', '-t', 'py', 'class Flask\\b']],
  },
  {
    id: 'flask-def-url-for',
    corpus: 'flask',
    class: 'definition',
    question: 'Where is the url_for function that views import from flask defined?',
    answer: [{ path: 'flask/helpers.py', lines: [212, 212], name: 'url_for' }],
    trufflepig: [['search', 'sym:url_for', 'kind:function', 'lang:py']],
    grep: [['rg', '-n', '-t', 'py', 'def url_for\\(']],
  },
  {
    id: 'flask-def-request',
    corpus: 'flask',
    class: 'definition',
    question: "Where is Werkzeug's WSGI Request wrapper class defined?",
    answer: [{ path: 'werkzeug/wrappers/request.py', lines: [29, 29], name: 'Request' }],
    trufflepig: [['search', 'sym:Request', 'kind:class', 'lang:py']],
    grep: [['rg', '-n', '-t', 'py', '^class Request\\b']],
  },
  {
    id: 'flask-def-secure-filename',
    corpus: 'flask',
    class: 'definition',
    question: 'Where is secure_filename defined?',
    answer: [{ path: 'werkzeug/utils.py', lines: [197, 197], name: 'secure_filename' }],
    trufflepig: [['search', 'sym:secure_filename', 'kind:function', 'lang:py']],
    grep: [['rg', '-n', '-t', 'py', 'def secure_filename']],
  },
  {
    id: 'flask-concept-safe-join',
    corpus: 'flask',
    class: 'concept',
    question: 'How does Werkzeug stop an untrusted path from escaping the base directory when joining paths?',
    answer: [{ path: 'werkzeug/security.py', lines: [130, 135] }],
    trufflepig: [
      ['search', 'join untrusted path escape base directory', 'lang:py', '-n', '5'],
      ['show', '{handle}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', '-i', 'untrusted'],
      ['sed', '-n', '{line-5},{line+30}p', '{path}'],
    ],
  },
  {
    id: 'flask-concept-password-hash',
    corpus: 'flask',
    class: 'concept',
    question: 'Which key derivation does generate_password_hash use by default, with how many iterations?',
    answer: [
      { path: 'werkzeug/security.py', lines: [12, 12] },
      { path: 'werkzeug/security.py', lines: [61, 61] },
    ],
    // Both start from the function the question names (`pbkdf2`, the answer, was the grep
    // side's first pattern until 2026-12-02), then look for the word the question asks about.
    trufflepig: [
      ['show', 'sym:generate_password_hash'],
      ['search', 'iterations', 'lang:py', '-n', '3'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'def generate_password_hash'],
      ['sed', '-n', '{line},{line+30}p', '{path}'],
      ['rg', '-n', '-t', 'py', '-i', 'iterations'],
    ],
  },
  {
    id: 'flask-concept-reloader',
    corpus: 'flask',
    class: 'concept',
    question: "How does the development server's stat reloader notice that a file changed?",
    answer: [{ path: 'werkzeug/_reloader.py', lines: [296, 301] }],
    trufflepig: [
      ['search', 'stat reloader file changed mtime', 'lang:py', 'file:werkzeug/', '-n', '5'],
      ['show', '{handle}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'mtime', 'werkzeug'],
      ['sed', '-n', '{line-5~_reloader},{line+25~_reloader}p', '{path~_reloader}'],
    ],
  },
  {
    id: 'flask-concept-view-errors',
    corpus: 'flask',
    class: 'concept',
    question: 'Where does Flask catch an exception raised by a view function and hand it to the error handlers?',
    answer: [{ path: 'flask/app.py', lines: [1820, 1822] }],
    trufflepig: [
      ['search', 'view function exception error handler dispatch request', 'lang:py', 'file:flask/', '-n', '5'],
      ['show', '{handle}'],
      // dispatch_request's docstring, just read: "This no longer does the exception handling,
      // this code was moved to the new :meth:`full_dispatch_request`." An agent follows it.
      ['show', 'sym:full_dispatch_request'],
    ],
    // Where an exception is caught, not the handler's name (`handle_user_exception`, the
    // answer's callee, was the pattern until 2026-12-02).
    grep: [
      ['rg', '-n', '-t', 'py', 'except Exception', 'flask'],
      ['sed', '-n', '{line-15},{line+15}p', '{path}'],
    ],
  },
  {
    id: 'flask-callers-debug-flag',
    corpus: 'flask',
    class: 'callers',
    question: 'Who calls get_debug_flag?',
    answer: [
      { path: 'flask/app.py', lines: [831, 831] },
      { path: 'flask/app.py', lines: [1152, 1152] },
      { path: 'flask/app.py', lines: [1154, 1154] },
      { path: 'flask/cli.py', lines: [328, 328] },
      { path: 'flask/cli.py', lines: [913, 913] },
    ],
    trufflepig: [['refs', 'get_debug_flag']],
    grep: [['rg', '-n', '-t', 'py', 'get_debug_flag\\(']],
  },
  {
    id: 'flask-callers-signing',
    corpus: 'flask',
    class: 'callers',
    question: 'Where is the session signing serializer obtained (callers of get_signing_serializer)?',
    answer: [
      { path: 'flask/sessions.py', lines: [363, 363] },
      { path: 'flask/sessions.py', lines: [410, 410] },
    ],
    trufflepig: [['refs', 'get_signing_serializer']],
    grep: [['rg', '-n', '-t', 'py', 'get_signing_serializer\\(']],
  },
  {
    id: 'flask-outline-ctx',
    corpus: 'flask',
    class: 'outline',
    question: 'What does flask/ctx.py define (classes and their push/pop)?',
    answer: [
      { path: 'flask/ctx.py', lines: [229, 229], name: 'AppContext' },
      { path: 'flask/ctx.py', lines: [278, 278], name: 'RequestContext' },
      { path: 'flask/ctx.py', lines: [356, 356], name: 'push' },
      { path: 'flask/ctx.py', lines: [385, 385], name: 'pop' },
    ],
    trufflepig: [
      ['map', 'flask/ctx.py'],
      ['more', '{next}'],
    ],
    grep: [['rg', '-n', '^\\s*(class|def) ', 'flask/ctx.py']],
  },
  {
    id: 'flask-outline-globals',
    corpus: 'flask',
    class: 'outline',
    question: 'Which context-local proxies does flask/globals.py define?',
    answer: [
      { path: 'flask/globals.py', lines: [59, 59], name: 'current_app' },
      { path: 'flask/globals.py', lines: [62, 62], name: 'g' },
      { path: 'flask/globals.py', lines: [78, 78], name: 'request' },
      { path: 'flask/globals.py', lines: [81, 81], name: 'session' },
    ],
    trufflepig: [['map', 'flask/globals.py']],
    grep: [['rg', '-n', 'LocalProxy\\(', 'flask/globals.py']],
  },
  {
    id: 'flask-regex-filename',
    corpus: 'flask',
    class: 'regex',
    question: 'Which regular expression does secure_filename use to drop unsafe characters?',
    answer: [{ path: 'werkzeug/utils.py', lines: [33, 33] }],
    trufflepig: [
      ['show', 'sym:secure_filename'],
      ['show', 'sym:_filename_ascii_strip_re'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'def secure_filename'],
      ['sed', '-n', '{line},{line+40}p', '{path}'],
      ['rg', '-n', '-t', 'py', '_filename_ascii_strip_re ='],
    ],
  },
  {
    id: 'flask-regex-rule-parts',
    corpus: 'flask',
    class: 'regex',
    question: 'Which regular expression splits a URL rule like /user/<int:id> into converter, arguments and variable?',
    answer: [
      { path: 'werkzeug/routing/rules.py', lines: [42, 42] },
      { path: 'werkzeug/routing/rules.py', lines: [52, 56] },
    ],
    trufflepig: [
      ['search', 're:re\\.compile', 'file:werkzeug/routing', '-n', '5'],
      ['show', '{handle~rules.py}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 're\\.compile', 'werkzeug/routing'],
      ['sed', '-n', '{line-5~rules.py},{line+25~rules.py}p', '{path~rules.py}'],
    ],
  },
  {
    id: 'flask-config-secret-key',
    corpus: 'flask',
    class: 'config',
    question: 'What is the default SECRET_KEY, and where does a missing key turn sessions off?',
    answer: [
      { path: 'flask/app.py', lines: [494, 494] },
      { path: 'flask/sessions.py', lines: [348, 349] },
    ],
    trufflepig: [
      ['search', '"SECRET_KEY"', 'lang:py'],
      ['search', 'secret_key session', 'lang:py', '-n', '5'],
      ['show', '{handle~sessions}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', '"SECRET_KEY"'],
      ['rg', '-n', '-t', 'py', 'secret_key'],
      ['sed', '-n', '{line-5~not app.secret_key},{line+25~not app.secret_key}p', '{path~sessions}'],
    ],
  },
  {
    id: 'flask-config-max-content',
    corpus: 'flask',
    class: 'config',
    question: 'What is the default MAX_CONTENT_LENGTH, and where is a too-large request body rejected?',
    answer: [
      { path: 'flask/app.py', lines: [506, 506] },
      { path: 'werkzeug/formparser.py', lines: [252, 255] },
    ],
    trufflepig: [
      ['search', '"MAX_CONTENT_LENGTH"', 'lang:py'],
      ['search', 're:> (self\\.)?max_content_length', 'lang:py', '-n', '3', '-C', '5'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'MAX_CONTENT_LENGTH'],
      ['rg', '-n', '-t', 'py', '> self.max_content_length|> max_content_length'],
      ['sed', '-n', '{line-5},{line+5}p', '{path}'],
    ],
  },
  {
    id: 'flask-config-send-file-age',
    corpus: 'flask',
    class: 'config',
    question: 'What is the default SEND_FILE_MAX_AGE_DEFAULT, and where is it turned into a max_age for send_file?',
    answer: [
      { path: 'flask/app.py', lines: [507, 507] },
      { path: 'flask/scaffold.py', lines: [307, 310] },
    ],
    trufflepig: [
      ['search', '"SEND_FILE_MAX_AGE_DEFAULT"', 'lang:py', '-n', '5'],
      ['show', '{handle~scaffold}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'SEND_FILE_MAX_AGE_DEFAULT'],
      ['sed', '-n', '{line-5~scaffold},{line+25~scaffold}p', '{path~scaffold}'],
    ],
  },
  {
    id: 'flask-config-session-lifetime',
    corpus: 'flask',
    class: 'config',
    question: 'How long does a permanent session last by default, and where is that applied to the cookie?',
    answer: [
      { path: 'flask/app.py', lines: [495, 495] },
      { path: 'flask/sessions.py', lines: [278, 278] },
    ],
    trufflepig: [
      ['search', '"PERMANENT_SESSION_LIFETIME"', 'lang:py'],
      ['search', 'permanent_session_lifetime', 'lang:py', '-n', '5'],
      ['show', '{handle~sessions}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'py', 'PERMANENT_SESSION_LIFETIME'],
      ['rg', '-n', '-t', 'py', 'permanent_session_lifetime'],
    ],
  },
];
const REGEX = [
  {
    id: 'regex-def-regex',
    corpus: 'regex',
    class: 'definition',
    question: 'Where is the Regex type for &str haystacks defined?',
    answer: [{ path: 'regex-1.7.1/src/re_unicode.rs', lines: [136, 136], name: 'Regex' }],
    trufflepig: [['search', 'sym:Regex', 'kind:struct', 'lang:rust']],
    grep: [['rg', '-n', '-t', 'rust', 'pub struct Regex\\b']],
  },
  {
    id: 'regex-def-builder',
    corpus: 'regex',
    class: 'definition',
    question: 'Where is RegexBuilder defined?',
    answer: [{ path: 'regex-1.7.1/src/re_builder.rs', lines: [51, 51], name: 'RegexBuilder' }],
    trufflepig: [['search', 'sym:RegexBuilder', 'kind:struct', 'lang:rust']],
    grep: [['rg', '-n', '-t', 'rust', 'pub struct RegexBuilder\\b']],
  },
  {
    id: 'regex-def-new',
    corpus: 'regex',
    class: 'definition',
    question: 'What does Regex::new do?',
    answer: [{ path: 'regex-1.7.1/src/re_unicode.rs', lines: [174, 176] }],
    trufflepig: [
      ['show', 'sym:Regex::new'],
      ['show', '{handle~re_unicode}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', 'pub fn new\\(re: &str\\)'],
      ['sed', '-n', '{line~re_unicode},{line+10~re_unicode}p', '{path~re_unicode}'],
    ],
  },
  {
    id: 'regex-def-aho',
    corpus: 'regex',
    class: 'definition',
    question: 'Where is the AhoCorasick automaton type defined?',
    answer: [{ path: 'aho-corasick-0.7.19/src/ahocorasick.rs', lines: [86, 86], name: 'AhoCorasick' }],
    trufflepig: [['search', 'sym:AhoCorasick', 'kind:struct', 'lang:rust']],
    grep: [['rg', '-n', '-t', 'rust', 'pub struct AhoCorasick\\b']],
  },
  {
    id: 'regex-concept-swar',
    corpus: 'regex',
    class: 'concept',
    question: "How does memchr's portable fallback test a whole word for a zero byte at once?",
    answer: [
      { path: 'memchr-2.5.0/src/memchr/fallback.rs', lines: [27, 27] },
      { path: 'memchr-2.5.0/src/memchr/fallback.rs', lines: [34, 34] },
    ],
    trufflepig: [
      ['search', 'memchr fallback zero byte word at a time', 'lang:rust', 'file:memchr-2.5.0/src/', '-n', '5'],
      ['show', '{handle}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', '-i', 'zero.?byte', 'memchr-2.5.0/src'],
      ['sed', '-n', '{line-5},{line+25}p', '{path}'],
    ],
  },
  {
    id: 'regex-concept-dfa-giveup',
    corpus: 'regex',
    class: 'concept',
    question: 'When does the lazy DFA give up after flushing its state cache?',
    answer: [{ path: 'regex-1.7.1/src/dfa.rs', lines: [1286, 1291] }],
    trufflepig: [
      ['search', 'lazy DFA cache flush give up', 'lang:rust', '-n', '5'],
      ['show', '{handle}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', '-i', 'flush', 'regex-1.7.1/src/dfa.rs'],
      ['sed', '-n', '{line-5~if self.cache.flush_count},{line+25~if self.cache.flush_count}p', '{path}'],
    ],
  },
  {
    id: 'regex-concept-escape',
    corpus: 'regex',
    class: 'concept',
    question: 'Which characters does regex::escape escape?',
    answer: [{ path: 'regex-syntax-0.6.27/src/lib.rs', lines: [209, 210] }],
    trufflepig: [
      ['show', 'sym:escape'],
      ['show', 'sym:is_meta_character'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', 'pub fn escape\\('],
      ['sed', '-n', '{line~regex-syntax},{line+15~regex-syntax}p', '{path~regex-syntax}'],
      ['rg', '-n', '-t', 'rust', '-A', '6', 'pub fn is_meta_character'],
    ],
  },
  {
    id: 'regex-callers-depth',
    corpus: 'regex',
    class: 'callers',
    question: 'Who calls increment_depth in the regex-syntax parser?',
    answer: [
      { path: 'regex-syntax-0.6.27/src/ast/parse.rs', lines: [2196, 2196] },
      { path: 'regex-syntax-0.6.27/src/ast/parse.rs', lines: [2239, 2239] },
      { path: 'regex-syntax-0.6.27/src/ast/parse.rs', lines: [2267, 2267] },
    ],
    trufflepig: [['refs', 'increment_depth']],
    grep: [['rg', '-n', '-t', 'rust', 'increment_depth\\(']],
  },
  {
    id: 'regex-callers-check-size',
    corpus: 'regex',
    class: 'callers',
    question: 'Where does the compiler call check_size while compiling a program?',
    answer: [{ path: 'regex-1.7.1/src/compile.rs', lines: [272, 272] }],
    trufflepig: [['refs', 'check_size']],
    grep: [['rg', '-n', '-t', 'rust', 'check_size\\(']],
  },
  {
    id: 'regex-outline-memchr',
    corpus: 'regex',
    class: 'outline',
    question: 'Which search functions does memchr/src/memchr/mod.rs export?',
    answer: [
      { path: 'memchr-2.5.0/src/memchr/mod.rs', lines: [87, 87], name: 'memchr' },
      { path: 'memchr-2.5.0/src/memchr/mod.rs', lines: [151, 151], name: 'memchr2' },
      { path: 'memchr-2.5.0/src/memchr/mod.rs', lines: [204, 204], name: 'memchr3' },
      { path: 'memchr-2.5.0/src/memchr/mod.rs', lines: [260, 260], name: 'memrchr' },
    ],
    trufflepig: [['map', 'memchr-2.5.0/src/memchr/mod.rs']],
    grep: [['rg', '-n', '^pub fn', 'memchr-2.5.0/src/memchr/mod.rs']],
  },
  {
    id: 'regex-outline-error',
    corpus: 'regex',
    class: 'outline',
    question: "What does regex's src/error.rs define?",
    answer: [
      { path: 'regex-1.7.1/src/error.rs', lines: [6, 6], name: 'Error' },
      { path: 'regex-1.7.1/src/error.rs', lines: [11, 11], name: 'CompiledTooBig' },
    ],
    trufflepig: [['map', 'regex-1.7.1/src/error.rs']],
    grep: [['rg', '-n', '^\\s*(pub )?(enum|struct|fn|impl|[A-Z]\\w*\\(|[A-Z]\\w*,)', 'regex-1.7.1/src/error.rs']],
  },
  {
    id: 'regex-regex-impls',
    corpus: 'regex',
    class: 'regex',
    question: 'Which traits does the &str Regex implement in re_unicode.rs (impl ... for Regex)?',
    answer: [
      { path: 'regex-1.7.1/src/re_unicode.rs', lines: [138, 138] },
      { path: 'regex-1.7.1/src/re_unicode.rs', lines: [145, 145] },
      { path: 'regex-1.7.1/src/re_unicode.rs', lines: [153, 153] },
      { path: 'regex-1.7.1/src/re_unicode.rs', lines: [159, 159] },
    ],
    trufflepig: [['search', 're:^impl.* for Regex\\b', 'file:regex-1.7.1/src/re_unicode.rs']],
    grep: [['rg', '-n', '^impl.* for Regex\\b', 'regex-1.7.1/src/re_unicode.rs']],
  },
  {
    id: 'regex-regex-avx2',
    corpus: 'regex',
    class: 'regex',
    question: 'Where is the CPU probed for AVX2 at run time (is_x86_feature_detected!("avx2")) outside tests?',
    answer: [
      { path: 'aho-corasick-0.7.19/src/packed/teddy/compile.rs', lines: [90, 90] },
      { path: 'memchr-2.5.0/src/memchr/x86/mod.rs', lines: [45, 45] },
      { path: 'memchr-2.5.0/src/memmem/prefilter/mod.rs', lines: [304, 304] },
      { path: 'memchr-2.5.0/src/memmem/prefilter/x86/avx.rs', lines: [39, 39] },
      { path: 'memchr-2.5.0/src/memmem/x86/avx.rs', lines: [24, 24] },
      { path: 'memchr-2.5.0/src/memmem/x86/avx.rs', lines: [120, 120] },
    ],
    trufflepig: [['search', 're:is_x86_feature_detected!\\("avx2"\\)', 'lang:rust']],
    grep: [['rg', '-n', '-t', 'rust', 'is_x86_feature_detected!\\("avx2"\\)']],
  },
  {
    id: 'regex-config-size-limit',
    corpus: 'regex',
    class: 'config',
    question: "What is RegexBuilder's default size_limit, and where does compiling fail when it is exceeded?",
    answer: [
      {
        any: [
          { path: 'regex-1.7.1/src/re_builder.rs', lines: [22, 22] },
          { path: 'regex-1.7.1/src/compile.rs', lines: [64, 64] },
        ],
      },
      { path: 'regex-1.7.1/src/compile.rs', lines: [839, 840] },
    ],
    trufflepig: [
      // Five hits, as every other plain-words search here asks (nest-limit's twin did).
      ['search', 'size_limit default', 'lang:rust', '-n', '5'],
      ['search', 'CompiledTooBig', 'lang:rust', '-n', '5'],
      ['show', '{handle~compile.rs}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', 'size_limit: '],
      ['rg', '-n', '-t', 'rust', 'CompiledTooBig\\('],
      ['sed', '-n', '{line-10~compile.rs},{line+5~compile.rs}p', '{path~compile.rs}'],
    ],
  },
  {
    id: 'regex-config-nest-limit',
    corpus: 'regex',
    class: 'config',
    question: "What is the parser's default nest_limit, and where is it enforced?",
    answer: [
      { path: 'regex-syntax-0.6.27/src/ast/parse.rs', lines: [131, 131] },
      { path: 'regex-syntax-0.6.27/src/ast/parse.rs', lines: [2153, 2157] },
    ],
    trufflepig: [
      ['search', 'nest_limit default', 'lang:rust', 'file:regex-syntax-0.6.27/src/', '-n', '5'],
      ['show', '{handle}'],
      ['search', 'NestLimitExceeded', 'lang:rust', 'file:regex-syntax-0.6.27/src/', '-n', '5'],
      ['show', '{handle~parse.rs}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', 'nest_limit', 'regex-syntax-0.6.27/src'],
      ['rg', '-n', 'NestLimitExceeded', 'regex-syntax-0.6.27/src/ast/parse.rs'],
      ['sed', '-n', '{line-10},{line+10}p', '{path}'],
    ],
  },
  {
    id: 'regex-config-dfa-size',
    corpus: 'regex',
    class: 'config',
    question: 'What is the default dfa_size_limit, and what happens when the lazy DFA cache grows past it?',
    answer: [
      {
        any: [
          { path: 'regex-1.7.1/src/re_builder.rs', lines: [23, 23] },
          { path: 'regex-1.7.1/src/prog.rs', lines: [96, 96] },
        ],
      },
      { path: 'regex-1.7.1/src/dfa.rs', lines: [1168, 1169] },
    ],
    trufflepig: [
      ['search', '"dfa_size_limit"', 'lang:rust', '-n', '5'],
      ['show', 'path:{path~approximate_size}:{line-5~approximate_size}-{line+10~approximate_size}'],
    ],
    grep: [
      ['rg', '-n', '-t', 'rust', 'dfa_size_limit'],
      ['sed', '-n', '{line-5~approximate_size},{line+10~approximate_size}p', '{path~approximate_size}'],
    ],
  },
];

const QUESTIONS = [...NPM, ...FLASK, ...REGEX];
module.exports = { QUESTIONS };
