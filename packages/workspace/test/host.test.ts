// The host a command runs in is a value passed with it (core/host.ts), not a process
// flag: the same call in the same process behaves as a client or as a daemon by what
// it is given.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openPublished, releaseReader } from '../src/core/reader-pool';
import { CLIENT_HOST, ROOT_DAEMON_HOST, searchCommand, statusCommand } from '../src';

function tempRoot(): { root: string; cache: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-host-')));
  const root = path.join(base, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'bucket.rs'), 'pub fn refill_tokens() {}\n');
  return { root, cache: path.join(base, 'cache') };
}

describe('host as a value', () => {
  it('a daemon host answers index_warming for an unpublished root; a client host indexes it, in one process', async () => {
    const { root, cache } = tempRoot();
    const opts = { root, cache, noWorkspace: true, format: 'json' as const };
    const served = await searchCommand(['refill_tokens'], { ...opts, host: ROOT_DAEMON_HOST });
    expect(served.exitCode).toBe(2);
    expect(JSON.parse(served.stdout).error.code).toBe('index_warming');
    const client = await searchCommand(['refill_tokens'], { ...opts, host: CLIENT_HOST });
    expect(client.exitCode).toBe(0);
    expect(JSON.parse(client.stdout).hits[0].path).toBe('bucket.rs');
    // The default is the client.
    expect((await searchCommand(['refill_tokens'], opts)).exitCode).toBe(0);
  });

  it('only a pooling host reuses readers', async () => {
    const { root, cache } = tempRoot();
    expect((await searchCommand(['refill_tokens'], { root, cache, noWorkspace: true })).exitCode).toBe(0);
    const a = await openPublished(CLIENT_HOST, path.join(cache, fs.readdirSync(cache)[0]), root);
    const b = await openPublished(CLIENT_HOST, path.join(cache, fs.readdirSync(cache)[0]), root);
    if (!a.ok || !b.ok) throw new Error('open failed');
    expect(b.value).not.toBe(a.value);
    releaseReader(a.value);
    releaseReader(b.value);
  });

  it('status inside a daemon host reports the serving process itself', async () => {
    const { root, cache } = tempRoot();
    expect((await searchCommand(['refill_tokens'], { root, cache, noWorkspace: true })).exitCode).toBe(0);
    const inDaemon = JSON.parse(
      (await statusCommand({ root, cache, noWorkspace: true, format: 'json', host: ROOT_DAEMON_HOST })).stdout,
    );
    expect(inDaemon.daemon).toMatchObject({ state: 'serving', pid: process.pid });
    const fromClient = JSON.parse((await statusCommand({ root, cache, noWorkspace: true, format: 'json' })).stdout);
    expect(fromClient.daemon.state).not.toBe('serving');
  });
});
