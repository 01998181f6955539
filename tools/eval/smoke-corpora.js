'use strict';
// Real-code corpora of the language smoke (issue 4), fetched once into WORK/<lang>/corpus:
// Rust crate sources from Debian (the benchmark's corpus), PHP from php-laravel-framework,
// Lua/Luau and TypeScript sources from npm packages (`npm pack`, so only the registry's
// ordinary client is used). A corpus.json stamp beside each corpus makes fetching idempotent;
// a different source list rebuilds it.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const setup = require('../bench/setup');
const { hasCommand } = require('../lib/proc');

const LARAVEL_PACKAGE = 'php-laravel-framework';
const LARAVEL_DIR = '/usr/share/php/Illuminate';

/** npm packages whose sources make the Lua/Luau and TypeScript corpora: spec, and which files to keep. */
const NPM_SOURCES = {
  luau: [
    { spec: '@quenty/datastore@13.57.0', keep: /\.(lua|luau)$/ },
    { spec: '@rbxts-js/react-roblox@17.3.7-ts.1', keep: /\.(lua|luau)$/ },
    { spec: '@rbxts/sift@0.0.9', keep: /\.(lua|luau)$/ },
    { spec: '@rbxts/vide@0.6.1', keep: /\.(lua|luau)$/ },
  ],
  typescript: [{ spec: 'effect@3.22.4', keep: /^src\/.*\.(ts|mts|cts|tsx)$/ }],
};

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw new Error(`${command} failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${(r.stderr || '').trim().split('\n').pop()}`);
  return r.stdout;
}

function walkFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Hard-link (or copy, across file systems) one file. */
function place(src, dest) {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  try {
    fs.linkSync(src, dest);
  } catch {
    fs.copyFileSync(src, dest);
  }
}

function summarize(dir, sources) {
  let bytes = 0;
  const files = walkFiles(dir);
  for (const f of files) bytes += fs.statSync(f).size;
  return { files: files.length, bytes, sources };
}

/** Runs build(dir) unless the stamp says this corpus, with these sources, is already there. */
function stamped(langDir, sources, build) {
  const dir = path.join(langDir, 'corpus');
  const stamp = path.join(langDir, 'corpus.json');
  if (fs.existsSync(stamp) && fs.existsSync(dir)) {
    const known = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    if (JSON.stringify(known.sources) === JSON.stringify(sources)) return { dir, ...known };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(stamp, { force: true });
  fs.mkdirSync(dir, { recursive: true });
  build(dir);
  const summary = summarize(dir, sources);
  fs.writeFileSync(stamp, JSON.stringify(summary));
  return { dir, ...summary };
}

function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !setup.isInstalled(p));
  if (missing.length === 0) return;
  if (!hasCommand('apt-get')) throw new Error(`missing Debian packages ${missing.join(' ')} and no apt-get here`);
  console.error(`$ apt-get update && apt-get install -y ${missing.join(' ')}`);
  run('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'pipe'] });
  run('apt-get', ['install', '-y', ...missing], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function rustCorpus(work) {
  ensureDebianPackages(setup.CORPUS_PACKAGES);
  const langDir = path.join(work, 'rust');
  // The benchmark's own assembly (dependency closure of its five crates), stamped by it.
  const dir = path.join(langDir, 'corpus');
  const summary = setup.assembleCorpus(dir);
  return { dir, ...summary, sources: setup.CORPUS_PACKAGES };
}

function phpCorpus(work) {
  ensureDebianPackages([LARAVEL_PACKAGE]);
  return stamped(path.join(work, 'php'), [LARAVEL_PACKAGE], (dir) => {
    for (const f of walkFiles(LARAVEL_DIR)) place(f, path.join(dir, path.relative(LARAVEL_DIR, f)));
  });
}

/** `npm pack` each package into a scratch directory and keep the matching files under corpus/<package>/. */
function npmCorpus(work, lang) {
  const list = NPM_SOURCES[lang];
  return stamped(path.join(work, lang), list.map((s) => s.spec), (dir) => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-smoke-pack-'));
    try {
      for (const { spec, keep } of list) {
        console.error(`$ npm pack ${spec}`);
        const tarball = run('npm', ['pack', spec, '--silent', '--pack-destination', scratch]).trim().split('\n').pop();
        const unpacked = path.join(scratch, tarball.replace(/\.tgz$/, ''));
        fs.mkdirSync(unpacked);
        run('tar', ['-xzf', path.join(scratch, tarball), '-C', unpacked, '--strip-components=1']);
        const name = spec.slice(0, spec.lastIndexOf('@')).replace(/^@/, '').replace('/', '__');
        let kept = 0;
        for (const f of walkFiles(unpacked)) {
          const rel = path.relative(unpacked, f).split(path.sep).join('/');
          if (!keep.test(rel)) continue;
          place(f, path.join(dir, name, rel));
          kept++;
        }
        if (kept === 0) throw new Error(`${spec} has no files matching ${keep}`);
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
}

const CORPORA = {
  rust: rustCorpus,
  php: phpCorpus,
  luau: (work) => npmCorpus(work, 'luau'),
  typescript: (work) => npmCorpus(work, 'typescript'),
};

module.exports = { CORPORA, NPM_SOURCES };
