#!/usr/bin/env node
'use strict';
// Packs every publishable workspace package (packages/*, apps/*; not "private") into one
// directory with `npm pack`, exactly as it would be published. Builds nothing: a package
// without dist/ is an error, so a tarball never ships without its code.
//
//   node tools/pack/pack.js [DIR [NAME...]]   prints one tarball path a line
//
// DIR defaults to dist/pack; NAMEs (package names) choose packages and pull in their
// @trufflepig/* dependencies. The tarballs install together with one `npm install -g A.tgz
// B.tgz ...`: npm resolves each @trufflepig/* dependency to its sibling tarball, never to
// the registry (docs/install.md).
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_DIR = path.join(ROOT, 'dist', 'pack');
const NPM = 'npm';

/** The publishable packages (not "private") under the root's workspace folders: dir, name, deps. */
function publishable() {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const found = [];
  for (const pattern of workspaces) {
    // the root's patterns are all `folder/*`
    const parent = pattern.replace(/\/\*$/, '');
    for (const name of fs.readdirSync(path.join(ROOT, parent)).sort()) {
      const file = path.join(ROOT, parent, name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!manifest.private)
        found.push({ dir: `${parent}/${name}`, name: manifest.name, deps: Object.keys(manifest.dependencies ?? {}) });
    }
  }
  return found;
}

/** `names` and every workspace package they depend on, directly or not. */
function withDependencies(all, names) {
  const byName = new Map(all.map((p) => [p.name, p]));
  const chosen = new Set();
  const visit = (name) => {
    const pkg = byName.get(name);
    if (!pkg) throw new Error(`unknown_package: ${name} is not a publishable workspace package`);
    if (chosen.has(pkg)) return;
    chosen.add(pkg);
    for (const dep of pkg.deps) if (byName.has(dep)) visit(dep);
  };
  names.forEach(visit);
  return all.filter((p) => chosen.has(p));
}

/** Where node's lookup from `from` finds package `name` (node_modules of `from` or an ancestor). */
function installedDir(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir)
      throw new Error(`not_installed: ${name} (needed by ${from}) is not in node_modules; run \`npm ci\` first`);
  }
}

/**
 * Third-party packages under `names` (all publishable packages when empty) that have
 * install scripts, read from this clone's node_modules: the native tree-sitter modules,
 * whose node-gyp-build script compiles the addon when no prebuilt binary loads. npm 11
 * skips dependency install scripts a global install does not allow (docs/install.md).
 */
function withInstallScripts(names = []) {
  const all = publishable();
  const ours = new Set(all.map((p) => p.name));
  const found = new Set();
  const seen = new Set();
  const visit = (dir) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (ours.has(dep)) continue;
      const depDir = installedDir(dep, dir);
      if (seen.has(depDir)) continue;
      seen.add(depDir);
      const scripts = JSON.parse(fs.readFileSync(path.join(depDir, 'package.json'), 'utf8')).scripts ?? {};
      if (scripts.preinstall || scripts.install || scripts.postinstall) found.add(dep);
      visit(depDir);
    }
  };
  for (const p of names.length > 0 ? withDependencies(all, names) : all) visit(path.join(ROOT, p.dir));
  return [...found].sort();
}

/** Packs the publishable packages (all, or `names` with their dependencies) into `dir`; returns the tarballs' paths. */
function packAll(dir = DEFAULT_DIR, names = []) {
  const all = publishable();
  const dirs = (names.length > 0 ? withDependencies(all, names) : all).map((p) => p.dir);
  const unbuilt = dirs.filter((d) => !fs.existsSync(path.join(ROOT, d, 'dist')));
  if (unbuilt.length > 0) {
    throw new Error(`not_built: ${unbuilt.join(', ')} has no dist/; run \`npm run build\` first`);
  }
  const dest = path.resolve(dir);
  fs.mkdirSync(dest, { recursive: true });
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', dest, ...dirs.flatMap((d) => ['-w', d])];
  const packed = JSON.parse(
    execFileSync(NPM, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  return packed.map((p) => path.join(dest, p.filename));
}

module.exports = { packAll, publishable, withInstallScripts };

if (require.main === module) {
  const { parseOptions } = require('../lib/args');
  const { positionals } = parseOptions(process.argv.slice(2), {
    name: 'pack',
    usage: 'usage: node tools/pack/pack.js [DIR [NAME...]]   (DIR default dist/pack; prints one tarball path a line)',
    positionals: true,
  });
  try {
    for (const tarball of packAll(positionals[0], positionals.slice(1))) console.log(tarball);
  } catch (err) {
    process.stderr.write(`pack: ${err.message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}
