// JavaScript navigation into a committed node_modules/ (navigation/src/node-packages.ts): a
// bare specifier resolves the way Node resolves it (the nearest node_modules/NAME, its
// exports map, else main, else index), and `Q.name` where Q binds a whole module is a site of
// that module's definition. Real git repository, real tree-sitter parses.
import { indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'package.json': '{ "name": "app", "version": "1.0.0" }\n',
  'lib/install.js': [
    "const { checkEngine } = require('engine-checks')",
    "const checks = require('engine-checks')",
    "const gone = require('not-committed')",
    "const local = require('./local')",
    '',
    'function install (pkg) {',
    '  checkEngine(pkg)',
    '  checks.checkEngine(pkg)',
    '  gone.checkEngine(pkg)',
    '  local.checkEngine(pkg)',
    '}',
    'module.exports = install',
    '',
  ].join('\n'),
  'lib/local.js': 'function checkEngine (p) {\n  return p\n}\nmodule.exports = { checkEngine }\n',
  // An ES module importing a scoped package through a pattern of its exports map.
  'lib/range.mjs': [
    "import { rangeTest } from '@scope/ver/functions/range-test'",
    '',
    'export function inRange (v, r) {',
    '  return rangeTest(v, r)',
    '}',
    '',
  ].join('\n'),
  'node_modules/engine-checks/package.json': '{ "name": "engine-checks", "main": "lib/index.js" }\n',
  'node_modules/engine-checks/lib/index.js': [
    'const checkEngine = (target) => {',
    '  return target.engines',
    '}',
    'module.exports = { checkEngine }',
    '',
  ].join('\n'),
  'node_modules/@scope/ver/package.json': JSON.stringify({
    name: '@scope/ver',
    exports: {
      '.': { import: './esm/index.mjs', require: './cjs/index.js' },
      './functions/*': { import: './esm/functions/*.mjs', require: './cjs/functions/*.js' },
    },
  }),
  'node_modules/@scope/ver/esm/functions/range-test.mjs': 'export function rangeTest (v, r) {\n  return v === r\n}\n',
  'node_modules/@scope/ver/cjs/functions/range-test.js':
    'function rangeTest (v, r) {\n  return v === r\n}\nmodule.exports = { rangeTest }\n',
  // A dependency that bundles its own, older copy: its require resolves to the nearer one.
  'node_modules/tool/package.json': '{ "name": "tool" }\n',
  'node_modules/tool/index.js': "const { checkEngine } = require('engine-checks')\ncheckEngine({})\n",
  'node_modules/tool/node_modules/engine-checks/package.json': '{ "name": "engine-checks" }\n',
  'node_modules/tool/node_modules/engine-checks/index.js':
    'function checkEngine (t) {\n  return !!t\n}\nmodule.exports = { checkEngine }\n',
};

describe('JavaScript refs into a committed node_modules/', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-node-', FILES);
  });

  const sitesOf = (words: string[]) => refsSites(repo, words);

  it("resolves a bare require through the package's main, and Q.name through the module Q binds", async () => {
    const sites = await sitesOf(['checkEngine', 'file:lib/']);
    const at = (line: number) => sites.find((s) => s.path === 'lib/install.js' && s.start_line === line);
    const def = 'node_modules/engine-checks/lib/index.js:1';
    expect(at(1)).toMatchObject({ role: 'import', resolution: 'resolved', definition: def });
    expect(at(7)).toMatchObject({ role: 'call', resolution: 'resolved', definition: def });
    expect(at(8)).toMatchObject({ resolution: 'resolved', definition: def });
    // Through a package the repository does not commit: nothing of the index, though the
    // file imports a checkEngine of its own.
    expect(at(9)).toMatchObject({ resolution: 'unresolved' });
    expect(at(9)?.definition).toBeUndefined();
    // Through a module of the repository's own: its definition, not the package's.
    expect(at(10)).toMatchObject({ resolution: 'resolved', definition: 'lib/local.js:1' });
  });

  it('a file inside a dependency resolves to the copy in its own nearest node_modules/', async () => {
    const sites = await sitesOf(['checkEngine', 'file:node_modules/tool/index.js']);
    expect(sites.length).toBe(2);
    for (const s of sites)
      expect(s).toMatchObject({
        resolution: 'resolved',
        definition: 'node_modules/tool/node_modules/engine-checks/index.js:1',
      });
  });

  it("an ES module's import takes the exports map's import condition through a subpath pattern", async () => {
    const sites = await sitesOf(['rangeTest', 'file:lib/']);
    expect(sites.length).toBe(2);
    for (const s of sites)
      expect(s).toMatchObject({
        resolution: 'resolved',
        definition: 'node_modules/@scope/ver/esm/functions/range-test.mjs:1',
      });
  });
});
