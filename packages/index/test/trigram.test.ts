import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileRegex, parseQuery, searchIndex } from '../src';
import { REGEX_MAX_HITS, TRIGRAM_CHUNK_FILES } from '../src/limits';
import { regexScan } from '../src/query/live';
import { evaluateQuery } from '../src/trigram/evaluate';
import { fileTrigrams, stringTrigrams } from '../src/trigram/grams';
import {
  addPostingsTo,
  BITMAP_BYTES,
  decodePostings,
  encodePostings,
  LIST_MAX,
  mergePostings,
} from '../src/trigram/postings';
import { queryTrigrams, regexPrefilter, type TrigramQuery } from '../src/trigram/regex';
import Database from 'better-sqlite3';
import { RE2JS } from 're2js';
import { TRIGRAM_DDL, TrigramWriter, trigramFiles } from '../src/store/trigrams';
import { Fixture, gitInit, seededBelow } from './helpers';

/** A pattern's trigram query. */
const regexTrigramQuery = (pattern: string): TrigramQuery => regexPrefilter(pattern).query;
const tri = (s: string) => (s.charCodeAt(0) << 16) | (s.charCodeAt(1) << 8) | s.charCodeAt(2);

/** Whether a text whose trigrams are `grams` satisfies `q` (file id 0 in a one-word bitset). */
function admits(q: TrigramQuery, grams: Uint32Array): boolean {
  const set = new Set(grams);
  return evaluateQuery(q, (t) => Uint32Array.of(set.has(t) ? 1 : 0), 1)[0] === 1;
}

describe('fileTrigrams', () => {
  it('lists distinct trigrams ascending, ASCII letters folded, other bytes as they are', () => {
    expect([...fileTrigrams(Buffer.from('AbAbab'))]).toEqual([tri('aba'), tri('bab')].sort((a, b) => a - b));
    expect(fileTrigrams(Buffer.from('ab'))).toHaveLength(0);
    const utf8 = Buffer.from('Éa', 'utf8'); // C3 89 61: É is not folded
    expect([...fileTrigrams(utf8)]).toEqual([(0xc3 << 16) | (0x89 << 8) | 0x61]);
    // The shared bitset is cleared between files: the same bytes give the same answer twice.
    expect([...fileTrigrams(Buffer.from('xyzxyz'))]).toEqual([...fileTrigrams(Buffer.from('xyzxyz'))]);
    expect(stringTrigrams('XYZW')).toEqual([tri('xyz'), tri('yzw')]);
  });
});

describe('trigram postings rows', () => {
  it('stay a list up to LIST_MAX files, then become a bitmap, and merge only what is new', () => {
    const few = [3, 9, 4000];
    const row = encodePostings(few);
    expect(row.length).toBe(6);
    expect(decodePostings(row)).toEqual(few);
    expect(mergePostings(row, [9])).toBeUndefined();
    expect(decodePostings(mergePostings(row, [1, 9, 4095])!)).toEqual([1, 3, 9, 4000, 4095]);
    const many = Array.from({ length: LIST_MAX + 1 }, (_, i) => i * 3);
    const bitmap = encodePostings(many);
    expect(bitmap.length).toBe(BITMAP_BYTES);
    expect(encodePostings(many.slice(0, LIST_MAX)).length).toBeLessThan(BITMAP_BYTES);
    expect(decodePostings(bitmap)).toEqual(many);
    expect(mergePostings(bitmap, [3, 6])).toBeUndefined();
    expect(decodePostings(mergePostings(bitmap, [1])!)).toEqual([0, 1, ...many.slice(1)]);
  });

  it('land on file ids of their chunk in a bitset', () => {
    const files = new Uint32Array((3 * TRIGRAM_CHUNK_FILES) / 32);
    addPostingsTo(files, 2, encodePostings([0, 33]));
    addPostingsTo(files, 1, encodePostings(Array.from({ length: LIST_MAX + 1 }, (_, i) => i)));
    const ids: number[] = [];
    for (let id = 0; id < files.length * 32; id++) if (files[id >> 5] & (1 << (id & 31))) ids.push(id);
    const chunk1 = Array.from({ length: LIST_MAX + 1 }, (_, i) => TRIGRAM_CHUNK_FILES + i);
    expect(ids).toEqual([...chunk1, 2 * TRIGRAM_CHUNK_FILES, 2 * TRIGRAM_CHUNK_FILES + 33]);
  });
});

describe('TrigramWriter', () => {
  it('stores files of several chunks and runs, and merges a later writer into existing rows', () => {
    const db = new Database(':memory:');
    db.exec(TRIGRAM_DDL);
    const abc = fileTrigrams(Buffer.from('abcd'));
    const ids = [1, 300, 4095, 4096, 4097 + 600, 3 * TRIGRAM_CHUNK_FILES + 7];
    const first = new TrigramWriter(db);
    for (const id of ids) first.add(id, abc);
    first.add(2, fileTrigrams(Buffer.from('zzz')));
    first.flush();
    const words = (4 * TRIGRAM_CHUNK_FILES) / 32;
    const holders = (t: number) => {
      const bits = trigramFiles(db, t, words);
      const out: number[] = [];
      for (let id = 0; id < words * 32; id++) if (bits[id >> 5] & (1 << (id & 31))) out.push(id);
      return out;
    };
    expect(holders(tri('abc'))).toEqual(ids);
    expect(holders(tri('bcd'))).toEqual(ids);
    expect(holders(tri('zzz'))).toEqual([2]);
    // A later generation's writer: the chunk has rows, so it merges (rows only gain files).
    const later = new TrigramWriter(db);
    later.add(5, fileTrigrams(Buffer.from('abc')));
    later.add(4096 + 9, fileTrigrams(Buffer.from('zzz')));
    later.flush();
    expect(holders(tri('abc'))).toEqual([1, 5, ...ids.slice(1)]);
    expect(holders(tri('zzz'))).toEqual([2, 4096 + 9]);
    db.close();
  });
});

describe('regexTrigramQuery', () => {
  it.each([
    ['static int __init \\w+_init', ['sta', 'nit', '_in', 'int']],
    ['EXPORT_SYMBOL_GPL\\(\\w+\\)', ['exp', 'gpl', 'l_g']],
    ['spin_lock\\(&\\w+->lock\\)', ['spi', 'k(&', '->l', 'ck)']],
    ['(?i)HELLO world', ['hel', 'wor']],
    ['colou?r', ['col', 'olo']],
    ['\\Qa.b(c\\E', ['a.b', '.b(', 'b(c']],
    ['\\x{48}ello', ['hel', 'ell']],
  ])('%s needs trigrams including %j', (pattern, some) => {
    const q = regexTrigramQuery(pattern);
    const needed = queryTrigrams(q);
    for (const s of some) expect([pattern, s, needed.has(tri(s))]).toEqual([pattern, s, true]);
  });

  it.each([
    ['if \\(!\\w+\\)\\s*return -ENOMEM;', ['return -ENOMEM;', 'if (!', ')'], 'if (!'],
    ['struct \\w+_operations \\{', ['_operations {', 'struct '], 'struct '],
    ['unlikely\\(\\w+ == NULL\\)', ['unlikely(', ' == NULL)'], 'unlikely('],
    ['\\w+_MAX\\b', ['_MAX'], ''],
    ['(?:foo|bar)\\w+baz', ['baz'], ''],
    ['(?i)\\w+Operations', [], ''],
  ])('%s: every match holds %j and starts with %j', (pattern, literals, leading) => {
    const pre = regexPrefilter(pattern);
    expect([pre.literals, pre.leading]).toEqual([literals, leading]);
  });

  it('alternation needs one branch, not both', () => {
    const q = regexTrigramQuery('foobar|bazqux');
    expect(admits(q, fileTrigrams(Buffer.from('xx foobar yy')))).toBe(true);
    expect(admits(q, fileTrigrams(Buffer.from('bazqux')))).toBe(true);
    expect(admits(q, fileTrigrams(Buffer.from('foo bar baz qux')))).toBe(false);
  });

  it.each(['\\w+', '.*', 'a.b', '[a-z]+_[0-9]', '(?i)ks', 'x|\\d+', '\\pL\\pL\\pL', '(abc)*', 'ab?c?'])(
    '%s fixes no trigram: every file is a candidate',
    (pattern) => expect(regexTrigramQuery(pattern)).toEqual({ op: 'all' }),
  );

  it('treats letters whose case folds leave ASCII (k ~ KELVIN SIGN, s ~ LONG S) as any character', () => {
    const q = regexTrigramQuery('(?i)kelvin');
    expect(admits(q, fileTrigrams(Buffer.from('\u212aelvin', 'utf8')))).toBe(true);
    const c = compileRegex('(?i)kelvin');
    if (!c.ok) throw new Error(c.message);
    expect(c.matcher.firstMatch('\u212aelvin').found).toBe(true);
  });

  it('keeps a long literal to TRIGRAM_QUERY_MAX trigrams', () => {
    const q = regexTrigramQuery('abcdefghijklmnopqrstuvwxyz'.repeat(4));
    expect(queryTrigrams(q).size).toBeLessThanOrEqual(48);
    expect(queryTrigrams(q).size).toBeGreaterThan(10);
  });

  // The property the filter lives by: a file holding a match always satisfies the query.
  // Patterns are cut from this package's own sources and bent into every construct the
  // parser reads (classes, alternation, repetition, case folding, escapes).
  describe('never rejects a file that holds a match', () => {
    const dir = path.join(__dirname, '..', 'src');
    const texts = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .slice(0, 40)
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const rand = seededBelow(42);
    const escape = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
    const bends: ((s: string) => string)[] = [
      (s) => escape(s),
      (s) => `(?i)${escape(s.toUpperCase())}`,
      (s) => escape(s.slice(0, 4)) + '.' + escape(s.slice(5)),
      (s) => escape(s.slice(0, 3)) + '\\w*' + escape(s.slice(3)),
      (s) => `(?:${escape(s.slice(0, 6))}|zzqqxx)${escape(s.slice(6))}`,
      (s) => `${escape(s.slice(0, 5))}[${escape(s[5] ?? 'x')}Q]${escape(s.slice(6))}`,
      (s) => `${escape(s.slice(0, 5))}(?:${escape(s.slice(5, 7))})+${escape(s.slice(7))}`,
      (s) => `${escape(s.slice(0, 4))}x?${escape(s.slice(4))}`,
      (s) => `\\Q${s.replace(/\\E/g, '')}\\E`,
      (s) => `\\b${escape(s)}`,
      (s) => `${escape(s.slice(0, 3))}[^\\n]{0,3}${escape(s.slice(3))}`,
      (s) => `(?i:${escape(s.slice(0, 5).toUpperCase())})${escape(s.slice(5))}`,
      // Alternatives too open to keep as exact strings: their prefixes, suffixes and matches.
      (s) => `(?:qqzz\\w*xxyy|${escape(s.slice(0, 4))}\\w*${escape(s.slice(4))})`,
      (s) => `(?:${escape(s.slice(0, 4))}.${escape(s.slice(5))}|zzq[a-z]+qzz)`,
      (s) => `${escape(s.slice(0, 2))}(?:${escape(s.slice(2, 5))}|[0-9]{2}x)+${escape(s.slice(5))}`,
      // A literal tail after an open fragment: `\\w+_init`, `\\)\\s*return`.
      (s) => `${escape(s.slice(0, 2))}\\w*${escape(s.slice(2, 4))}\\s*${escape(s.slice(4))}`,
      (s) => `[a-z_]*${escape(s.slice(0, 3))}.?${escape(s.slice(3))}`,
      (s) => `${escape(s.slice(0, 3))}(?:${escape(s.slice(3, 5))})?${escape(s.slice(5))}`,
      // A first character consumed zero times, an assertion behind it: nothing may be tried anchored.
      (s) => `q{0}\\b${escape(s)}`,
      (s) => `${escape(s.slice(0, 1))}+${escape(s.slice(1))}`,
    ];
    // Drawn until PATTERNS_CHECKED of them match their text: how many draws that takes
    // moves with the package's files (a piece that spans lines or a bend that matches
    // nothing is drawn again), the number of patterns checked does not.
    const PATTERNS_CHECKED = 1200;
    it(`over ${PATTERNS_CHECKED} matching patterns cut from real source files`, () => {
      let checked = 0;
      let anchoredChecks = 0;
      for (let n = 0; n < 3 * PATTERNS_CHECKED && checked < PATTERNS_CHECKED; n++) {
        const text = texts[rand(texts.length)];
        const start = rand(Math.max(1, text.length - 20));
        const piece = text.slice(start, start + 8 + rand(12));
        if (piece.includes('\n')) continue;
        const pattern = bends[n % bends.length](piece);
        const c = compileRegex(pattern);
        if (!c.ok || !c.matcher.firstMatch(text).found) continue;
        checked++;
        const pre = regexPrefilter(pattern);
        expect([pattern, admits(pre.query, fileTrigrams(Buffer.from(text, 'utf8')))]).toEqual([pattern, true]);
        // The scan skips by these strings (live.ts): each must be in the match itself.
        const m = RE2JS.compile(pattern).matcher(text);
        expect(m.find()).toBe(true);
        const matched = m.group() ?? '';
        for (const l of pre.literals) expect([pattern, l, matched.includes(l)]).toEqual([pattern, l, true]);
        expect([pattern, pre.leading, matched.startsWith(pre.leading)]).toEqual([pattern, pre.leading, true]);
        // live.ts tries such a pattern anchored at each occurrence of its leading string, not
        // seeing the text before it: the first success must be the leftmost match.
        if (pre.startsAtLeading) {
          anchoredChecks++;
          let at = text.indexOf(pre.leading);
          for (let k = 0; k < 8 && at >= 0 && at < m.start(); k++, at = text.indexOf(pre.leading, at + 1))
            expect([pattern, at, c.matcher.matchesAt(text, at)]).toEqual([pattern, at, false]);
          expect([pattern, c.matcher.matchesAt(text, m.start())]).toEqual([pattern, true]);
        }
      }
      expect(checked).toBe(PATTERNS_CHECKED);
      expect(anchoredChecks).toBeGreaterThan(300);
    });
  });
});

describe('re: through the trigram table', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`src/mod${i}.c`] = `int helper_${i}(void) { return ${i}; }\n`;
  files['src/init.c'] = 'static int __init foo_init(void)\n{\n\treturn 0;\n}\n';
  files['docs/notes.md'] = 'Static int init notes, no match here.\n';

  it('reads only the files whose trigrams can match, finds every match, and sees edits', async () => {
    const fx = new Fixture('trigram', files);
    gitInit(fx.root);
    await fx.index();
    const q = parseQuery('re:static int __init \\w+_init');
    if (!q.ok) throw new Error(q.error.message);
    let reader = await fx.open();
    let out = searchIndex(reader, q.value);
    expect(out.hits.map((h) => h.path)).toEqual(['src/init.c']);
    expect(out.regexScan).toEqual({ narrowed: true, candidateFiles: 1, eligibleFiles: 42 });
    // The same pattern over every file finds nothing more: the filter dropped no match.
    expect(regexScan(reader.root, reader.files(), q.value.text).hits.map((h) => h.path)).toEqual(['src/init.c']);
    const every = parseQuery('re:\\w+_\\d+');
    if (!every.ok) throw new Error(every.error.message);
    expect(searchIndex(reader, every.value).regexScan).toMatchObject({ narrowed: false, candidateFiles: 42 });
    reader.close();

    fx.write({ 'src/mod7.c': 'static int __init bar_init(void) { return 7; }\n' });
    await fx.index();
    reader = await fx.open();
    out = searchIndex(reader, q.value);
    expect(out.hits.map((h) => h.path).sort()).toEqual(['src/init.c', 'src/mod7.c']);
    reader.close();
  });

  it('rebuilds its rows with the FTS table, and stops at the hit cap saying so', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < REGEX_MAX_HITS + 5; i++) many[`f/${String(i).padStart(3, '0')}.txt`] = `alpha ${i} marker\n`;
    const fx = new Fixture('trigram-cap', many);
    gitInit(fx.root);
    await fx.index();
    const q = parseQuery('re:alpha \\d+ marker');
    if (!q.ok) throw new Error(q.error.message);
    let reader = await fx.open();
    const capped = searchIndex(reader, q.value);
    expect(capped.hits).toHaveLength(REGEX_MAX_HITS);
    expect(capped.truncation).toMatchObject({ by: 'regex_hits', scannedFiles: REGEX_MAX_HITS });
    reader.close();
    // Every file rewritten: dead FTS documents pass the rebuild fraction, and the trigram rows
    // are rebuilt from the new bytes in the same pass.
    const rewritten: Record<string, string> = {};
    for (const p of Object.keys(many)) rewritten[p] = `omega ${p.length} marker\n`;
    fx.write(rewritten);
    await fx.index();
    reader = await fx.open();
    expect(searchIndex(reader, q.value).regexScan).toMatchObject({ narrowed: true, candidateFiles: 0 });
    // No row still names a file for the old bytes' trigrams: the rebuild dropped them.
    expect(reader.db.prepare('SELECT count(*) FROM trigram WHERE tri = ?').pluck().get(tri('alp'))).toBe(0);
    const omega = parseQuery('re:omega \\d+ marker');
    if (!omega.ok) throw new Error(omega.error.message);
    expect(searchIndex(reader, omega.value).regexScan).toMatchObject({ candidateFiles: REGEX_MAX_HITS + 5 });
    reader.close();
  });
});
