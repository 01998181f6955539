// A missing or unloadable native addon (an install whose build was skipped or broke) is a
// coded error naming the repair, for indexing and for reading, never a crash or an
// "unreadable index". The child process runs the built package with the addon's loader
// (the third-party `bindings` module) refusing, as it does when no .node file was built.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const DIST = path.join(__dirname, '..', 'dist', 'index.js');

it('answers storage_unavailable with the repair command when the SQLite addon cannot load', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-no-addon-')));
  const root = path.join(base, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.rs'), 'fn a() {}\n');
  const preload = path.join(base, 'no-addon.js');
  fs.writeFileSync(
    preload,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'bindings') return () => { throw new Error('Could not locate the bindings file (simulated)'); };
  return load.apply(this, arguments);
};`,
  );
  const script = `const ix = require(${JSON.stringify(DIST)});
(async () => {
  const rec = await ix.reconcile(${JSON.stringify(root)}, { cacheDir: ${JSON.stringify(path.join(base, 'cache'))}, parallelism: 1 });
  const open = await ix.IndexReader.open(${JSON.stringify(path.join(base, 'cache'))}, ${JSON.stringify(root)});
  console.log(JSON.stringify({ rec: rec.ok ? 'ok' : rec.error, open: open.ok ? 'ok' : open.error }));
})();`;
  const child = spawnSync(process.execPath, ['--require', preload, '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  const out = JSON.parse(child.stdout) as {
    rec: { code: string; message: string };
    open: { code: string; message: string };
  };
  expect(out.rec.code).toBe('storage_unavailable');
  expect(out.rec.message).toContain('npm rebuild better-sqlite3');
  expect(out.rec.message).toContain('Could not locate the bindings file');
  expect(out.open.code).toBe('storage_unavailable');
  // Nothing was written: no cache directory, no recorded failure.
  expect(fs.existsSync(path.join(base, 'cache'))).toBe(false);
});
