'use strict';
// Assembles each corpus into WORK/<name>/repo as a Git repository with everything committed
// (vendored node_modules included, with `git add -f`), then checks every labelled file
// against its pinned SHA-256. Reused when the stamp matches; delete WORK to reassemble.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { run, hasCommand } = require('../../lib/proc');
const { ensureDebianPackages, npmPack, untar } = require('../../lib/corpus');
const { CORPORA } = require('./corpora');

const DEFAULT_WORK = path.join(os.tmpdir(), 'trufflepig-agent-replay');
const STAMP = 'corpus.json';
const BASELINE_PACKAGE = 'ripgrep';

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Copies a tree, leaving out byte-compiled caches (not part of the package's sources). */
function copyTree(from, to) {
  fs.cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (src) => path.basename(src) !== '__pycache__' && !src.endsWith('.pyc'),
  });
}

function assemble(name, spec, repo) {
  fs.rmSync(repo, { recursive: true, force: true });
  fs.mkdirSync(repo, { recursive: true });
  if (spec.kind === 'npm') {
    const pack = path.join(path.dirname(repo), 'pack');
    fs.rmSync(pack, { recursive: true, force: true });
    fs.mkdirSync(pack, { recursive: true });
    untar(npmPack(spec.spec, pack), repo);
  } else {
    ensureDebianPackages(spec.packages);
    for (const s of spec.sources) copyTree(s.from, path.join(repo, s.to));
  }
  const env = {
    GIT_AUTHOR_NAME: 'replay',
    GIT_AUTHOR_EMAIL: 'replay@example.invalid',
    GIT_COMMITTER_NAME: 'replay',
    GIT_COMMITTER_EMAIL: 'replay@example.invalid',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
  run('git', ['init', '-q', '-b', 'main'], { cwd: repo, env });
  // -f: commit vendored dependencies even where a packaged .gitignore would leave them out.
  run('git', ['add', '-A', '-f', '.'], { cwd: repo, env });
  run('git', ['commit', '-q', '-m', `corpus ${name}`], { cwd: repo, env });
}

/**
 * Ensures every corpus exists under work; returns { name: repoDir }. Throws naming the file
 * when a labelled file is missing or differs from its pinned SHA-256.
 */
function setup(work, pins) {
  if (!hasCommand('git')) throw new Error('git is required');
  // The grep strategy is written for rg (the baseline the issue names); grep -rnE is only the
  // fallback of a machine without apt-get.
  if (!hasCommand('rg') && hasCommand('apt-get')) ensureDebianPackages([BASELINE_PACKAGE]);
  const roots = {};
  for (const [name, spec] of Object.entries(CORPORA)) {
    const dir = path.join(work, name);
    const repo = path.join(dir, 'repo');
    const stampFile = path.join(dir, STAMP);
    const wanted = JSON.stringify(spec);
    let stamp = null;
    try {
      stamp = fs.readFileSync(stampFile, 'utf8');
    } catch {
      /* not assembled yet */
    }
    if (stamp !== wanted || !fs.existsSync(path.join(repo, '.git'))) {
      process.stderr.write(`agent-replay: assembling corpus ${name} in ${repo}\n`);
      assemble(name, spec, repo);
      fs.writeFileSync(stampFile, wanted);
    }
    roots[name] = repo;
  }
  const problems = [];
  for (const [key, hash] of Object.entries(pins)) {
    const [corpus, ...rest] = key.split('/');
    const rel = rest.join('/');
    const file = path.join(roots[corpus] || '/nonexistent', rel);
    if (!fs.existsSync(file)) problems.push(`${corpus}:${rel}: pinned but missing`);
    else if (sha256(file) !== hash)
      problems.push(
        `${corpus}:${rel}: content changed (sha256 ${sha256(file).slice(0, 12)}…, pinned ${hash.slice(0, 12)}…)`,
      );
  }
  if (problems.length) throw new Error(`corpus differs from the pinned manifest:\n  ${problems.join('\n  ')}`);
  return roots;
}

module.exports = { setup, sha256, DEFAULT_WORK };

if (require.main === module) {
  const { parseOptions } = require('../../lib/args');
  const { positionals } = parseOptions(process.argv.slice(2), {
    name: 'agent-replay',
    usage:
      'usage: node tools/eval/agent-replay/setup.js [WORK]   (assembles the corpora; default WORK $TMPDIR/trufflepig-agent-replay)',
    positionals: true,
  });
  const roots = setup(positionals[0] || DEFAULT_WORK, {});
  for (const [k, v] of Object.entries(roots)) console.log(`${k}\t${v}`);
}
