// A truncated search says, in its coverage line, what stopped it and how to narrow
// (docs/spec/retrieval.md §8), once: the lines footer has no separate `truncated: true`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LANE_FILE_CAP } from '@trufflepig/rank';
import { indexCommand, searchCommand } from '../src';
import { truncationWords } from '../src/core/truncation';

describe('truncation words', () => {
  it('name the re: stop, how far the scan got, and whether every file was a candidate', () => {
    expect(
      truncationWords({ by: 'regex_deadline', scannedFiles: 3112, candidateFiles: 7208, prefiltered: false }),
    ).toBe(
      'truncated (re: stopped at its time limit after 3112 of 7208 files, code first, in path order; the pattern fixes no three characters, so every file is a candidate; narrow with file: or lang:)',
    );
    expect(truncationWords({ by: 'regex_bytes', scannedFiles: 5, candidateFiles: 9, prefiltered: true })).toBe(
      'truncated (re: stopped at its byte budget after 5 of 9 files, code first, in path order; narrow with file: or lang:)',
    );
    expect(truncationWords({ by: 'set_cap' })).toBe('truncated (the set keeps the first 10000 hits)');
  });
});

describe('a search over more files than a lane ranks', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-truncation-')));
  const root = path.join(base, 'repo');
  const cache = path.join(base, 'cache');

  beforeAll(async () => {
    for (let i = 0; i <= LANE_FILE_CAP; i++) {
      const dir = path.join(root, `d${i % 20}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `f${i}.js`), `function frobnicate${i}() { return 'frobnicate'; }\n`);
    }
    execFileSync('git', ['init', '-q'], { cwd: root });
    const out = await indexCommand({ root, cache });
    expect(out.exitCode).toBe(0);
  }, 120_000);

  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('says so on the coverage line and nowhere else', async () => {
    const lines = (await searchCommand(['frobnicate'], { root, cache, format: 'lines', limit: 2 })).stdout;
    const coverage = lines.split('\n').find((l) => l.startsWith('coverage: '));
    // The lane kept its best files: the word alone, once (a re: stop says more, above).
    expect(coverage).toMatch(/; truncated$/);
    expect(lines).not.toContain('truncated: true');
    const json = JSON.parse((await searchCommand(['frobnicate'], { root, cache, format: 'json', limit: 2 })).stdout);
    expect(json.truncated).toBe(true);
    expect(json.coverage.truncation).toEqual({ by: 'lane_cap' });
  });
});
