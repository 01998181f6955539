// Issue 15's bad input "two writers racing": several `index` processes started at once on
// one root and cache. One writer holds the lock; every other answers `index_locked` (exit 2,
// one coded stderr line) or publishes after it; the published index is whole, answers
// searches, and no staging file is left. Then writers race again over an edited tree: the
// edit is published exactly once, with no generation skipped or repeated.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, TEST_ENV, type Repo } from './cli';

const MAIN = path.resolve(__dirname, '..', 'dist', 'main.js');
const WRITERS = 3;

interface Exit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function indexProcess(repo: Repo): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [MAIN, '--no-daemon', '--json', '--root', repo.root, '--cache', repo.cache, 'index'],
      { env: TEST_ENV },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function tree(tag: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++)
    files[`src/m${i % 20}/f${i}.ts`] = `export function ${tag}_${i}(x: number): number {\n  return x + ${i};\n}\n`;
  return files;
}

function expectWinnersAndLosers(exits: readonly Exit[]): number[] {
  const generations: number[] = [];
  for (const e of exits) {
    if (e.status === 0) {
      generations.push(JSON.parse(e.stdout).generation as number);
      continue;
    }
    expect(e.status).toBe(2);
    expect(JSON.parse(e.stdout).error.code).toBe('index_locked');
    expect(e.stderr).toMatch(/^trufflepig: index_locked: [^\n]+\n$/);
  }
  expect(generations.length).toBeGreaterThanOrEqual(1);
  return generations;
}

function leftovers(repo: Repo): string[] {
  return fs.readdirSync(repo.cacheDir).filter((n) => n.includes('staging') || n === 'index.lock');
}

describe('writers racing on one root and cache', () => {
  it('one publishes, the others answer index_locked or find nothing left to do; the index is whole', async () => {
    const repo = makeRepo(tree('first'), 'race');
    const exits = await Promise.all(Array.from({ length: WRITERS }, () => indexProcess(repo)));
    const generations = expectWinnersAndLosers(exits);
    // Whoever came after the first publication found generation 1 current.
    expect(new Set(generations)).toEqual(new Set([1]));
    expect(leftovers(repo)).toEqual([]);
    const status = repo.cli('status').json();
    expect(status).toMatchObject({
      state: 'published',
      coverage: { generation: 1, indexed_files: 400, state: 'complete' },
    });
    expect(
      repo
        .cli('search', 'sym:first_399')
        .json()
        .hits.map((h: { path: string }) => h.path),
    ).toEqual(['src/m19/f399.ts']);

    for (const [rel, content] of Object.entries(tree('second'))) repo.write(rel, content);
    const again = await Promise.all(Array.from({ length: WRITERS }, () => indexProcess(repo)));
    expect(new Set(expectWinnersAndLosers(again))).toEqual(new Set([2]));
    expect(leftovers(repo)).toEqual([]);
    expect(repo.cli('status').json()).toMatchObject({
      state: 'published',
      coverage: { generation: 2, indexed_files: 400, state: 'complete' },
    });
    expect(
      repo
        .cli('search', 'sym:second_7')
        .json()
        .hits.map((h: { path: string }) => h.path),
    ).toEqual(['src/m7/f7.ts']);
    expect(repo.cli('search', 'sym:first_7').json().hits).toEqual([]);
  }, 120_000);
});
