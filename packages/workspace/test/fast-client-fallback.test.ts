// A daemon whose handler failed (an older daemon, a bug) is the daemon's own trouble: the
// client answers locally instead of printing the daemon's unbounded failure text.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serveRoot } from '@trufflepig/runtime';
import { askDaemon } from '../src/serving/launch/fast-client';

describe('askDaemon', () => {
  it('answers undefined (answer locally) when the handler failed, and passes real answers through', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-fallback-')));
    const root = path.join(base, 'root');
    const cacheDir = path.join(base, 'cache');
    fs.mkdirSync(root);
    const started = await serveRoot({
      root,
      cacheDir,
      handleSignals: false,
      priority: false,
      log: () => undefined,
      watch: false,
      reconcile: async () => undefined,
      handler: async (req) => {
        if (req.verb === 'search') throw new Error(`LIKE or GLOB pattern too complex\n${'x'.repeat(5_000)}`);
        return { stdout: '{"ok":true}\n', stderr: '', exitCode: 0 };
      },
    });
    if (!started.ok) throw new Error(`${started.code}: ${started.message}`);
    try {
      expect(await askDaemon(cacheDir, 'search', ['x'], {}, root)).toBeUndefined();
      expect(await askDaemon(cacheDir, 'status', [], {}, root)).toEqual({
        stdout: '{"ok":true}\n',
        stderr: '',
        exitCode: 0,
      });
    } finally {
      await started.daemon.stop();
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
