// `show sym:` picks the repository's own hand-written definition before a vendored
// dependency's and before a minified bundle's (an agent trial on express and yargs:
// `show sym:send` read node_modules/finalhandler, `show sym:parse` a 62 KB one-line
// build/index.cjs). Real repository, real tree-sitter parses.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { indexCommand, showCommand } from '../src';
import { makeRepo } from './ws-helpers';

const MINIFIED = `"use strict";class te{constructor(){this.a=1}parse(t,e){${'if(t){e=t.concat([1,2,3]).map(function(n){return n*2})}'.repeat(40)}return e}}module.exports=te;\n`;

const FILES = {
  'lib/response.js': 'var res = module.exports = {};\nres.send = function send(body) {\n  return body;\n};\n',
  'node_modules/finalhandler/index.js': 'function send(req, res, status) {\n  res.end(status);\n}\nmodule.exports = send;\n',
  'build/index.cjs': MINIFIED,
  'lib/cookie.js': "var cookieNameRegExp = /^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$/;\nmodule.exports = cookieNameRegExp;\n",
  'src/factory.js': 'class YargsInstance {\n  parse(args) {\n    return args;\n  }\n}\nmodule.exports = YargsInstance;\n',
};

let root: string;
let env: NodeJS.ProcessEnv;
const at = () => ({ cwd: root, env, noDaemon: true, noWorkspace: true, cache: path.join(root, '..', 'cache'), format: 'lines' as const });
const head = async (q: string) => (await showCommand(q, at())).stdout.split('\n')[0];

beforeAll(async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-sym-order-')));
  root = makeRepo(path.join(base, 'repo'), FILES);
  env = { ...process.env, XDG_CACHE_HOME: path.join(base, '.cache'), XDG_CONFIG_HOME: path.join(base, '.config') };
  expect((await indexCommand(at())).exitCode).toBe(0);
});

describe('show sym: rows', () => {
  it("are whole lines: a statement's `;` after the definition's span is printed", async () => {
    const out = (await showCommand('sym:cookieNameRegExp', at())).stdout.split('\n');
    expect(out[1]).toBe("1\tvar cookieNameRegExp = /^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$/;");
  });
});

describe('show sym: order among definitions of one name', () => {
  it("reads the repository's own definition before a vendored dependency's, which stays on an also row", async () => {
    expect(await head('sym:send')).toMatch(/ {2}lib\/response\.js:2-4 {2}res::send$/);
    expect((await showCommand('sym:send', at())).stdout).toMatch(/^also: \S+ node_modules\/finalhandler\/index\.js:1-3 function send$/m);
  });

  it('reads hand-written code before a minified bundle under a name no path rule knows', async () => {
    expect(await head('sym:parse')).toMatch(/ {2}src\/factory\.js:2-4 {2}YargsInstance::parse$/);
    expect((await showCommand('sym:parse', at())).stdout).toMatch(/^also: \S+ build\/index\.cjs:1-1 method te::parse$/m);
  });
});
