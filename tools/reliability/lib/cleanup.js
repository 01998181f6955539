'use strict';
// Ends everything the run started, on every exit path (normal end, error, SIGINT, SIGTERM):
// `stop` for each root a daemon-mode call touched, SIGKILL by pid for any process still
// running with the run's temp directory on its command line (daemons, stuck indexers),
// registered helper processes, tmpfs mounts, then the temp directory itself.
const fs = require('fs');
const { spawnSync } = require('child_process');

/** Pids whose command line mentions `needle` (never this process). */
function pidsMentioning(needle) {
  const pids = [];
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}

function killPid(pid) {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function makeCleanup(h, { keep = false } = {}) {
  const helpers = new Set();
  const mounts = new Set();
  let done = false;
  /** `stop` for every root a daemon-mode call of `scope` touched, then SIGKILL for what is left under it. */
  const stopDaemons = (scope = h) => {
    for (const repo of scope.daemonTargets.values()) {
      if (!fs.existsSync(repo.root)) continue;
      spawnSync(process.execPath, [h.cliPath, '--root', repo.root, '--cache', repo.cache, 'stop'], {
        env: h.env,
        stdio: 'ignore',
        timeout: 5000,
      });
    }
    scope.daemonTargets.clear();
    for (const pid of pidsMentioning(scope.base)) if (!isTrackedChild(h, pid) && !isHelper(pid)) killPid(pid);
  };
  const isHelper = (pid) => [...helpers].some((c) => c.pid === pid);
  const cleanup = () => {
    if (done) return;
    done = true;
    for (const child of [...h.children, ...helpers]) if (child.pid) killPid(child.pid);
    for (const scope of [h, ...h.scopes]) stopDaemons(scope);
    for (const pid of pidsMentioning(h.base)) killPid(pid);
    for (const dir of mounts) spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
    if (!keep) {
      try {
        fs.rmSync(h.base, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // a daemon may still be removing its socket: what is left is in the temp directory
      }
    }
  };
  return {
    cleanup,
    stopDaemons,
    /** A helper child (flipper, writer) to kill at the end. */
    addHelper: (child) => helpers.add(child),
    removeHelper: (child) => helpers.delete(child),
    addMount: (dir) => mounts.add(dir),
    removeMount: (dir) => mounts.delete(dir),
    /** Kills every daemon of one root now (a stalled daemon does not answer `stop`). */
    killDaemonsOf: (repo) =>
      pidsMentioning(repo.cache)
        .filter((pid) => !isTrackedChild(h, pid))
        .map(killPid).length,
  };
}

function isTrackedChild(h, pid) {
  for (const child of h.children) if (child.pid === pid) return true;
  return false;
}

module.exports = { makeCleanup, pidsMentioning, killPid };
