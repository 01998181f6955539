'use strict';
// Real-code corpora of the language smoke (issue 4), fetched once into WORK/<lang>/corpus:
// Rust crate sources from Debian (the core benchmark's corpus), PHP from php-laravel-framework,
// Lua/Luau and TypeScript sources from npm packages (`npm pack`, so only the registry's
// ordinary client is used). A corpus.json stamp beside each corpus makes fetching idempotent;
// a different source list rebuilds it. Assembled with tools/lib/corpus.js.
const fs = require('fs');
const path = require('path');
const corpus = require('../../lib/corpus');

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

/** Builds WORK/<lang>/corpus with `build` unless its corpus.json stamp names these sources; returns { dir, files, bytes, sources }. */
function stamped(langDir, sources, build) {
  const dir = path.join(langDir, 'corpus');
  return { dir, ...corpus.buildOnce(dir, build, { stamp: path.join(langDir, 'corpus.json'), sources }) };
}

function rustCorpus(work) {
  corpus.ensureDebianPackages(corpus.CORE_PACKAGES);
  // The core benchmark's assembly (dependency closure of its five crates), stamped by it.
  const dir = path.join(work, 'rust', 'corpus');
  const summary = corpus.coreCorpus(dir);
  return { dir, ...summary, sources: corpus.CORE_PACKAGES };
}

function phpCorpus(work) {
  corpus.ensureDebianPackages([LARAVEL_PACKAGE]);
  return stamped(path.join(work, 'php'), [LARAVEL_PACKAGE], (dir) =>
    corpus.linkFiles(corpus.walkFiles(LARAVEL_DIR), LARAVEL_DIR, dir),
  );
}

/** `npm pack` each package into a scratch directory and keep the matching files under corpus/<package>/. */
function npmCorpus(work, lang) {
  const list = NPM_SOURCES[lang];
  return stamped(
    path.join(work, lang),
    list.map((s) => s.spec),
    (dir) =>
      corpus.withScratch('tp-smoke-pack-', (scratch) => {
        for (const { spec, keep } of list) {
          const tarball = corpus.npmPack(spec, scratch);
          const unpacked = tarball.replace(/\.tgz$/, '');
          fs.mkdirSync(unpacked);
          corpus.untar(tarball, unpacked);
          const name = spec.slice(0, spec.lastIndexOf('@')).replace(/^@/, '').replace('/', '__');
          let kept = 0;
          for (const f of corpus.walkFiles(unpacked)) {
            const rel = path.relative(unpacked, f).split(path.sep).join('/');
            if (!keep.test(rel)) continue;
            corpus.linkOrCopy(f, path.join(dir, name, rel));
            kept++;
          }
          if (kept === 0) throw new Error(`${spec} has no files matching ${keep}`);
        }
      }),
  );
}

const CORPORA = {
  rust: rustCorpus,
  php: phpCorpus,
  luau: (work) => npmCorpus(work, 'luau'),
  typescript: (work) => npmCorpus(work, 'typescript'),
};

module.exports = { CORPORA, NPM_SOURCES };
