// Demand-started indexing of a root nobody is indexing yet (an unpublished linked
// worktree answered from its parent). Runs detached, takes the root's writer lock like
// any reconcile (a second start exits at once), publishes, and exits. The long-lived
// per-root daemon replaces this when the runtime lands.
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';
import { runDetachedJob, startDetached } from './detached-job';

const SCRIPT = path.join(__dirname, 'background-index.js');

/** Start a detached indexer of `root`; false when it cannot start (e.g. running from TypeScript sources). */
export function startBackgroundIndex(root: string, cacheDir: string, seedFrom?: string): boolean {
  return startDetached(SCRIPT, [root, cacheDir, ...(seedFrom ? [seedFrom] : [])]);
}

if (require.main === module) {
  const [root, cacheDir, seedFrom] = process.argv.slice(2);
  runDetachedJob(Boolean(root && cacheDir), 'usage: background-index ROOT CACHE_DIR [SEED_CACHE_DIR]', () =>
    reconcile(root, { cacheDir, ...(seedFrom ? { seedFrom } : {}) }),
  );
}
