import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LiveSourceEntry } from '../src/index';

export function tempStoreDir(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'result-cache-')), 'store');
}

/** A file span entry; other tags spread it and add their own fields. */
export function makeEntry(i: number, overrides: Partial<LiveSourceEntry> = {}): LiveSourceEntry {
  return {
    tag: 'live_source',
    root: '/work/repo%20one',
    member: 'core',
    path: `src/file${i}.ts`,
    revision: i.toString(16).padStart(64, '0'),
    generation: 3,
    start: i * 10,
    end: i * 10 + 5,
    start_line: i + 1,
    end_line: i + 2,
    ...overrides,
  };
}

export function makeEntries(count: number, overrides: Partial<LiveSourceEntry> = {}): LiveSourceEntry[] {
  return Array.from({ length: count }, (_, i) => makeEntry(i, overrides));
}

/** A clock the test moves forward explicitly. */
export function manualClock(start = Date.UTC(2025, 0, 1)): { now: () => number; advance: (ms: number) => void } {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}
