// What an agent trial on express 4.21.2 and yargs 17.7.2 (their dependencies committed)
// found, each as the smallest repository that shows it: `show sym:` read a vendored
// dependency (`send`) and a 62 KB one-line bundle (`parse`) first, cut a line before its
// `;`; `refs` took `var x = require('./utils').x` for the definition and listed one line
// twice; a factory's `self.m = function` methods were unknown to map and show sym:.
// Real repository, real tree-sitter parses.
import { ctxCommand, mapCommand, refsCommand, showCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const MINIFIED = `"use strict";class te{constructor(){this.a=1}parse(t,e){${'if(t){e=t.concat([1,2,3]).map(function(n){return n*2})}'.repeat(40)}return e}}module.exports=te;\n`;

const FILES = {
  'lib/response.js':
    "var setCharset = require('./utils').setCharset;\nvar res = module.exports = {};\nres.send = function send(body) {\n  return setCharset(body, 'utf-8');\n};\n",
  'lib/utils.js': 'exports.setCharset = function setCharset(type, charset) {\n  return type + charset;\n};\n',
  'lib/usage.js':
    'function usage(yargs) {\n  const self = {};\n  self.help = function help() {\n    return 1;\n  };\n  self.wrap = (cols) => cols;\n  yargs.onDone = function onDone() {};\n  return self;\n}\nmodule.exports = usage;\n',
  'node_modules/finalhandler/index.js':
    'function send(req, res, status) {\n  res.end(status);\n}\nmodule.exports = send;\n',
  'build/index.cjs': MINIFIED,
  'lib/cookie.js': "var cookieNameRegExp = /^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$/;\nmodule.exports = cookieNameRegExp;\n",
  'lib/joiner.js': 'const join = makeJoiner();\nfunction makeJoiner() {\n  return 1;\n}\nmodule.exports = join;\n',
  'lib/path.js': "function build(parts) {\n  return parts.join('/') + makeJoiner();\n}\nmodule.exports = build;\n",
  'src/factory.js':
    'class YargsInstance {\n  parse(args) {\n    return args;\n  }\n}\nmodule.exports = YargsInstance;\n',
};

let repo: IndexedRepo;
const at = () => repo.at();
const head = async (q: string) => (await showCommand(q, at())).stdout.split('\n')[0];

beforeAll(async () => {
  repo = await indexedRepo('tp-nav-trial-express-', FILES);
});

describe('show sym: rows', () => {
  it("are whole lines: a statement's `;` after the definition's span is printed", async () => {
    const out = (await showCommand('sym:cookieNameRegExp', at())).stdout.split('\n');
    expect(out[1]).toBe("1\tvar cookieNameRegExp = /^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$/;");
  });
});

describe('show sym: order among definitions of one name', () => {
  it("reads the repository's own definition before a vendored dependency's, which stays on an also row", async () => {
    expect(await head('sym:send')).toMatch(/ {2}lib\/response\.js:3-5 {2}res::send$/);
    expect((await showCommand('sym:send', at())).stdout).toMatch(
      /^also: \S+ node_modules\/finalhandler\/index\.js:1-3 function send$/m,
    );
  });

  it('reads hand-written code before a minified bundle under a name no path rule knows', async () => {
    expect(await head('sym:parse')).toMatch(/ {2}src\/factory\.js:2-4 {2}YargsInstance::parse$/);
    expect((await showCommand('sym:parse', at())).stdout).toMatch(/^also: \S+ build\/index\.cjs:1 method te::parse$/m);
  });
});

describe('refs', () => {
  it("resolves through var x = require('./utils').x to the definition, and prints a declaring line once", async () => {
    const rows = (await refsCommand(['setCharset'], at())).stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^refs setCharset → lib\/utils\.js:1 /);
    expect(rows.slice(1, -1)).toEqual([
      'lib/response.js',
      "1 4 call in res::send: return setCharset(body, 'utf-8');",
      "2 1 import ×2: var setCharset = require('./utils').setCharset;",
      'lib/utils.js',
      '3 1 declaration+reference: exports.setCharset = function setCharset(type, charset) {',
    ]);
  });
});

describe('refs of a name a minified bundle also defines', () => {
  it('lists the bundle after hand-written code, as build output', async () => {
    const rows = (await refsCommand(['parse'], at())).stdout.trimEnd().split('\n');
    const files = rows.filter((r) => /^[a-z]\S*\.c?js$/.test(r));
    expect(files).toEqual(['src/factory.js', 'build/index.cjs']);
  });
});

describe('factory methods', () => {
  it('map and show sym: know the methods a factory puts on the object it builds', async () => {
    const rows = (await mapCommand(['lib/usage.js'], at())).stdout.trimEnd().split('\n');
    expect(rows.slice(1, -1)).toEqual(['1 1-9 function usage', '2 3-5 method self::help', '3 6 method wrap']);
    expect(await head('sym:help')).toMatch(/ {2}lib\/usage\.js:3-5 {2}self::help$/);
  });
});

describe('ctx callees', () => {
  it('are functions, methods and types, never a variable of the same name elsewhere', async () => {
    const handle = (await head('sym:build')).split(/ {2}/)[0];
    const out = (await ctxCommand(handle, at())).stdout.split('\n');
    expect(out.filter((l) => l.startsWith('callee:'))).toEqual([
      expect.stringMatching(/^callee: \S+\tlib\/joiner\.js:2\tfunction makeJoiner$/),
    ]);
    expect(out.join('\n')).not.toMatch(/variable join/);
  });
});
