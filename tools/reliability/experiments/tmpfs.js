'use strict';
// 6. A full cache: the cache lives on a 3 MiB tmpfs. The first index fits; then the tree
// grows past the space (or a filler file takes the rest) and `index` must fail with a coded
// error, leave the previous generation answering, and recover once space is back.
// Skipped with a note when the mount is refused (not root, no CAP_SYS_ADMIN).
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { once, sleep } = require('../lib/harness');
const { makeRepo, freshness, hitsOf, rootCacheDir } = require('../lib/repo');

function bulk(repo, n, round) {
  // Varied text (random hex words) so the index cannot compress it away.
  for (let i = 0; i < n; i++) {
    const words = crypto
      .randomBytes(150000)
      .toString('hex')
      .match(/.{1,12}/g)
      .map((w) => `w${w}`)
      .join(' ');
    fs.writeFileSync(path.join(repo.root, `bulk${round}_${i}.txt`), words);
  }
}

async function run(h, exp, rng, out, plan, cleanupApi) {
  const mount = path.join(h.base, 'tmpfs');
  fs.mkdirSync(mount, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mount], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    exp.state = 'skipped';
    exp.note(`mount -t tmpfs refused: ${(mounted.stderr || mounted.error || '').toString().trim().slice(0, 120)}`);
    return;
  }
  cleanupApi.addMount(mount);
  try {
    const repo = makeRepo(h, 'tmpfs', {
      'src/lib.rs': 'pub fn tmpfsword() -> u32 { 7 }\n',
      'README.md': 'tmpfsword docs\n',
    });
    repo.cache = path.join(mount, 'cache');
    const first = await once(h, exp, repo, ['index'], { untimed: true });
    const handle = hitsOf(await once(h, exp, repo, ['search', 'tmpfsword'])).map((hit) => hit.handle)[0];
    if (first.status !== 0 || !handle) {
      exp.state = 'failed to set up';
      exp.note(`first index into the tmpfs exited ${first.status}: ${first.stderr.toString().slice(0, 160)}`);
      return;
    }
    const codes = new Map();
    for (let i = 0; i < plan.tmpfs; i++) {
      const daemon = i % 3 === 1;
      const a = exp.attempt(`index into a full cache #${i + 1}${daemon ? ' [daemon running]' : ''}`);
      const filler = path.join(mount, 'filler');
      if (i % 2 === 1) bulk(repo, 12, i);
      else {
        fs.writeFileSync(path.join(repo.root, `small${i}.txt`), `tmpfsword small edit ${i}\n`);
        fill(filler);
      }
      if (daemon) await a.cli(h, repo, ['search', 'tmpfsword'], { daemon: true });
      // Beside a daemon the foreground index may meet index_locked (documented, transient:
      // the daemon reconciles); retried so that it meets the full disk itself.
      let index;
      for (let tries = 0; ; tries++) {
        index = await a.cli(h, repo, ['index'], { untimed: true, deadlineMs: 60000 });
        if (index.code !== 'index_locked' || tries >= 10) break;
        await sleep(500);
      }
      if (index.status === 0)
        a.fail('contract', `index into a full cache exited 0: ${index.stdout.toString().slice(0, 120)}`);
      else if (index.code) codes.set(index.code, (codes.get(index.code) || 0) + 1);
      // The previous generation must be intact (read once the filler is gone: a search
      // stores its result set in the cache, which a full disk may refuse with a code).
      fs.rmSync(filler, { force: true });
      for (const viaDaemon of daemon ? [true, false] : [false]) {
        const shown = await a.cli(h, repo, ['show', handle], { daemon: viaDaemon, untimed: true });
        if (shown.status !== 0 || !shown.stdout.toString().includes('tmpfsword'))
          a.fail(
            'contract',
            `previous generation lost: show of a handle from before exited ${shown.status} ${shown.stdout.toString().slice(0, 80)}`,
          );
        const search = await a.cli(h, repo, ['search', 'tmpfsword'], { daemon: viaDaemon, untimed: true });
        if (hitsOf(search).length === 0)
          a.fail('contract', `previous generation does not answer search (exit ${search.status})`);
      }
      const leftovers = fs.readdirSync(rootCacheDir(repo)).filter((n) => n.includes('staging'));
      if (leftovers.length) a.fail('contract', `staging files left on the full disk: ${leftovers.join(' ')}`);
      a.done();
      // Space back: without the bulk the index must recover.
      for (const name of fs.readdirSync(repo.root)) if (name.startsWith('bulk')) fs.rmSync(path.join(repo.root, name));
      if (daemon) cleanupApi.killDaemonsOf(repo);
      await freshness(h, exp, repo, {});
    }
    exp.note(`codes of the failed indexes: ${[...codes].map(([c, n]) => `${c} ×${n}`).join(', ') || 'none'}`);
  } finally {
    cleanupApi.killDaemonsOf({ cache: path.join(mount, 'cache') });
    spawnSync('umount', ['-l', mount], { stdio: 'ignore' });
    cleanupApi.removeMount(mount);
  }
}

/** Takes every free byte of the tmpfs. */
function fill(file) {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch {
    // ENOSPC: full
  } finally {
    fs.closeSync(fd);
  }
}

module.exports = { run, title: 'full tmpfs cache (3 MiB)' };
