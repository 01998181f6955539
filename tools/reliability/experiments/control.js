'use strict';
// 2. Control bytes (ESC, BEL, CR, DEL, C1, bidi overrides, line separators, NUL, invalid
// UTF-8) in file content, file names, commit messages and argv. The checks of every call
// already reject raw control bytes on stdout and stderr; this experiment feeds them in.
const fs = require('fs');
const path = require('path');
const { once, share } = require('../lib/harness');
const { makeRepo, git, freshness, hitsOf } = require('../lib/repo');

const CONTENT = {
  'ctl/esc.ts': 'export const ctrlword = "\x1b[31mred\x1b[0m\x1b]0;title\x07";\n// ctrlword bell \x07 here\n',
  'ctl/cr.txt': 'ctrlword line one\rctrlword overwritten\r\nctrlword \x1b[2K\x1b[1A\n',
  'ctl/bidi.ts': 'const ctrlword = "\u202eevil\u202c"; // ctrlword \u2066iso\u2069 \u2028sep\u2029\n',
  'ctl/nul.txt': 'ctrlword\x00nul\x00\n',
  'ctl/del.txt': 'ctrlword \x7f del \x08\x08 backspace\n',
  'ctl/c1.txt': Buffer.concat([Buffer.from('ctrlword \u009b31m csi '), Buffer.from([0x9b, 0x1b, 0xff, 0x0a])]),
};
const NAMES = [
  'n\x1b[31mred.txt',
  'n\x07bell.txt',
  'n\rcr.txt',
  'n\nnewline.ts',
  'n\u202etxt.ts',
  'n\x7fdel.txt',
  'n\ttab.txt',
  'n\u2028sep.md',
  'n\x1b]0;t\x07.rs',
];
const RAW_NAME = Buffer.concat([Buffer.from('n'), Buffer.from([0x9b, 0xfe]), Buffer.from('raw.txt')]);
const COMMIT = 'ctrlcommit \x1b]0;pwned\x07 \x1b[31mred\x1b[0m \u202eright-to-left\u202c \r overwritten \x7f';

const ARGV = [
  ['\x1b[31mbogus'],
  ['se\x07arch', 'x'],
  ['--format', '\x1b]0;x\x07', 'search', 'x'],
  ['--format', 'li\u202enes', 'search', 'x'],
  ['search', '\x1b[2J'],
  ['search', 'ctrlword', '\x1b[31m'],
  ['show', 'path:new\nline.ts'],
  ['show', 'path:\x1b[31m.ts'],
  ['map', '\u202e'],
  ['map', 'ctl/\x1b'],
  ['refs', '\x07'],
  ['search', 're:\x1b'],
  ['search', 're:\\x1b'],
  ['-b', '\x1b'],
  ['search', 'file:\u202e', 'ctrlword'],
  ['search', 'lang:\x1b[31m', 'x'],
  ['search', 'kind:\x07', 'x'],
  ['search', 'source:\x1b', 'x'],
  ['show', '\x1b:1'],
  ['more', '\x1b@1'],
  ['ctx', '\u202e:1'],
  ['show', 'sym:\x1b[31m'],
  ['ws', '\x1b[31m'],
  ['--member', '\x1b', 'search', 'x'],
  ['search', '"ctrlword \x07"'],
  ['-n', '\u202e5', 'search', 'x'],
  ['--scopes', '\x1b', 'search', 'x'],
  ['search', 'in:\x1b', 'x'],
];

function setUp(h) {
  const files = { ...CONTENT };
  for (const name of NAMES) files[name] = `ctrlname ${JSON.stringify(name)}\n`;
  const repo = makeRepo(h, 'control', { 'src/ok.rs': 'pub fn ctrlword() {}\n' });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo.root, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo.root, rel), content);
  }
  fs.writeFileSync(Buffer.concat([Buffer.from(`${repo.root}/`), RAW_NAME]), 'ctrlname raw bytes\n');
  git(repo.root, ['add', '-A']);
  git(repo.root, ['commit', '-q', '-m', COMMIT]);
  return repo;
}

async function run(h, exp, rng, out, plan) {
  const repo = setUp(h);
  await once(h, exp, repo, ['index'], { untimed: true });
  const searches = [
    'ctrlword',
    'ctrlname',
    'kind:file n',
    're:ctrl',
    '"ctrlword line"',
    'source:git-log ctrlcommit',
    'ctrlcommit',
  ];
  for (const daemon of [false, true]) {
    const n = (count) => share(plan, count, daemon);
    for (let round = 0; round < plan.controlRounds; round++) {
      const format = rng.pick([[], ['--format', 'lines'], ['--format', 'json']]);
      const handles = [];
      for (const q of rng.shuffle(searches).slice(0, n(searches.length))) {
        const extra = q === 'ctrlcommit' ? ['--scopes', 'per_source'] : [];
        const call = await once(h, exp, repo, [...format, ...extra, 'search', ...q.split(' ')], { daemon });
        if (!format.includes('lines')) handles.push(...hitsOf(call).map((hit) => hit.handle));
      }
      for (const handle of rng.shuffle([...new Set(handles)]).slice(0, n(plan.controlShows))) {
        await once(h, exp, repo, [...format, 'show', handle], { daemon });
        if (rng.chance(0.3)) await once(h, exp, repo, ['ctx', handle], { daemon });
      }
      for (const name of rng.shuffle([...NAMES, ...Object.keys(CONTENT)]).slice(0, n(plan.controlNames))) {
        await once(h, exp, repo, [...format, 'show', `path:${name}`], { daemon });
        await once(h, exp, repo, ['map', name], { daemon });
      }
      await once(h, exp, repo, ['map', 'ctl/'], { daemon });
      for (const argv of rng.shuffle(ARGV).slice(0, n(plan.controlArgv)))
        await once(h, exp, repo, [...format, ...argv], { daemon });
    }
  }
  await freshness(h, exp, repo, { daemon: true });
}

module.exports = { run, title: 'control bytes (content, names, commits, argv)' };
