'use strict';
// The daemon's own status (reconcile runs, generation, memory) over its socket, through the
// repository's runtime client: the CLI's `status` does not show the reconcile schedule.
const fs = require('fs');
const path = require('path');
const { cacheDirForRoot } = require('@trufflepig/member-root/cache-dir');
const { REPO_ROOT } = require('../../lib/proc');

let runtime = null;
function loadRuntime() {
  if (!runtime) runtime = require(path.join(REPO_ROOT, 'packages', 'runtime', 'dist'));
  return runtime;
}

/**
 * DaemonStatus ({ pid, generation, reconcile: { runs, running, ... }, memory }) or null.
 * `--cache` is a base: the daemon's socket is in the root's own directory under it.
 */
async function daemonStatusOf(ctx) {
  const dir = cacheDirForRoot(fs.realpathSync(ctx.corpus), { cacheOverride: ctx.cache });
  const r = await loadRuntime().daemonStatus(dir, { timeoutMs: 5000 });
  return r.ok ? r.status : null;
}

/** Waits until no reconcile runs or is queued, then `idleMs` more; returns the last status. */
async function waitIdle(ctx, idleMs, timeoutMs = 60000) {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const started = Date.now();
  for (;;) {
    const s = await daemonStatusOf(ctx);
    if (s && !s.reconcile.running && !s.reconcile.followUpQueued) break;
    if (Date.now() - started > timeoutMs) break;
    await sleep(100);
  }
  await sleep(idleMs);
  return daemonStatusOf(ctx);
}

module.exports = { daemonStatusOf, waitIdle };
