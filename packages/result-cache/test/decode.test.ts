// A stored set is checked against the declared entry and meta types once, on load: a
// reader gets each field with its declared type or not at all, and never re-checks it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ResultStore,
  type CommitEntry,
  type LiveSourceEntry,
  type Outcome,
  type ResultEntry,
  type SetMeta,
} from '../src/index';
import { makeEntry, tempStoreDir } from './helpers';

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

/** A file span with every optional field a verb writes. */
const fullLive: LiveSourceEntry = makeEntry(0, {
  name: 'Bucket::refill',
  kind: 'method',
  sources: ['lexical', 'symbol'],
  snippet: { line: 2, text: 'refill() {' },
  cache: '/cache/core',
  root_id: '2049:77',
  worktree: true,
  git_common_dir: '/work/repo/.git',
  owner: 'parent_index',
  owner_root: '/work/repo',
  lang: 'typescript',
  scope: ['source:code'],
  also_lines: [14, 30],
  role: 'call',
  roles: ['call', 'member'],
  resolution: 'resolved',
  definition: 'src/bucket.ts:12',
  within: 'Bucket::take',
  text: 'this.refill();',
  repeats: 2,
  modifiers: ['static', '#'],
  names: ['Bucket', '+3'],
  differs: true,
  reextracted: true,
});

const commit: CommitEntry = {
  ...makeEntry(1),
  tag: 'commit',
  path: `commit:${'a'.repeat(40)}`,
  revision: 'a'.repeat(40),
  date: '2025-01-02T03:04:05+00:00',
  changed: ['src/a.ts', 'src/b.ts'],
  more_paths: 3,
};

const fullMeta: SetMeta = {
  query: 'refs refill',
  truncated: false,
  words: ['refill'],
  lines: { mode: 'literal', text: 'refill' },
  members: { core: '/work/repo' },
  workspace: '/work/ws.toml',
  scopes: 'per_source',
  sections: [{ scope: [], offset: 0, count: 2 }],
  nav: 'refs',
  target: 'src/bucket.ts:12-41 refill',
  coverage: { reference_sites: 2 },
  coverageLine: '2 sites in 1 file',
  notes: ['uncommitted: +1 -0'],
  fileNotes: { 'src/a.ts': 'new file' },
  page: { limit: 5, context: 2 },
};

/** Save a set, rewrite its stored JSON with `damage`, and load it again. */
function reloadDamaged(
  meta: SetMeta,
  entries: ResultEntry[],
  damage: (stored: { meta: Record<string, unknown>; entries: Record<string, unknown>[] }) => void,
) {
  const dir = tempStoreDir();
  const { id } = value(new ResultStore(dir).save(meta, entries));
  const file = path.join(dir, `${id}.set.json`);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  damage(stored);
  fs.writeFileSync(file, JSON.stringify(stored));
  return new ResultStore(dir).load(id);
}

describe('decoding a stored set', () => {
  it('keeps every declared field of every tag and of the meta', () => {
    const loaded = value(reloadDamaged(fullMeta, [fullLive, commit], () => {}));
    expect(loaded.meta).toEqual(fullMeta);
    expect(loaded.entries).toEqual([fullLive, commit]);
  });

  it('drops an optional field whose stored value has another type, keeping the rest', () => {
    const loaded = value(
      reloadDamaged(fullMeta, [fullLive], (stored) => {
        Object.assign(stored.entries[0], {
          repeats: '2',
          root_id: 2049,
          worktree: 'yes',
          owner: 'someone_else',
          roles: ['call', 7],
          differs: false,
          also_lines: [14, -1],
        });
      }),
    );
    const entry = loaded.entries[0];
    expect(entry.tag).toBe('live_source');
    if (entry.tag !== 'live_source') return;
    for (const key of ['repeats', 'root_id', 'worktree', 'owner', 'roles', 'differs', 'also_lines'])
      expect(Object.keys(entry)).not.toContain(key);
    expect(entry.cache).toBe('/cache/core');
    expect(entry.owner_root).toBe('/work/repo');
    expect(entry.definition).toBe('src/bucket.ts:12');
  });

  it('drops keys no entry type declares, and fields of another tag', () => {
    const loaded = value(
      reloadDamaged(fullMeta, [commit], (stored) => {
        Object.assign(stored.entries[0], { worker: 3, role: 'call', change: { repo: '/r' } });
      }),
    );
    expect(loaded.entries).toEqual([commit]);
  });

  it('drops a meta field whose stored value has another type', () => {
    const loaded = value(
      reloadDamaged(fullMeta, [fullLive], (stored) => {
        Object.assign(stored.meta, {
          words: 'refill',
          members: { core: 1 },
          nav: 'teleport',
          lines: { mode: 'glob', text: 'x' },
          sections: [{ scope: [1], offset: 0, count: 1 }],
          coverage: [],
          page: { limit: '5' },
          extra: true,
        });
      }),
    );
    const { words, members, nav, lines, sections, coverage, page, ...kept } = fullMeta;
    expect([words, members, nav, lines, sections, coverage, page].every((v) => v !== undefined)).toBe(true);
    expect(loaded.meta).toEqual(kept);
  });

  it.each([
    ['no date', (e: Record<string, unknown>) => delete e.date, 'commit entry has no valid date'],
    ['changed paths that are not strings', (e: Record<string, unknown>) => (e.changed = [1]), 'changed paths'],
    ['a negative more_paths', (e: Record<string, unknown>) => (e.more_paths = -1), 'more_paths'],
  ])('refuses a commit entry with %s (result_store_error)', (_label, damage, reason) => {
    const out = reloadDamaged({ query: 'q', truncated: false }, [commit], (stored) => damage(stored.entries[0]));
    expect(out.ok ? 'ok' : out.error.code).toBe('result_store_error');
    expect(out.ok ? '' : out.error.message).toContain(reason);
  });
});
