// A root daemon's first search on a root it has not indexed yet: the read waits for the
// daemon's first reconcile and answers, instead of `index_warming` with a `run: index`
// that would meet the daemon's lock (an agent trial on the Neovim runtime spent three
// commands before its first answer). Real repositories, the real reconcile and verbs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';
import { rootHash } from '@trufflepig/member-root';
import { ROOT_DAEMON_HOST } from '../src/core/host';
import { FIRST_INDEX_WAIT_MS } from '../src/core/limits';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '@trufflepig/runtime';
import { answerWhenIndexed, type ServedRequest } from '../src/serving/host/daemon-handler';
import { makeRepo } from './ws-helpers';

function freshRoot(): { root: string; cacheDir: string; req: ServedRequest } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-first-')));
  const root = makeRepo(path.join(base, 'repo'), { 'src/bucket.rs': 'pub fn refill_tokens() {}\n' });
  const cache = path.join(base, 'cache');
  const req: ServedRequest = { verb: 'search', args: ['refill_tokens'], options: { root, cache }, cwd: root };
  return { root, cacheDir: path.join(cache, rootHash(root)), req };
}

describe('a read before the daemon published its first index', () => {
  it('waits for the first reconcile and answers', async () => {
    const { root, cacheDir, req } = freshRoot();
    let waited = 0;
    const answer = await answerWhenIndexed(
      req,
      ROOT_DAEMON_HOST,
      async (ms) => {
        waited = ms;
        const run = await reconcile(root, { cacheDir, parallelism: 1 });
        return run.ok;
      },
      5_000,
    );
    expect(waited).toBe(5_000);
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout).toMatch(/src\/bucket\.rs/);
  });

  it('past the wait, says the daemon is building it, and does not send the agent to `index`', async () => {
    const { req } = freshRoot();
    const answer = await answerWhenIndexed(req, ROOT_DAEMON_HOST, async () => false, 2_000);
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toMatch(
      /^trufflepig: index_warming: this root's daemon \(pid \d+\) is building its first index/,
    );
    expect(answer.stderr).not.toMatch(/run: trufflepig/);
  });

  it('after a first reconcile that published nothing, answers index_warming naming the --cache base to index with', async () => {
    const { root, req } = freshRoot();
    const answer = await answerWhenIndexed(req, ROOT_DAEMON_HOST, async () => true, 5_000);
    expect(answer.exitCode).toBe(2);
    const cache = String(req.options.cache);
    expect(answer.stderr).toContain(
      `index_warming: no index for ${root} yet; run: trufflepig --root ${root} --cache ${cache} index`,
    );
  });

  it('waits less than a client waits for the reply, so the client gets the answer, not a timeout', () => {
    expect(FIRST_INDEX_WAIT_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS - 2_000);
  });

  it('answers at once when an index is published, without waiting', async () => {
    const { root, cacheDir, req } = freshRoot();
    await reconcile(root, { cacheDir, parallelism: 1 });
    const answer = await answerWhenIndexed(req, ROOT_DAEMON_HOST, () => Promise.reject(new Error('not asked')), 5_000);
    expect(answer.exitCode).toBe(0);
  });
});
