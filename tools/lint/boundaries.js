#!/usr/bin/env node
'use strict';
// The boundary rule checks itself: `node tools/lint/boundaries.js` (first step of
// `npm run lint`). It lints scratch sources through ESLint's Node API with the repository's
// eslint.config.mjs, at virtual paths inside the packages (lintText with a filePath: nothing
// is written to the tree), and exits 1 unless every forbidden import fails with
// `trufflepig/boundaries` and every allowed one passes the whole configuration cleanly.
// The cases are generated from the tables in eslint.config.mjs (every ordered pair of
// packages, every pair of workspace folders), plus the shapes an import can take
// (import, export from, require, import(), typeof import) and deep and relative paths.
// It also checks that each package.json declares only @trufflepig dependencies the table
// allows, since `nx graph` draws its edges from those declarations.
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { ESLint } = require('eslint');

const ROOT = path.resolve(__dirname, '..', '..');
const RULE = 'trufflepig/boundaries';
const SCRATCH = '__lint_scratch__.ts';

/** One scratch source: where it pretends to live, its text, and whether the lint must fail. */
function scratch(name, dir, code, forbidden) {
  return { name, file: path.join(dir, SCRATCH), code, forbidden };
}

const importFrom = (spec) => `import { value } from '${spec}';\nexport const copy = value;\n`;

function packageCases(tables) {
  const { PACKAGES, PACKAGE_DEPENDENCIES, EVERY_PACKAGE_MAY_IMPORT } = tables;
  const cases = [];
  for (const from of PACKAGES.values()) {
    if (!(from.name in PACKAGE_DEPENDENCIES)) continue; // reported by manifestProblems
    const allowed = new Set([...PACKAGE_DEPENDENCIES[from.name], ...EVERY_PACKAGE_MAY_IMPORT]);
    for (const to of Object.keys(PACKAGE_DEPENDENCIES)) {
      if (to === from.name) continue;
      const forbidden = !allowed.has(to);
      cases.push(scratch(`${from.name} imports ${to}`, path.join(from.dir, 'src'), importFrom(to), forbidden));
    }
  }
  return cases;
}

function layerCases(tables) {
  const { PACKAGES, WORKSPACE_LAYERS } = tables;
  const workspace = PACKAGES.get('@trufflepig/workspace');
  const src = path.join(workspace.dir, 'src');
  const cases = [];
  for (const [from, imports] of Object.entries(WORKSPACE_LAYERS)) {
    for (const to of Object.keys(WORKSPACE_LAYERS)) {
      const forbidden = to !== from && !imports.includes(to);
      // Layers may be nested (`serving/launch`): the specifier is the relative path to `to`.
      const towards = (dir) => {
        const rel = path
          .relative(dir, path.join(src, to, 'x'))
          .split(path.sep)
          .join('/');
        return importFrom(rel.startsWith('.') ? rel : `./${rel}`);
      };
      const dir = path.join(src, from);
      cases.push(scratch(`workspace ${from}/ imports ${to}/`, dir, towards(dir), forbidden));
      // The same from a subfolder, so that depth does not matter.
      const deep = path.join(src, from, 'sub');
      cases.push(scratch(`workspace ${from}/sub/ imports ${to}/`, deep, towards(deep), forbidden));
    }
  }
  cases.push(
    scratch('workspace core/ imports its own folder', path.join(src, 'core'), importFrom('./x'), false),
    scratch('workspace core/ imports the top of src/', path.join(src, 'core'), importFrom('../index'), false),
    scratch('a file at the top of workspace src/ is unconstrained', src, importFrom('./serving/x'), false),
    scratch('a workspace folder missing from WORKSPACE_LAYERS', path.join(src, 'unlisted'), importFrom('./x'), true),
  );
  return cases;
}

function shapeCases(tables) {
  const dir = (name) => path.join(tables.PACKAGES.get(name).dir, 'src');
  const rank = dir('@trufflepig/rank');
  const workspace = dir('@trufflepig/workspace');
  const mcp = dir('@trufflepig/mcp');
  const cli = dir('trufflepig');
  const index = tables.PACKAGES.get('@trufflepig/index');
  const subpath = [...index.subpaths].find((s) => s !== 'package.json');
  return [
    // The forms an import takes.
    scratch('rank: export from workspace', rank, "export { value } from '@trufflepig/workspace';\n", true),
    scratch('rank: export * from workspace', rank, "export * from '@trufflepig/workspace';\n", true),
    scratch(
      'rank: type-only import of workspace',
      rank,
      "import type { T } from '@trufflepig/workspace';\nexport type U = T;\n",
      true,
    ),
    scratch('rank: require() of workspace', rank, "export const w = require('@trufflepig/workspace');\n", true),
    scratch('rank: import() of workspace', rank, "export const w = import('@trufflepig/workspace');\n", true),
    scratch(
      'rank: typeof import() of workspace',
      rank,
      "export type W = typeof import('@trufflepig/workspace');\n",
      true,
    ),
    scratch(
      'rank: import = require() of workspace',
      rank,
      "import w = require('@trufflepig/workspace');\nexport const v = w;\n",
      true,
    ),
    scratch(
      'rank: require.resolve() of workspace',
      rank,
      "export const f = require.resolve('@trufflepig/workspace');\n",
      true,
    ),
    scratch(
      'rank test: imports workspace',
      path.join(path.dirname(rank), 'test'),
      importFrom('@trufflepig/workspace'),
      true,
    ),
    scratch(
      'mcp test: imports member-root',
      path.join(path.dirname(mcp), 'test'),
      importFrom('@trufflepig/member-root'),
      true,
    ),
    scratch('rank: an unknown @trufflepig package', rank, importFrom('@trufflepig/nope'), true),
    // Deep imports: only the subpaths a package.json exports.
    scratch('workspace: index/src/...', workspace, importFrom('@trufflepig/index/src/query/search'), true),
    scratch('workspace: index/dist/...', workspace, importFrom('@trufflepig/index/dist/index.js'), true),
    scratch(`workspace: declared index/${subpath}`, workspace, importFrom(`@trufflepig/index/${subpath}`), false),
    scratch(
      'workspace: index/package.json',
      workspace,
      "export const f = require.resolve('@trufflepig/index/package.json');\n",
      false,
    ),
    scratch('mcp: workspace, its public entry', mcp, importFrom('@trufflepig/workspace'), false),
    scratch('mcp: workspace/src/...', mcp, importFrom('@trufflepig/workspace/src/index'), true),
    scratch('cli: workspace/dist/...', cli, importFrom('@trufflepig/workspace/dist/index.js'), true),
    // Relative paths out of the package.
    scratch('workspace: ../../index/src/...', workspace, importFrom('../../index/src/query/search'), true),
    scratch(
      'workspace: ../../../packages/index/dist',
      workspace,
      "export const i = require('../../../packages/index/dist');\n",
      true,
    ),
    scratch('rank: ../../../tools/...', rank, importFrom('../../../tools/lib/proc'), true),
    scratch('rank test: ../src/...', path.join(path.dirname(rank), 'test'), importFrom('../src/index'), false),
    // Its own name: from src/ a cycle through dist/; tests import the public entry.
    scratch('rank: imports @trufflepig/rank', rank, importFrom('@trufflepig/rank'), true),
    scratch(
      'rank test: imports @trufflepig/rank',
      path.join(path.dirname(rank), 'test'),
      importFrom('@trufflepig/rank'),
      false,
    ),
    scratch(
      'rank: require.resolve of its own package.json',
      rank,
      "export const f = require.resolve('@trufflepig/rank/package.json');\n",
      false,
    ),
    // Third-party and built-in modules are not the rule's business.
    scratch(
      'rank: node:path and a third-party module',
      rank,
      "import * as path from 'node:path';\nimport { x } from 'left-pad';\nexport const y = [path, x];\n",
      false,
    ),
  ];
}

/** package.json @trufflepig dependencies that the table does not allow. */
function manifestProblems(tables) {
  const problems = [];
  for (const pkg of tables.PACKAGES.values()) {
    if (!(pkg.name in tables.PACKAGE_DEPENDENCIES)) {
      problems.push(`${pkg.name} (${path.relative(ROOT, pkg.dir)}) is not in PACKAGE_DEPENDENCIES`);
      continue;
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg.dir, 'package.json'), 'utf8'));
    const allowed = new Set([...tables.PACKAGE_DEPENDENCIES[pkg.name], ...tables.EVERY_PACKAGE_MAY_IMPORT]);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const dep of Object.keys(manifest[field] || {})) {
        if (dep in tables.PACKAGE_DEPENDENCIES && !allowed.has(dep)) {
          const where = path.relative(ROOT, path.join(pkg.dir, 'package.json'));
          problems.push(`${where}: ${field} lists ${dep}, not an edge of PACKAGE_DEPENDENCIES`);
        }
      }
    }
  }
  return problems;
}

async function main() {
  const tables = await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href);
  const eslint = new ESLint({ cwd: ROOT });
  const cases = [...packageCases(tables), ...layerCases(tables), ...shapeCases(tables)];
  const failures = [];
  for (const c of cases) {
    const [result] = await eslint.lintText(c.code, { filePath: c.file, warnIgnored: true });
    const messages = result.messages;
    const boundary = messages.filter((m) => m.ruleId === RULE);
    const ok = c.forbidden ? boundary.length > 0 && boundary.every((m) => m.severity === 2) : messages.length === 0;
    if (!ok) {
      const got = messages.map((m) => `${m.ruleId || 'eslint'}: ${m.message}`).join('; ') || 'no messages';
      const expected = c.forbidden ? `an error from ${RULE}` : 'no messages';
      failures.push(`${c.name} (${path.relative(ROOT, c.file)}): expected ${expected}, got ${got}`);
    }
  }
  const problems = manifestProblems(tables);
  const forbidden = cases.filter((c) => c.forbidden).length;
  for (const f of failures) console.error(`boundaries: FAIL ${f}`);
  for (const p of problems) console.error(`boundaries: ${p}`);
  const bad = failures.length + problems.length;
  console.log(
    `boundaries: ${cases.length - failures.length} passed, ${failures.length} failed ` +
      `(${forbidden} forbidden and ${cases.length - forbidden} allowed scratch imports; ` +
      `${problems.length} package.json problems)`,
  );
  process.exitCode = bad === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(`boundaries: ${err.stack || err.message}`);
  process.exitCode = 1;
});
