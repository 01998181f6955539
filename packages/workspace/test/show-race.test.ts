// `show path:` against a file that another process flips between a regular file and a
// symlink out of the root as fast as it can: the link's target is never printed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { showPath } from '../src/core/show';
import { sourceRow } from './ws-helpers';

const ATTEMPTS = 3_000;

test(`${ATTEMPTS} show path: calls under a flipping link print no outside byte`, async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-race-')));
  const root = path.join(base, 'root');
  fs.mkdirSync(root);
  const secret = path.join(base, 'secret.txt');
  fs.writeFileSync(secret, 'OUTSIDE-BYTES\n');
  const target = path.join(root, 'flip.txt');
  fs.writeFileSync(target, 'inside\n');
  const flipper = spawn(
    process.execPath,
    [
      '-e',
      `
    const fs = require('fs');
    const p = ${JSON.stringify(target)}, t = p + '.tmp', l = p + '.lnk';
    for (;;) {
      fs.writeFileSync(t, 'inside\\n'); fs.renameSync(t, p);
      try { fs.unlinkSync(l); } catch {}
      fs.symlinkSync(${JSON.stringify(secret)}, l); fs.renameSync(l, p);
    }`,
    ],
    { stdio: 'ignore' },
  );
  try {
    await new Promise((r) => setTimeout(r, 200));
    const r = { root, cacheDir: path.join(base, 'cache'), resultsDir: path.join(base, 'cache', 'results') };
    const outcomes = { shown: 0, refused: 0, leaked: 0 };
    for (let i = 0; i < ATTEMPTS; i++) {
      const out = showPath(r, 'flip.txt');
      if (!out.ok) {
        expect(['path_outside_root', 'source_missing']).toContain(out.error.code);
        outcomes.refused++;
        continue;
      }
      const text = out.value.rows.map((row) => sourceRow(row).text).join('');
      if (text.includes('OUTSIDE')) outcomes.leaked++;
      else outcomes.shown++;
    }
    expect(outcomes.leaked).toBe(0);
    expect(outcomes.shown + outcomes.refused).toBe(ATTEMPTS);
  } finally {
    flipper.kill('SIGKILL');
    fs.rmSync(base, { recursive: true, force: true });
  }
}, 60_000);
