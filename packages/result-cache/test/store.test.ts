import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  formatCursor,
  formatHandle,
  MAX_HITS_PER_SET,
  ResultStore,
  type Outcome,
  type ResultEntry,
} from '../src/index';
import { makeEntries, makeEntry, manualClock, tempStoreDir } from './helpers';

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

function errorOf<T>(outcome: Outcome<T>) {
  if (outcome.ok) throw new Error('expected an error outcome');
  return outcome.error;
}

const MINUTE = 60_000;

describe('ResultStore round trip', () => {
  it('saves and loads a set with entries, meta and their optional fields intact', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const entries: ResultEntry[] = [
      makeEntry(0, {
        name: 'main',
        kind: 'function',
        sources: ['lexical', 'symbol'],
        snippet: { line: 1, text: 'fn main()' },
        cache: '/c/x',
        root_id: '2049:77',
        owner: 'parent_index',
        owner_root: '/work/repo',
      }),
      makeEntry(1, { member: undefined, root: '/other/root' }),
      { ...makeEntry(2), tag: 'commit', date: '2025-01-02T03:04:05+00:00', changed: ['a.ts'], more_paths: 0 },
    ];
    delete entries[1].member;
    const meta = { query: 'main', truncated: false, words: ['main'], members: { core: '/work/repo%20one' } };
    const saved = value(store.save(meta, entries));
    expect(saved).toEqual({ id: expect.stringMatching(/^[0-9a-z]{6}$/), truncated: false, stored: 3 });

    const loaded = value(new ResultStore(dir).load(saved.id));
    expect(loaded.id).toBe(saved.id);
    expect(loaded.meta).toEqual(meta);
    expect(loaded.entries).toEqual(entries);
    expect('member' in loaded.entries[1]).toBe(false);
    expect(Math.abs(loaded.createdAt - Date.now())).toBeLessThan(60_000);
  });

  it('resolves handles and pages cursors in the original order', () => {
    const store = new ResultStore(tempStoreDir());
    const entries = makeEntries(5);
    const { id } = value(store.save({ query: 'q', truncated: false }, entries));

    const second = value(store.resolve(formatHandle(id, 2)));
    expect(second.ordinal).toBe(2);
    expect(second.entry).toEqual(entries[1]);
    expect(value(store.resolve(formatHandle(id, 5))).entry).toEqual(entries[4]);
    expect(value(store.resolve(`${id.toUpperCase()}:1`)).entry).toEqual(entries[0]);

    const page = value(store.page(formatCursor(id, 3)));
    expect(page.offset).toBe(3);
    expect(page.set.entries.slice(page.offset)).toEqual(entries.slice(3));
    expect(value(store.page(formatCursor(id, 5))).offset).toBe(5);
  });

  it('reports ordinals and offsets beyond the set', () => {
    const store = new ResultStore(tempStoreDir());
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(3)));
    const out = errorOf(store.resolve(formatHandle(id, 4)));
    expect(out.code).toBe('ordinal_out_of_range');
    expect(out.message).toContain('from 1 to 3');
    expect(errorOf(store.page(formatCursor(id, 4))).code).toBe('bad_cursor');
    expect(errorOf(store.resolve(`${id}:0`)).code).toBe('bad_handle');
  });

  it('stores each root and member string once per set', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(200)));
    const text = fs.readFileSync(path.join(dir, `${id}.set.json`), 'utf8');
    expect(text.split('/work/repo%20one').length - 1).toBe(1);
    expect(JSON.parse(text)).toMatchObject({
      format: 'trufflepig.result-set',
      version: 1,
      id,
      roots: ['/work/repo%20one'],
      members: ['core'],
    });
  });

  it('creates the store directory with mode 0700 and set files with mode 0600', () => {
    const dir = tempStoreDir();
    const { id } = value(new ResultStore(dir).save({ query: 'q', truncated: false }, makeEntries(1)));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, `${id}.set.json`)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('gives every save a new id, so a handle never names a newer search', () => {
    const store = new ResultStore(tempStoreDir());
    const first = value(store.save({ query: 'a', truncated: false }, [makeEntry(1)]));
    const second = value(store.save({ query: 'b', truncated: false }, [makeEntry(2)]));
    expect(second.id).not.toBe(first.id);
    expect(value(store.resolve(formatHandle(first.id, 1))).entry).toEqual(makeEntry(1));
  });
});

/** An id source that returns the given ids in turn, then fails the test. */
function scriptedIds(...ids: string[]): (length: number) => string {
  return (length) => {
    const next = ids.shift();
    if (next === undefined) throw new Error(`no scripted id left for length ${length}`);
    return next;
  };
}

describe('ResultStore set ids', () => {
  it('issues 6-character ids and reserves each one in ids/', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const ids = Array.from(
      { length: 30 },
      (_, i) => value(store.save({ query: `q${i}`, truncated: false }, [makeEntry(i)])).id,
    );
    // Two consonant-vowel-consonant syllables: fewer tokens than uniform base 36.
    for (const id of ids) expect(id).toMatch(/^(?:[bcdfghjklmnprstvz][aeiou][bcdfghjklmnprstvz]){2}$/);
    expect(new Set(ids).size).toBe(30);
    expect(fs.readdirSync(path.join(dir, 'ids')).sort()).toEqual([...ids].sort());
  });

  it('with an idCost, keeps the cheapest of 16 draws (the first on ties), and still reserves it', () => {
    const dir = tempStoreDir();
    const draws = ['zzzzzz', 'yyyyyy', 'kabkab', 'xxxxxx', ...Array.from({ length: 12 }, () => 'wwwwww'), 'tatata'];
    const cost = (id: string) => new Set(id).size;
    const store = new ResultStore(dir, { randomId: scriptedIds(...draws), idCost: cost });
    expect(value(store.save({ query: 'a', truncated: false }, [makeEntry(1)])).id).toBe('zzzzzz');
    // The 17th draw belongs to the next id: 16 candidates per id, then the cheapest.
    const next = new ResultStore(dir, {
      randomId: scriptedIds('kabkab', 'tatata', ...Array.from({ length: 14 }, () => 'kabkab')),
      idCost: cost,
    });
    expect(value(next.save({ query: 'b', truncated: false }, [makeEntry(2)])).id).toBe('tatata');
    expect(fs.readdirSync(path.join(dir, 'ids')).sort()).toEqual(['tatata', 'zzzzzz']);
  });

  it('never reissues a reserved id, from this or another store object, and grows the id after 3 collisions', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const first = value(
      new ResultStore(dir, { now: clock.now, randomId: scriptedIds('aaaaaa') }).save({ query: 'a', truncated: false }, [
        makeEntry(1),
      ]),
    );
    expect(first.id).toBe('aaaaaa');
    // The first set expires and is deleted, but its id stays reserved for a day.
    clock.advance(11 * MINUTE);
    const other = new ResultStore(dir, { now: clock.now, randomId: scriptedIds('aaaaaa', 'bbbbbb') });
    expect(value(other.save({ query: 'b', truncated: false }, [makeEntry(2)])).id).toBe('bbbbbb');
    const crowded = new ResultStore(dir, {
      now: clock.now,
      randomId: scriptedIds('aaaaaa', 'bbbbbb', 'aaaaaa', 'ccccccc'),
    });
    expect(value(crowded.save({ query: 'c', truncated: false }, [makeEntry(3)])).id).toBe('ccccccc');
    expect(value(crowded.resolve('ccccccc:1')).entry).toEqual(makeEntry(3));
    expect(errorOf(crowded.load('aaaaaa')).code).toBe('expired_result');
    // A day later the reservation is gone and the id may be drawn again.
    clock.advance(24 * 60 * MINUTE);
    const later = new ResultStore(dir, { now: clock.now, randomId: scriptedIds('dddddd', 'aaaaaa') });
    expect(value(later.save({ query: 'd', truncated: false }, [makeEntry(4)])).id).toBe('dddddd');
    expect(value(later.save({ query: 'e', truncated: false }, [makeEntry(5)])).id).toBe('aaaaaa');
    expect(value(later.resolve('aaaaaa:1')).set.meta.query).toBe('e');
  });

  it('removes set files and tombstones of the 32-hex era on the next save', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    value(store.save({ query: 'q', truncated: false }, makeEntries(1)));
    const legacy = ['0193a0c2f1e84f6d0c2b9a11e5d07c3a.set.json', '0193a0c2f1e84f6d0c2b9a11e5d07c3b.evicted'];
    for (const name of legacy) fs.writeFileSync(path.join(dir, name), '{}');
    value(store.save({ query: 'q2', truncated: false }, makeEntries(1)));
    for (const name of legacy) expect(fs.existsSync(path.join(dir, name))).toBe(false);
  });
});

describe('ResultStore expiry', () => {
  it('serves a set within ten minutes and reports expired_result after', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now });
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(2)));
    clock.advance(9 * MINUTE);
    expect(value(store.resolve(formatHandle(id, 1))).ordinal).toBe(1);
    clock.advance(2 * MINUTE);
    // The file is still on disk, but an expired set is never served.
    expect(fs.existsSync(path.join(dir, `${id}.set.json`))).toBe(true);
    const error = errorOf(store.resolve(formatHandle(id, 1)));
    expect(error).toEqual({
      code: 'expired_result',
      message: `result set ${id} expired after 10 minutes; run the search again`,
    });
    expect(errorOf(store.page(formatCursor(id, 0))).code).toBe('expired_result');
  });

  it('deletes expired sets on the next save and still classifies them as expired', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now });
    const old = value(store.save({ query: 'old', truncated: false }, makeEntries(1)));
    clock.advance(11 * MINUTE);
    value(store.save({ query: 'new', truncated: false }, makeEntries(1)));
    expect(fs.existsSync(path.join(dir, `${old.id}.set.json`))).toBe(false);
    expect(errorOf(store.load(old.id)).code).toBe('expired_result');
  });

  it('answers unknown_result for an id it never stored', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now });
    value(store.save({ query: 'q', truncated: false }, makeEntries(1)));
    const neverSeen = 'never0';
    expect(errorOf(store.resolve(formatHandle(neverSeen, 1))).code).toBe('unknown_result');
    expect(errorOf(new ResultStore(tempStoreDir(), { now: clock.now }).load(neverSeen)).code).toBe('unknown_result');
  });

  it('classifies a deleted expired set by its reservation, and forgets it once the reservation is pruned', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now });
    const old = value(store.save({ query: 'old', truncated: false }, makeEntries(1)));
    clock.advance(11 * MINUTE);
    value(store.save({ query: 'new', truncated: false }, makeEntries(1)));
    expect(fs.existsSync(path.join(dir, `${old.id}.set.json`))).toBe(false);
    expect(errorOf(store.load(old.id)).message).toBe(
      `result set ${old.id} expired after 10 minutes; run the search again`,
    );
    clock.advance(25 * 60 * MINUTE);
    value(store.save({ query: 'a day later', truncated: false }, makeEntries(1)));
    expect(fs.existsSync(path.join(dir, 'ids', old.id))).toBe(false);
    expect(errorOf(store.load(old.id)).code).toBe('unknown_result');
  });

  it('answers an old 32-hex set id with bad_handle naming the new form', () => {
    const error = errorOf(new ResultStore(tempStoreDir()).load('0123456789abcdef0123456789abcdef'));
    expect(error.code).toBe('bad_handle');
    expect(error.message).toContain('old 32-hex form');
    expect(error.message).toContain('6 or more characters of [0-9a-z]');
  });
});

describe('ResultStore eviction', () => {
  it('keeps at most maxSets sets, evicting the oldest, and reports evicted ids as expired', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now, maxSets: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(value(store.save({ query: `q${i}`, truncated: false }, [makeEntry(i)])).id);
      clock.advance(1000);
    }
    expect(
      fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.set.json'))
        .sort(),
    ).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.set.json`)
        .sort(),
    );
    for (const id of ids.slice(0, 2)) {
      const error = errorOf(store.resolve(formatHandle(id, 1)));
      expect(error.code).toBe('expired_result');
      expect(error.message).toContain('evicted');
      expect(error.message).toContain('run the search again');
    }
    for (const [i, id] of ids.slice(2).entries())
      expect(value(store.resolve(formatHandle(id, 1))).entry).toEqual(makeEntry(i + 2));
  });

  it('keeps the total bytes of set files within maxBytes, evicting the oldest', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const probeDir = tempStoreDir();
    const probeId = value(new ResultStore(probeDir).save({ query: 'q', truncated: false }, makeEntries(20))).id;
    const oneSetBytes = fs.statSync(path.join(probeDir, `${probeId}.set.json`)).size;
    const maxBytes = Math.floor(oneSetBytes * 2.5);
    const store = new ResultStore(dir, { now: clock.now, maxBytes });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(value(store.save({ query: 'q', truncated: false }, makeEntries(20))).id);
      clock.advance(1000);
    }
    const files = fs.readdirSync(dir).filter((name) => name.endsWith('.set.json'));
    const total = files.reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
    expect(total).toBeLessThanOrEqual(maxBytes);
    expect(files.sort()).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.set.json`)
        .sort(),
    );
    expect(errorOf(store.load(ids[0])).message).toContain('evicted');
    expect(errorOf(store.load(ids[1])).code).toBe('expired_result');
  });

  it('stores a set that alone exceeds maxBytes truncated to fit, and reports truncation', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir, { maxBytes: 4096 });
    value(store.save({ query: 'small', truncated: false }, makeEntries(2)));
    const saved = value(store.save({ query: 'big', truncated: false }, makeEntries(500)));
    expect(saved.truncated).toBe(true);
    expect(saved.stored).toBeGreaterThan(0);
    expect(saved.stored).toBeLessThan(500);
    const file = path.join(dir, `${saved.id}.set.json`);
    expect(fs.statSync(file).size).toBeLessThanOrEqual(4096);
    const loaded = value(store.load(saved.id));
    expect(loaded.meta.truncated).toBe(true);
    expect(loaded.entries).toEqual(makeEntries(saved.stored));
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.set.json'))).toEqual([`${saved.id}.set.json`]);
  });

  it('reports an evicted id as expired once it is past the TTL', () => {
    const dir = tempStoreDir();
    const clock = manualClock();
    const store = new ResultStore(dir, { now: clock.now, maxSets: 1 });
    const a = value(store.save({ query: 'a', truncated: false }, makeEntries(1)));
    value(store.save({ query: 'b', truncated: false }, makeEntries(1)));
    expect(errorOf(store.load(a.id)).message).toContain('evicted');
    clock.advance(11 * MINUTE);
    expect(errorOf(store.load(a.id)).message).toContain('expired after 10 minutes');
  });
});

describe('ResultStore hit cap', () => {
  it('caps entries at maxHitsPerSet and reports truncation', () => {
    const store = new ResultStore(tempStoreDir(), { maxHitsPerSet: 10 });
    const saved = value(store.save({ query: 'q', truncated: false }, makeEntries(25)));
    expect(saved).toMatchObject({ truncated: true, stored: 10 });
    const loaded = value(store.load(saved.id));
    expect(loaded.entries).toEqual(makeEntries(10));
    expect(loaded.meta.truncated).toBe(true);
    expect(errorOf(store.resolve(formatHandle(saved.id, 11))).code).toBe('ordinal_out_of_range');
  });

  it('defaults to MAX_HITS_PER_SET and keeps an incoming truncated flag', () => {
    const store = new ResultStore(tempStoreDir());
    const exact = value(store.save({ query: 'q', truncated: false }, makeEntries(MAX_HITS_PER_SET)));
    expect(exact).toMatchObject({ truncated: false, stored: MAX_HITS_PER_SET });
    const over = value(store.save({ query: 'q', truncated: false }, makeEntries(MAX_HITS_PER_SET + 1)));
    expect(over).toMatchObject({ truncated: true, stored: MAX_HITS_PER_SET });
    expect(value(store.save({ query: 'q', truncated: true }, makeEntries(1)))).toMatchObject({
      truncated: true,
      stored: 1,
    });
  });
});

describe('ResultStore settle', () => {
  const provisional = (i: number) =>
    makeEntry(i, { unsettled: true, start: 0, end: 4096, start_line: 1, end_line: 90 });
  const settledForm = (i: number) => makeEntry(i, { start: 100, end: 300, start_line: 5, end_line: 12 });

  it('replaces provisional entries by their settled spans, keeps the rest and the creation time', () => {
    const clock = manualClock();
    const dir = tempStoreDir();
    const store = new ResultStore(dir, { now: clock.now });
    const id = value(store.save({ query: 'q', truncated: false }, [makeEntry(0), provisional(1), provisional(2)])).id;
    const file = path.join(dir, `${id}.set.json`);
    const mtime = fs.statSync(file).mtimeMs;
    clock.advance(MINUTE);
    const set = value(store.settle(id, new Map([[1, settledForm(1)]])));
    expect(set.entries).toEqual([makeEntry(0), settledForm(1), provisional(2)]);
    expect(value(store.load(id)).entries).toEqual(set.entries);
    expect(value(store.resolve(formatHandle(id, 2))).entry).toEqual(settledForm(1));
    // The file keeps its creation time: expiry and eviction still count from the search.
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect(value(store.load(id)).createdAt).toBe(clock.now() - MINUTE);
  });

  it('never changes a settled entry again, so a printed handle keeps its span', () => {
    const store = new ResultStore(tempStoreDir());
    const id = value(store.save({ query: 'q', truncated: false }, [makeEntry(0), provisional(1)])).id;
    value(store.settle(id, new Map([[1, settledForm(1)]])));
    const again = makeEntry(1, { start: 7, end: 9, start_line: 2, end_line: 2 });
    expect(
      value(
        store.settle(
          id,
          new Map([
            [0, makeEntry(0, { start: 1 })],
            [1, again],
          ]),
        ),
      ).entries,
    ).toEqual([makeEntry(0), settledForm(1)]);
  });

  it('refuses a replacement naming other bytes or still provisional, and writes nothing', () => {
    const store = new ResultStore(tempStoreDir());
    const id = value(store.save({ query: 'q', truncated: false }, [provisional(0), provisional(1)])).id;
    for (const bad of [
      makeEntry(0, { revision: 'f'.repeat(64) }),
      makeEntry(0, { path: 'src/other.ts' }),
      makeEntry(0, { generation: 4 }),
      provisional(0),
    ]) {
      const error = errorOf(store.settle(id, new Map([[0, bad]])));
      expect(error.code).toBe('result_store_error');
      expect(error.message).toMatch(/entry 1 of result set .* would change which bytes it names/);
    }
    expect(value(store.load(id)).entries).toEqual([provisional(0), provisional(1)]);
  });

  it('keeps a concurrent settle of other entries (it reads the file again before writing)', () => {
    const dir = tempStoreDir();
    const a = new ResultStore(dir);
    const b = new ResultStore(dir);
    const id = value(a.save({ query: 'q', truncated: false }, [provisional(0), provisional(1)])).id;
    value(a.settle(id, new Map([[0, settledForm(0)]])));
    expect(value(b.settle(id, new Map([[1, settledForm(1)]]))).entries).toEqual([settledForm(0), settledForm(1)]);
  });

  it('answers the load errors of a missing or expired set', () => {
    const clock = manualClock();
    const store = new ResultStore(tempStoreDir(), { now: clock.now });
    expect(errorOf(store.settle('bafkud', new Map([[0, settledForm(0)]]))).code).toBe('unknown_result');
    const id = value(store.save({ query: 'q', truncated: false }, [provisional(0)])).id;
    clock.advance(11 * MINUTE);
    expect(errorOf(store.settle(id, new Map([[0, settledForm(0)]]))).code).toBe('expired_result');
  });
});

describe('ResultStore damaged files', () => {
  it.each([
    ['truncated JSON', (text: string) => text.slice(0, text.length / 2)],
    ['not an object', () => '[]'],
    ['wrong format', (text: string) => text.replace('trufflepig.result-set', 'something-else')],
    ['bad root index', (text: string) => text.replace('"root":0', '"root":7')],
    ['bad entry', (text: string) => text.replace('"path":"src/file0.ts"', '"path":12')],
  ])('reports %s as result_store_error naming the file', (_label, damage) => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(2)));
    const file = path.join(dir, `${id}.set.json`);
    fs.writeFileSync(file, damage(fs.readFileSync(file, 'utf8')));
    const error = errorOf(store.resolve(formatHandle(id, 1)));
    expect(error.code).toBe('result_store_error');
    expect(error.message).toContain(file);
  });

  it("never serves one set under another set's id", () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const a = value(store.save({ query: 'a', truncated: false }, [makeEntry(1)]));
    const b = value(store.save({ query: 'b', truncated: false }, [makeEntry(2)]));
    fs.copyFileSync(path.join(dir, `${a.id}.set.json`), path.join(dir, `${b.id}.set.json`));
    expect(errorOf(store.load(b.id)).code).toBe('result_store_error');
  });

  it('reports an unreadable file as result_store_error', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(1)));
    const file = path.join(dir, `${id}.set.json`);
    fs.rmSync(file);
    fs.mkdirSync(file); // reading a directory fails with EISDIR on every platform
    const error = errorOf(store.load(id));
    expect(error.code).toBe('result_store_error');
    expect(error.message).toContain(file);
  });

  it('reports a save into an unusable directory as result_store_error', () => {
    const dir = tempStoreDir();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(dir, 'a file where the store directory should be');
    const error = errorOf(new ResultStore(dir).save({ query: 'q', truncated: false }, makeEntries(1)));
    expect(error.code).toBe('result_store_error');
  });

  it('ignores and later removes temp files left by a crashed writer', () => {
    const dir = tempStoreDir();
    const store = new ResultStore(dir);
    const { id } = value(store.save({ query: 'q', truncated: false }, makeEntries(1)));
    const stale = path.join(dir, `.tmp-${id}.set.json-999-abc`);
    fs.writeFileSync(stale, '{"half":');
    const old = new Date(Date.now() - 5 * MINUTE);
    fs.utimesSync(stale, old, old);
    const fresh = path.join(dir, '.tmp-fresh-writer');
    fs.writeFileSync(fresh, '{');
    value(store.save({ query: 'q2', truncated: false }, makeEntries(1)));
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(value(store.load(id)).entries).toEqual(makeEntries(1));
  });
});

describe('ResultStore in an impossible directory', () => {
  const procfs = fs.existsSync('/proc/self') ? it : it.skip;
  procfs(
    'answers result_store_error instead of hanging (recursive mkdir loops under /proc)',
    () => {
      const store = new ResultStore('/proc/trufflepig-cannot-exist/results');
      const saved = store.save({ query: 'q', truncated: false }, makeEntries(1));
      expect(saved.ok ? 'ok' : saved.error.code).toBe('result_store_error');
    },
    10_000,
  );
});
