// The workspace coordinator's entry: `node serving/host/coordinator-main.js CONFIG_FILE STATE_DIR`.
// The runtime owns the process (lock, socket, liveness: @trufflepig/runtime serveCoordinator);
// this entry gives it the workspace's request handler, which answers the read verbs from
// the members' published indexes (pooled, never a writer) and demand-starts member daemons.
import { serveCoordinator } from '@trufflepig/runtime';
import { warmTokenizer } from '@trufflepig/render';
import { answerRequest } from './daemon-handler';
import { COORDINATOR_HOST } from '../../core/host';

if (require.main === module) {
  const [configFile, stateDir] = process.argv.slice(2);
  if (!configFile || !stateDir) {
    process.stderr.write('usage: coordinator-main CONFIG_FILE STATE_DIR\n');
    process.exitCode = 2;
  } else {
    warmTokenizer();
    void serveCoordinator({
      configFile,
      stateDir,
      log: (line) => process.stderr.write(`${line}\n`),
      handler: (req) => answerRequest({ ...req, options: { ...req.options, workspace: configFile } }, COORDINATOR_HOST),
    }).then((started) => {
      if (!started.ok) {
        process.stderr.write(`trufflepig coordinator: ${started.code}: ${started.message}\n`);
        process.exitCode = started.code === 'daemon_running' ? 0 : 1;
        return undefined;
      }
      return started.coordinator.done.then(() => undefined);
    });
  }
}
