// The workspace coordinator: `node serving/host/coordinator-main.js CONFIG_FILE STATE_DIR`. Answers a
// workspace's read verbs from the members' published indexes (pooled, never a writer),
// demand-starting member daemons, which keep their own roots fresh. It reconciles nothing.
import * as path from 'node:path';
import { serveRoot } from '@trufflepig/runtime';
import { warmTokenizer } from '@trufflepig/render';
import { handleServedRequest } from './daemon-handler';
import { COORDINATOR_HOST } from '../../core/host';

/** The coordinator never reconciles; its schedule only keeps the runtime's periodic tick idle. */
const IDLE_SCHEDULE_MS = 24 * 60 * 60 * 1000;

if (require.main === module) {
  const [configFile, stateDir] = process.argv.slice(2);
  if (!configFile || !stateDir) {
    process.stderr.write('usage: coordinator-main CONFIG_FILE STATE_DIR\n');
    process.exitCode = 2;
  } else {
    warmTokenizer();
    // The "root" of a coordinator is its configuration's directory: gone, it exits.
    void serveRoot({
      root: path.dirname(configFile),
      cacheDir: stateDir,
      watch: false,
      periodicWithoutWatcherMs: IDLE_SCHEDULE_MS,
      reconcile: async () => undefined,
      log: (line) => process.stderr.write(`${line}\n`),
      handler: async (req) => {
        const r = await handleServedRequest(
          { verb: req.verb, args: req.args, options: { ...req.options, workspace: configFile }, cwd: req.cwd },
          COORDINATOR_HOST,
        );
        // The JSON rendering, when the request asked for it (the MCP front end), rides along.
        const json = (r as { json?: unknown }).json;
        return {
          stdout: r.stdout,
          stderr: r.stderr,
          exitCode: r.exitCode,
          ...(typeof json === 'string' ? { json } : {}),
        };
      },
    }).then((started) => {
      if (!started.ok) {
        process.stderr.write(`trufflepig coordinator: ${started.code}: ${started.message}\n`);
        process.exitCode = started.code === 'daemon_running' ? 0 : 1;
        return undefined;
      }
      return started.daemon.done.then(() => undefined);
    });
  }
}
