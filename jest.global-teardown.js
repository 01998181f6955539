// Removes the run's temporary directory (jest.global-setup.js) and restores TMPDIR.
const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const run = globalThis.__TP_JEST_TMPDIR__;
  if (!run) return;
  if (run.previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.previous;
  fs.rmSync(run.dir, { recursive: true, force: true, maxRetries: 3 });
};
