// A root daemon process: `node serving/host/daemon-main.js ROOT CACHE_DIR`. Serves the read verbs
// from warm, pooled indexes while its own reconciler keeps the root's index current
// (@trufflepig/runtime owns the socket, lock, watcher and schedule).
import * as fs from 'node:fs';
import { serveRoot, type Failure, type RunningDaemon } from '@trufflepig/runtime';
import { warmTokenizer } from '@trufflepig/render';
import { answerWhenIndexed, type ServedRequest } from './daemon-handler';
import { topLevelOf } from '../launch/fast-client';
import { cacheBaseOf, refreshHistoryIndex } from '../../history-verbs/log-index';
import { closeIdleStaleReaders } from '../../core/reader-pool';
import { ROOT_DAEMON_HOST } from '../../core/host';
import { reconcileInWorker } from './reconcile-worker';
import { FIRST_INDEX_WAIT_MS } from '../../core/limits';

/** The compiled entry script, for starting a detached daemon. */
export const DAEMON_ENTRY = __filename.replace(/\.ts$/, '.js');

/**
 * `req` with this daemon's root made explicit when the client's own rule chose it: no
 * --root, --workspace or --member, and the `.git` walk from the request's directory
 * (fast-client.ts topLevelOf, what addressed this daemon) ends at `root`. The verb then
 * resolves no root itself, which is a `git rev-parse` process per request (7 of a served
 * kernel search's ~60 ms). Any other request is answered as sent.
 */
export function addressedHere(req: ServedRequest, root: string): ServedRequest {
  const { root: asked, workspace, member } = req.options;
  if (asked !== undefined || workspace !== undefined || member !== undefined) return req;
  let top: string;
  try {
    top = fs.realpathSync(topLevelOf(req.cwd));
  } catch {
    return req;
  }
  return top === root ? { ...req, options: { ...req.options, root } } : req;
}

/** Serve `root` in this process until stopped (the `serve` verb, and the detached daemon). */
export async function serveRootDaemon(
  root: string,
  cacheDir: string,
  log?: (line: string) => void,
  seedFrom?: string,
): Promise<{ ok: true; daemon: RunningDaemon } | Failure> {
  warmTokenizer();
  return serveRoot({
    root,
    cacheDir,
    ...(log ? { log } : {}),
    reconcile: async (changed) => {
      const run = await reconcileInWorker(root, cacheDir, seedFrom, changed);
      if (run.ok && run.value.published) closeIdleStaleReaders();
      // The repository's history index follows HEAD: a detached builder when HEAD moved
      // (history-verbs/log-index.ts). Checked after the reconcile is answered: its two git
      // calls (40 ms on the kernel) are not what a search waiting for an edit waits for.
      setImmediate(() => refreshHistoryIndex(root, cacheBaseOf(cacheDir)));
      return run;
    },
    // Every served verb reads: each first waits for the edits the watcher just noted
    // (read-your-own-writes, bounded; @trufflepig/runtime RequestContext.settleNoted).
    handler: async (req, ctx) => {
      await ctx.settleNoted();
      return answerWhenIndexed(
        addressedHere(req, root),
        ROOT_DAEMON_HOST,
        ctx.firstReconcileWithin,
        FIRST_INDEX_WAIT_MS,
      );
    },
  });
}

if (require.main === module) {
  const [root, cacheDir, seedFrom] = process.argv.slice(2);
  if (!root || !cacheDir) {
    process.stderr.write('usage: daemon-main ROOT CACHE_DIR [SEED_CACHE_DIR]\n');
    process.exitCode = 2;
  } else {
    serveRootDaemon(root, cacheDir, (line) => process.stderr.write(`${line}\n`), seedFrom).then(
      (started) => {
        if (started.ok) return started.daemon.done.then(() => undefined);
        process.stderr.write(`trufflepig daemon: ${started.code}: ${started.message}\n`);
        process.exitCode = started.code === 'daemon_running' ? 0 : 1;
        return undefined;
      },
      (err: unknown) => {
        process.stderr.write(`trufflepig daemon: ${(err as Error).message ?? String(err)}\n`);
        process.exitCode = 1;
      },
    );
  }
}
