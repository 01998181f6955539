// Demand-started indexing of a root nobody is indexing yet (an unpublished linked
// worktree answered from its parent). Runs detached, takes the root's writer lock like
// any reconcile (a second start exits at once), publishes, and exits. The long-lived
// per-root daemon replaces this when the runtime lands.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';

const SCRIPT = path.join(__dirname, 'background-index.js');

/** Start a detached indexer of `root`; false when it cannot start (e.g. running from TypeScript sources). */
export function startBackgroundIndex(root: string, cacheDir: string, seedFrom?: string): boolean {
  if (!fs.existsSync(SCRIPT)) return false;
  try {
    const child = spawn(process.execPath, [SCRIPT, root, cacheDir, ...(seedFrom ? [seedFrom] : [])], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

if (require.main === module) {
  const [root, cacheDir, seedFrom] = process.argv.slice(2);
  if (!root || !cacheDir) {
    process.stderr.write('usage: background-index ROOT CACHE_DIR [SEED_CACHE_DIR]\n');
    process.exitCode = 2;
  } else {
    // Be a polite background job: the foreground queries share these cores.
    try {
      require('node:os').setPriority(10);
    } catch {
      // not permitted here; run at normal priority
    }
    void reconcile(root, { cacheDir, ...(seedFrom ? { seedFrom } : {}) }).then((r) => {
      process.exitCode = r.ok ? 0 : 1;
    });
  }
}
