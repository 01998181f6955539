// ESLint for the whole tree (`npm run lint`, run by `npm test` and so by CI).
//
// - TypeScript in packages/*/{src,test} and apps/*/{src,test}: typescript-eslint's
//   `recommended` (syntax only, no type information, so a lint of the tree stays fast).
// - Plain JavaScript (tools/, build scripts, jest configs): ESLint's `recommended`,
//   CommonJS with Node's globals.
// - `trufflepig/boundaries`: who may import whom. The two tables below are the only place
//   the rules are written; tools/lint/boundaries.js checks that the rule enforces them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * docs/architecture.md, "Packages and allowed edges": the @trufflepig packages each
 * package may import (its own name aside). Third-party dependencies are not listed here.
 * Keep the two in step: a new edge is a change to the table in the doc and here.
 */
export const PACKAGE_DEPENDENCIES = {
  '@trufflepig/base': [],
  '@trufflepig/config': [],
  '@trufflepig/member-root': [],
  '@trufflepig/rank': [],
  '@trufflepig/render': [],
  '@trufflepig/result-cache': [],
  // A leaf with no dependencies: the one declaration of the CLI's verbs and options.
  '@trufflepig/cli-surface': [],
  '@trufflepig/index': ['@trufflepig/rank'],
  '@trufflepig/runtime': ['@trufflepig/index'],
  '@trufflepig/navigation': ['@trufflepig/index', '@trufflepig/rank', '@trufflepig/render', '@trufflepig/result-cache'],
  '@trufflepig/history': ['@trufflepig/index', '@trufflepig/render', '@trufflepig/result-cache'],
  '@trufflepig/workspace': [
    '@trufflepig/cli-surface',
    '@trufflepig/config',
    '@trufflepig/member-root',
    '@trufflepig/rank',
    '@trufflepig/render',
    '@trufflepig/result-cache',
    '@trufflepig/index',
    '@trufflepig/runtime',
    '@trufflepig/history',
    '@trufflepig/navigation',
  ],
  '@trufflepig/mcp': ['@trufflepig/cli-surface', '@trufflepig/workspace'],
  // member-root and index through their light subpaths only (cache-dir, classify): the
  // Claude hook and agent-setup run on every tool call and must not load the facade.
  trufflepig: [
    '@trufflepig/cli-surface',
    '@trufflepig/workspace',
    '@trufflepig/mcp',
    '@trufflepig/member-root',
    '@trufflepig/index',
  ],
};

/** The leaf every package may import: the shared contracts with one owner (docs/architecture.md). */
export const EVERY_PACKAGE_MAY_IMPORT = ['@trufflepig/base'];

/**
 * Folders of packages/workspace/src and the other folders each may import, lowest layer
 * first (docs/architecture.md, "Inside @trufflepig/workspace"). A folder always may import
 * itself; a key with a slash (`serving/launch`) is a layer of its own inside its parent.
 * Files at the top of src/ (the entry) are not constrained.
 */
export const WORKSPACE_LAYERS = {
  // records and readers every verb shares: context, errors, the reader pool, one root's search and show
  core: [],
  // the client side of background processes: start or ask a daemon, run a detached job
  'serving/launch': ['core'],
  // many members as one answer; a coordinated search demand-starts member daemons
  federation: ['core', 'serving/launch'],
  // refs, map, ctx, show sym: over the targets federation selects
  navigation: ['core', 'federation'],
  // hist, blame, since, diff: a symbol's history starts from its definition
  'history-verbs': ['core', 'serving/launch', 'federation', 'navigation'],
  // the verbs as commands, and the typed library API
  facade: ['core', 'serving/launch', 'federation', 'navigation', 'history-verbs'],
  // the processes: root daemon, coordinator, reconcile worker; they answer with the verbs
  'serving/host': ['core', 'serving/launch', 'federation', 'navigation', 'history-verbs', 'facade'],
};

/** Packages whose src/ folders are layered, with their tables. */
export const PACKAGE_LAYERS = { '@trufflepig/workspace': WORKSPACE_LAYERS };

/** Every package.json under packages/ and apps/: name, folder and declared subpath exports. */
function readPackages() {
  const found = new Map();
  for (const parent of ['packages', 'apps']) {
    const base = path.join(ROOT, parent);
    if (!fs.existsSync(base)) continue;
    for (const entry of fs.readdirSync(base, { withFileTypes: true })) {
      const manifest = path.join(base, entry.name, 'package.json');
      if (!entry.isDirectory() || !fs.existsSync(manifest)) continue;
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      const exportsField = pkg.exports && typeof pkg.exports === 'object' ? pkg.exports : { '.': pkg.exports };
      const subpaths = Object.keys(exportsField)
        .filter((key) => key.startsWith('./'))
        .map((key) => key.slice(2));
      found.set(pkg.name, { name: pkg.name, dir: path.join(base, entry.name), subpaths: new Set(subpaths) });
    }
  }
  return found;
}

export const PACKAGES = readPackages();

/** A bare specifier's package name and subpath: `@trufflepig/index/classify` -> [name, 'classify']. */
function splitSpecifier(spec) {
  const parts = spec.split('/');
  const nameLength = spec.startsWith('@') ? 2 : 1;
  return [parts.slice(0, nameLength).join('/'), parts.slice(nameLength).join('/')];
}

const isOurs = (name) => name.startsWith('@trufflepig/') || name in PACKAGE_DEPENDENCIES;

const within = (dir, file) => {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The first folder below `src/` of a layered package, or null for a file at the top of src/. */
function layerOf(pkg, file) {
  const rel = path.relative(path.join(pkg.dir, 'src'), file).split(path.sep);
  if (rel[0] === '..' || path.isAbsolute(rel[0]) || rel.length < 2) return null;
  const nested = rel.length > 2 ? `${rel[0]}/${rel[1]}` : null;
  return nested && nested in (PACKAGE_LAYERS[pkg.name] ?? {}) ? nested : rel[0];
}

const boundariesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Package edges (PACKAGE_DEPENDENCIES) and workspace layers (WORKSPACE_LAYERS)' },
    schema: [],
    messages: {
      edge: '{{from}} may not import {{to}}: not an edge of PACKAGE_DEPENDENCIES (docs/architecture.md).',
      unknown: '{{to}} is not a package of this repository (PACKAGE_DEPENDENCIES).',
      subpath: "'{{spec}}' is not an export of {{to}}: import its entry or a subpath its package.json exports.",
      self: '{{from}} imports itself by name: import its own files with a relative path.',
      escape: "'{{spec}}' leaves {{from}}'s folder: import another package by name, through its exports.",
      layer: 'workspace/src/{{fromLayer}}/ may not import from {{toLayer}}/ (WORKSPACE_LAYERS in eslint.config.mjs).',
      unlisted: 'workspace/src/{{fromLayer}}/ is not a folder of WORKSPACE_LAYERS in eslint.config.mjs.',
      unlistedPackage: '{{from}} is not in PACKAGE_DEPENDENCIES (eslint.config.mjs and docs/architecture.md).',
    },
  },
  create(context) {
    const file = context.filename;
    const from = [...PACKAGES.values()].find((pkg) => within(pkg.dir, file));
    if (!from) return {};
    const layers = PACKAGE_LAYERS[from.name];
    const fromLayer = layers && within(path.join(from.dir, 'src'), file) ? layerOf(from, file) : null;
    const allowed = new Set([...(PACKAGE_DEPENDENCIES[from.name] ?? []), ...EVERY_PACKAGE_MAY_IMPORT]);
    const inTest = within(path.join(from.dir, 'test'), file);

    // `resolveOnly`: require.resolve() finds a file (its own package.json), it loads nothing.
    const check = (node, source, resolveOnly = false) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        // A test may drive the repository's own tools (tools/pack, tools/reliability).
        if (inTest && within(path.join(ROOT, 'tools'), target)) return;
        if (!within(from.dir, target)) {
          context.report({ node: source, messageId: 'escape', data: { spec, from: from.name } });
          return;
        }
        if (!fromLayer || !(fromLayer in layers) || !within(path.join(from.dir, 'src'), target)) return;
        const toLayer = layerOf(from, target);
        if (toLayer && toLayer !== fromLayer && !layers[fromLayer].includes(toLayer)) {
          context.report({ node: source, messageId: 'layer', data: { fromLayer, toLayer } });
        }
        return;
      }
      const [to, subpath] = splitSpecifier(spec);
      if (!isOurs(to)) return;
      const data = { spec, from: from.name, to };
      if (!(to in PACKAGE_DEPENDENCIES)) return context.report({ node: source, messageId: 'unknown', data });
      if (to === from.name && !inTest && !resolveOnly) return context.report({ node: source, messageId: 'self', data });
      if (to !== from.name && !allowed.has(to)) return context.report({ node: source, messageId: 'edge', data });
      const target = PACKAGES.get(to);
      if (subpath && !(target && target.subpaths.has(subpath))) {
        context.report({ node: source, messageId: 'subpath', data });
      }
    };

    return {
      Program(node) {
        if (!(from.name in PACKAGE_DEPENDENCIES)) {
          context.report({
            node,
            loc: { line: 1, column: 0 },
            messageId: 'unlistedPackage',
            data: { from: from.name },
          });
        }
        if (fromLayer && !(fromLayer in layers)) {
          context.report({ node, loc: { line: 1, column: 0 }, messageId: 'unlisted', data: { fromLayer } });
        }
      },
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal),
      TSExternalModuleReference: (node) => check(node, node.expression),
      CallExpression(node) {
        const callee = node.callee;
        const isRequire = callee.type === 'Identifier' && callee.name === 'require';
        const isResolve =
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'require' &&
          callee.property.type === 'Identifier' &&
          callee.property.name === 'resolve';
        if ((isRequire || isResolve) && node.arguments.length > 0) check(node, node.arguments[0], isResolve);
      },
    };
  },
};

// `_name` marks a deliberately unused binding; `{ drop: _, ...rest }` omits a key.
const UNUSED_VARS = [
  'error',
  { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
];

const COMMON_RULES = {
  // Rendering escapes control characters and its tests assert on them: such regexes are the point.
  'no-control-regex': 'off',
};

const TS_FILES = ['packages/*/src/**/*.ts', 'packages/*/test/**/*.ts', 'apps/*/src/**/*.ts', 'apps/*/test/**/*.ts'];

export default defineConfig([
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    '**/coverage/',
    '**/fixtures/',
    'examples/',
    'tools/**/results/',
    '.nx/',
    '**/.trufflepig/',
    'tmp/',
  ]),
  {
    name: 'trufflepig/typescript',
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      ...COMMON_RULES,
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': UNUSED_VARS,
      // Lazy require() keeps the index and native grammars off the CLI's start-up path (docs/daemon.md).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    name: 'trufflepig/typescript-tests',
    files: ['packages/*/test/**/*.ts', 'apps/*/test/**/*.ts'],
    // Tests assert on parsed JSON output: `any` there is the honest type; src/ keeps the rule.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    name: 'trufflepig/javascript',
    files: ['**/*.js', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: {
      ...COMMON_RULES,
      'no-unused-vars': UNUSED_VARS,
      // `l` is V8's experimental linear-time RegExp flag, which tools/bench probes on purpose.
      'no-invalid-regexp': ['error', { allowConstructorFlags: ['l'] }],
    },
  },
  {
    name: 'trufflepig/esm',
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: globals.node },
    rules: { ...COMMON_RULES, 'no-unused-vars': UNUSED_VARS },
  },
  {
    name: 'trufflepig/boundaries',
    files: TS_FILES,
    plugins: { trufflepig: { rules: { boundaries: boundariesRule } } },
    rules: { 'trufflepig/boundaries': 'error' },
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
]);
