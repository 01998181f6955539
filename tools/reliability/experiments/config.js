'use strict';
// 4. Workspace-configuration fuzzing: a valid workspace TOML (as docs/workspace.md and
// examples/space write it) mutated by truncation, random bytes, duplicated keys and lines,
// special member names (`__proto__`...), control characters in paths, wrong types. Every
// failure must be coded; a parse error must name FILE:LINE, other configuration errors the
// file; a special member name accepted must still be listed by `ws show`.
const fs = require('fs');
const path = require('path');
const { once } = require('../lib/harness');
const { makeRepo } = require('../lib/repo');

const VALID = `# fuzzed workspace
[workspace]
name = "fuzz"
members = ["alpha", "beta"]

[output]
budget = 800

[members.alpha]
path = "alpha"

[members.beta]
path = "beta"
`;
const SPECIAL_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
];
const BYTES = [
  '\x00',
  '\x1b',
  '\x07',
  '\r',
  '\n',
  '\xff',
  '"',
  "'",
  '[',
  ']',
  '=',
  '#',
  '\\',
  '\u202e',
  '{',
  '}',
  ',',
  '.',
  '\t',
  '\ufeff',
];

function mutate(rng, text, member) {
  const lines = text.split('\n');
  switch (rng.int(12)) {
    case 0:
      return { text: text.slice(0, rng.int(text.length)), what: 'truncated' };
    case 1: {
      let t = text;
      for (let i = 0, n = 1 + rng.int(4); i < n; i++) {
        const at = rng.int(t.length + 1);
        t = t.slice(0, at) + rng.pick(BYTES) + t.slice(at);
      }
      return { text: t, what: 'random bytes' };
    }
    case 2: {
      const i = rng.int(lines.length);
      lines.splice(i, 0, lines[i]);
      return { text: lines.join('\n'), what: `line ${i + 1} duplicated` };
    }
    case 3:
      return { text: `${text}\n[members.alpha]\npath = "alpha"\n`, what: 'duplicate table' };
    case 4:
      return { text: text.replace('name = "fuzz"', 'name = "fuzz"\nname = "again"'), what: 'duplicate key' };
    case 5: {
      const name = rng.pick(SPECIAL_NAMES);
      return {
        text:
          text.replace('members = ["alpha", "beta"]', `members = ["alpha", "beta", "${name}"]`) +
          `\n[members."${name}"]\npath = "${member}"\n`,
        what: `member named ${name}`,
        special: name,
      };
    }
    case 6:
      return {
        text: text.replace(
          'path = "beta"',
          `path = "be${rng.pick(['\\u001b', '\\u0007', '\\r', '\\n', '\\u202e', '\\u0000'])}ta"`,
        ),
        what: 'control escape in a path',
      };
    case 7:
      return {
        text: text.replace('path = "beta"', `path = "be${rng.pick(['\x1b', '\x07', '\x00', '\x7f'])}ta"`),
        what: 'raw control character in a path',
      };
    case 8: {
      const i = rng.int(lines.length);
      lines.splice(i, 1);
      return { text: lines.join('\n'), what: `line ${i + 1} deleted` };
    }
    case 9:
      return {
        text: text.replace(
          'budget = 800',
          `budget = ${rng.pick(['"x"', '1e400', '99999999999999999999', '-1', '0', '[1]', 'true', '{ a = 1 }', 'nan'])}`,
        ),
        what: 'budget of another type',
      };
    case 10:
      return {
        text: text.replace(
          'members = ["alpha", "beta"]',
          `members = ${rng.pick(['3', '"alpha"', '[[["alpha"]]]', '[]', '["alpha", "alpha", "beta"]', '["alpha", 1]', `[${'['.repeat(2000)}${']'.repeat(2000)}]`])}`,
        ),
        what: 'members of another shape',
      };
    default:
      return {
        text: text.replace(
          'name = "fuzz"',
          `name = ${rng.pick(['"\\u202ename"', '""', '"a b"', '"../x"', '"x".y', `"${'n'.repeat(5000)}"`, '"\\ud800"'])}`,
        ),
        what: 'odd workspace name',
      };
  }
}

async function run(h, exp, rng, out, plan) {
  const dir = path.join(h.base, 'config-fuzz');
  fs.mkdirSync(dir, { recursive: true });
  const members = {};
  for (const name of ['alpha', 'beta', 'gamma']) {
    const repo = makeRepo(h, `ws-${name}`, { 'src/lib.rs': `pub fn ${name}_bucket() {}\n` });
    fs.renameSync(repo.root, path.join(dir, name));
    members[name] = path.join(dir, name);
  }
  const file = path.join(dir, 'trufflepig.workspace.toml');
  const cache = path.join(h.base, 'config-cache');
  for (let i = 0; i < plan.configs; i++) {
    let m = mutate(rng, VALID, 'gamma');
    if (rng.chance(0.25)) {
      const second = mutate(rng, m.text, 'gamma');
      m = { text: second.text, what: `${m.what} + ${second.what}`, special: m.special || second.special };
    }
    fs.writeFileSync(file, m.text);
    const verb =
      i % 20 === 19
        ? ['search', 'bucket']
        : rng.pick([
            ['ws', 'show'],
            ['ws', 'show'],
            ['ws', 'status'],
          ]);
    await once(h, exp, null, ['--workspace', file, '--cache', cache, '--no-daemon', '--json', ...verb], {
      raw: true,
      cwd: dir,
      label: `${m.what}: ${verb.join(' ')}`,
      deadlineMs: verb[0] === 'search' ? 30000 : undefined,
      assert: (call, a) => {
        const stderr = call.stderr.toString('utf8');
        const code = call.code;
        if (call.status !== 0 && code === 'config_parse_error' && !/trufflepig\.workspace\.toml:\d+/.test(stderr))
          a.fail('contract', `config_parse_error without FILE:LINE: ${stderr.trim().slice(0, 100)}`);
        else if (
          call.status !== 0 &&
          code &&
          code.startsWith('config_') &&
          !stderr.includes('trufflepig.workspace.toml')
        )
          a.fail('contract', `${code} does not name the file: ${stderr.trim().slice(0, 100)}`);
        if (call.status === 0 && m.special && verb[1] === 'show') {
          const listed =
            call.json && call.json.members && Object.prototype.hasOwnProperty.call(call.json.members, m.special);
          if (!listed) a.fail('contract', `member ${m.special} accepted but missing from ws show members`);
        }
      },
    });
  }
}

module.exports = { run, title: 'workspace-config fuzzing' };
