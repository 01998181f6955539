'use strict';
// Small real Git repositories in the run's temp directory, the outside canaries, and the
// frozen-index check every experiment ends with.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { sleep } = require('./harness');
const { cacheDirForRoot } = require('@trufflepig/member-root/cache-dir');

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'reliability',
  GIT_AUTHOR_EMAIL: 'reliability@example.invalid',
  GIT_COMMITTER_NAME: 'reliability',
  GIT_COMMITTER_EMAIL: 'reliability@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(root, args, options = {}) {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd: root,
    env: { ...process.env, ...GIT_ENV, HOME: path.dirname(root) },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

let serial = 0;

/**
 * A new repository `<base>/<name>-<n>/root` with `files` (path → string | Buffer) committed,
 * its cache beside it (never inside the root).
 */
function makeRepo(h, name, files, { commit = true, message = 'initial' } = {}) {
  const dir = path.join(h.base, `${name}-${++serial}`);
  const root = path.join(dir, 'root');
  const cache = path.join(dir, 'cache');
  fs.mkdirSync(root, { recursive: true });
  writeFiles(root, files);
  git(root, ['init', '-q']);
  if (commit) {
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '--allow-empty', '-m', message]);
  }
  return { name, dir, root, cache };
}

function writeFiles(root, files) {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A word that exists nowhere yet (letters only, so every lane tokenizes it whole). */
function uniqueWord(prefix = 'fresh') {
  const letters = crypto
    .randomBytes(8)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]);
  return `${prefix}${letters}`;
}

/**
 * Files outside every root whose contents must never be printed: a file and a directory
 * with unique markers, and /etc/passwd. Returns { file, dir, passwd, canaries, words }.
 * `words` appear on the markers' lines, so searching for them (never for a marker itself,
 * which the query echo would print) reaches the marker when the CLI reads outside.
 */
function makeOutside(base) {
  const dir = path.join(base, 'outside');
  const subdir = path.join(dir, 'tree');
  fs.mkdirSync(subdir, { recursive: true });
  const marker = `OUTSIDEMARK${crypto.randomBytes(6).toString('hex')}`;
  const dirMarker = `OUTSIDEDIRMARK${crypto.randomBytes(6).toString('hex')}`;
  const file = path.join(dir, 'canary.txt');
  fs.writeFileSync(file, `zebrafruit root alpha ${marker}\nfn zebrafruit() { ${marker} }\n`);
  for (const name of ['x.txt', 'a.rs', 'secret.ts']) {
    fs.writeFileSync(
      path.join(subdir, name),
      `zebrafruit root alpha ${dirMarker}\nexport function zebrafruit() { return "${dirMarker}"; }\n`,
    );
  }
  const canaries = [marker, dirMarker];
  let passwd = null;
  try {
    const lines = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .filter((l) => l.length >= 16);
    passwd = '/etc/passwd';
    canaries.push(...lines);
  } catch {
    // no /etc/passwd: the marker files still guard every escape
  }
  return { file, dir: subdir, passwd, canaries, marker };
}

/**
 * The frozen-index check: a fresh edit in the root must become searchable. With a daemon,
 * the daemon must take it on its own (it reconciles within about a second) and its `status`
 * answer complete coverage; without, a foreground `index` must publish it (index_locked, a
 * documented transient code, is retried), `search` find it and `status` answer complete.
 * `expectPartial` accepts `partial` coverage where the tree holds files the index
 * legitimately leaves out.
 */
async function freshness(h, exp, repo, { daemon = false, expectPartial = false, waitMs = 8000 } = {}) {
  const a = exp.attempt(`frozen-index check on ${repo.name}${daemon ? ' [daemon]' : ''}`);
  const word = uniqueWord();
  const rel = `fresh_${word}.txt`;
  try {
    fs.writeFileSync(path.join(repo.root, rel), `${word} is a fresh edit\n`);
  } catch (e) {
    a.fail('frozen', `could not write the probe file: ${e.message}`);
    a.done();
    return;
  }
  const found = (call) => call.status === 0 && hitsOf(call).some((hit) => hit.path === rel);
  if (daemon) {
    const until = Date.now() + waitMs;
    let last;
    for (;;) {
      last = await h.run(repo, ['search', word], { daemon: true });
      if (found(last) || Date.now() > until) break;
      await sleep(250);
    }
    // The last poll is the attempt's call: its checks count, and it must have found the word.
    const call = await a.cli(h, repo, ['search', word], { daemon: true, untimed: true });
    if (!found(last) && !found(call))
      a.fail(
        'frozen',
        `the daemon did not take a fresh edit within ${waitMs} ms (search exit ${call.status}: ${String(call.stdout).slice(0, 100)})`,
      );
  } else {
    let index;
    for (let tries = 0; ; tries++) {
      index = await a.cli(h, repo, ['index'], { untimed: true, deadlineMs: Math.max(h.deadlineMs, 120000) });
      if (index.code !== 'index_locked' || tries >= 20) break;
      await sleep(500);
    }
    if (index.status !== 0)
      a.fail('frozen', `index after a fresh edit exited ${index.status}: ${String(index.stderr).trim().slice(0, 120)}`);
    const search = await a.cli(h, repo, ['search', word], { untimed: true });
    if (!found(search)) a.fail('frozen', `search ${word} after index does not find ${rel}`);
  }
  const status = await a.cli(h, repo, ['status'], { daemon, untimed: true });
  const state = status.json && status.json.coverage && status.json.coverage.state;
  if (status.status !== 0) a.fail('frozen', `status exited ${status.status}`);
  else if (state !== 'complete' && !(expectPartial && state === 'partial'))
    a.fail('frozen', `status says coverage ${state}: ${String(status.stdout).slice(0, 120)}`);
  a.done();
}

/** Hits of a search response ([] when none). */
function hitsOf(call) {
  return call && call.json && Array.isArray(call.json.hits) ? call.json.hits : [];
}

/** The root's own directory under the repo's --cache base (`<cache>/<root-hash>`, the CLI's rule). */
function rootCacheDir(repo) {
  return cacheDirForRoot(fs.realpathSync(repo.root), { cacheOverride: repo.cache });
}

module.exports = { git, makeRepo, writeFiles, uniqueWord, makeOutside, freshness, hitsOf, rootCacheDir };
