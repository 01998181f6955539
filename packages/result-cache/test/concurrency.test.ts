import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ResultStore } from '../src/index';
import { tempStoreDir } from './helpers';

// Several real processes share one store directory through the built package
// (dist/index.js). Run `npm run build` (or the nx test target, which builds first).

const DIST = path.join(__dirname, '..', 'dist', 'index.js');

// Worker: waits for the go file, then saves `saves` sets whose entries name the worker and
// save number, re-reading all of its own sets after every save. It reports every id it got,
// and any load that returned another set's content or an error other than expired_result.
const WORKER = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const cfg = JSON.parse(process.env.WORKER_CONFIG);
const { ResultStore } = require(cfg.dist);
const store = new ResultStore(cfg.dir, cfg.options);
const entriesFor = (n) => Array.from({ length: 3 + (n % 4) }, (_, i) => ({
  tag: 'live_source', root: '/root/w' + cfg.worker, member: 'm' + (n % 2), path: 'w' + cfg.worker + '/s' + n + '/e' + i,
  revision: 'r', generation: n, start: i, end: i + 1, start_line: 1, end_line: 1, name: 'w' + cfg.worker, kind: 's' + n,
}));
const sleeper = new Int32Array(new SharedArrayBuffer(4));
fs.writeFileSync(path.join(cfg.sync, 'ready-' + cfg.worker), '');
while (!fs.existsSync(path.join(cfg.sync, 'go'))) Atomics.wait(sleeper, 0, 0, 2);
const saved = [];
const problems = [];
for (let n = 0; n < cfg.saves; n++) {
  const out = store.save({ query: 'w' + cfg.worker + ' s' + n, truncated: false }, entriesFor(n));
  if (!out.ok) { problems.push('save ' + n + ': ' + out.error.code + ' ' + out.error.message); continue; }
  saved.push({ id: out.value.id, save: n });
  for (const mine of saved) {
    const got = store.load(mine.id);
    if (got.ok) {
      if (JSON.stringify(got.value.entries) !== JSON.stringify(entriesFor(mine.save))) problems.push('mixed content for ' + mine.id);
    } else if (got.error.code !== 'expired_result') {
      problems.push('load ' + mine.id + ': ' + got.error.code + ' ' + got.error.message);
    }
  }
}
process.stdout.write(JSON.stringify({ saved, problems }));
`;

interface WorkerReport {
  saved: { id: string; save: number }[];
  problems: string[];
}

function runWorker(config: object): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WORKER], {
      env: { ...process.env, WORKER_CONFIG: JSON.stringify(config) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`worker exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as WorkerReport);
    });
  });
}

async function runWorkers(
  count: number,
  saves: number,
  options: object,
): Promise<{ dir: string; reports: WorkerReport[] }> {
  const dir = tempStoreDir();
  const sync = fs.mkdtempSync(`${dir}-sync-`);
  const running = Array.from({ length: count }, (_, worker) =>
    runWorker({ dist: DIST, dir, sync, worker, saves, options }),
  );
  const deadline = Date.now() + 30_000;
  while (fs.readdirSync(sync).length < count) {
    if (Date.now() > deadline) throw new Error('workers did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  fs.writeFileSync(path.join(sync, 'go'), '');
  return { dir, reports: await Promise.all(running) };
}

function expectedPaths(worker: number, save: number): string[] {
  return Array.from({ length: 3 + (save % 4) }, (_, i) => `w${worker}/s${save}/e${i}`);
}

beforeAll(() => {
  if (!fs.existsSync(DIST)) throw new Error(`${DIST} is missing: run "npm run build" in packages/result-cache first`);
});

describe('concurrent processes sharing one store', () => {
  it('never lose or mix sets when all fit within the caps', async () => {
    const workers = 4;
    const saves = 12;
    const { dir, reports } = await runWorkers(workers, saves, {});
    const store = new ResultStore(dir);
    const ids = new Set<string>();
    reports.forEach((report, worker) => {
      expect(report.problems).toEqual([]);
      expect(report.saved).toHaveLength(saves);
      for (const { id, save } of report.saved) {
        ids.add(id);
        const loaded = store.load(id);
        if (!loaded.ok) throw new Error(`${id}: ${loaded.error.message}`);
        expect(loaded.value.meta.query).toBe(`w${worker} s${save}`);
        expect(loaded.value.entries.map((entry) => entry.path)).toEqual(expectedPaths(worker, save));
        expect(
          loaded.value.entries.every((entry) => entry.root === `/root/w${worker}` && entry.name === `w${worker}`),
        ).toBe(true);
      }
    });
    expect(ids.size).toBe(workers * saves);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('under tight caps, evicted sets answer expired_result and surviving sets are intact', async () => {
    const workers = 4;
    const { dir, reports } = await runWorkers(workers, 20, { maxSets: 5 });
    for (const report of reports) expect(report.problems).toEqual([]);
    const store = new ResultStore(dir, { maxSets: 5 });
    let surviving = 0;
    reports.forEach((report, worker) => {
      for (const { id, save } of report.saved) {
        const loaded = store.load(id);
        if (loaded.ok) {
          surviving++;
          expect(loaded.value.entries.map((entry) => entry.path)).toEqual(expectedPaths(worker, save));
        } else {
          expect(loaded.error.code).toBe('expired_result');
          expect(loaded.error.message).toContain('evicted');
        }
      }
    });
    // Each writer makes room before it publishes, so racing writers can overshoot the
    // cap by at most one set each, until the next save.
    expect(surviving).toBeGreaterThanOrEqual(1);
    expect(surviving).toBeLessThanOrEqual(5 + workers - 1);
  });
});
