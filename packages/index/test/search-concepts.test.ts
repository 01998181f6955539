// Issue 13, concept queries: the any-term lane meets other forms of a query's words (a
// Porter2 stem searched as a prefix), scales a region's BM25 by the share of the query's
// words it holds, and the filename lane orders equal evidence by how many query words a
// path names. Real files, a real index, the lanes as search builds them.
import { Fixture } from './helpers';
import { parseQuery, type IndexReader } from '../src';
import { filenameLane, ftsLane, type LaneContext } from '../src/query/lanes';
import { ftsFormsExpression, ftsRegions } from '../src/query/fts';
import { isStopword, WEIGHT_ANY_TERM, wordFormTerms } from '@trufflepig/rank';

/** Plain words only once each; `entry` in many files, so one region's `evict` repeated outscores it under BM25 alone. */
const FILES: Record<string, string> = {
  'src/table.rs': 'pub struct Table {}\n// every lookup goes through one hash\nfn lookup(t: &Table) {}\n',
  'src/parser.rs': 'const NEST_LIMIT: u32 = 250;\nfn check(depth: u32) -> bool { depth > NEST_LIMIT }\n',
  'src/cache.ts': [
    'export function sweep(pool: Pool) {',
    ...Array.from({ length: 12 }, (_, i) => `  evict(pool, ${i}) // evict evict`),
    '}',
    '',
  ].join('\n'),
  'src/lru.ts':
    'export function drop(cache: Cache) {\n  // evict the oldest entry\n  cache.remove(cache.oldest())\n}\n',
  ...Object.fromEntries(
    Array.from({ length: 8 }, (_, i) => [`src/misc${i}.ts`, `export const entry${i} = { entry: ${i} } // entry\n`]),
  ),
  'lib/check/util.js': 'module.exports = {}\n',
  'lib/range.js': 'module.exports = {}\n',
  'notes/story.txt': 'the end of the story\n',
};

let fx: Fixture;
let reader: IndexReader;
beforeAll(async () => {
  fx = new Fixture('concepts', FILES);
  await fx.index();
  reader = await fx.open();
});
afterAll(() => reader.close());

function laneContext(query: string): LaneContext {
  const q = parseQuery(query);
  if (!q.ok) throw new Error(q.error.message);
  return { reader, query: q.value, eligible: () => true, truncated: false };
}

const anyTermPaths = (query: string) =>
  ftsLane(laneContext(query), 'any_term', 'any', WEIGHT_ANY_TERM).entries.map((e) => e.path);

describe('query word forms', () => {
  it('meet the stem of a query word as a prefix of the code words', async () => {
    // `lookups` → lookup*, `nested` → nest* (`NEST_LIMIT` holds the word `nest`).
    expect(await fx.paths('lookups')).toContain('src/table.rs');
    expect(await fx.paths('nested')).toContain('src/parser.rs');
  });

  it('answer words no stemmer takes (1,001 letters, another script, one letter repeated, only stopwords) without error', async () => {
    for (const q of ['ssssss', `${'stem'.repeat(250)}s`, 'выселение кэша', 'the of a'])
      expect(Array.isArray(await fx.paths(q))).toBe(true);
  });
});

describe('the any-term lane', () => {
  it('ranks a region where several query words meet above one repeating a single word', () => {
    const paths = anyTermPaths('evict entry');
    expect(paths.indexOf('src/lru.ts')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('src/lru.ts')).toBeLessThan(paths.indexOf('src/cache.ts'));
  });
});

describe('stopwords score, content words select', () => {
  it('reads only the regions a content word selects, each scored as the whole expression scores it', () => {
    // `the` and `of` are in many regions that hold no content word: their share is 0.
    const words = ['evict', 'the', 'oldest', 'of', 'entry'];
    const forms = words.map(wordFormTerms);
    const owners = forms.flatMap((f, i) => f.map(() => (isStopword(words[i]) ? -1 : i)));
    const content = forms.filter((_, i) => !isStopword(words[i]));
    const whole = ftsRegions(reader.db, ftsFormsExpression(forms), owners);
    const selected = ftsRegions(reader.db, ftsFormsExpression(forms), owners, {
      expression: ftsFormsExpression(content),
      phrases: content.flat().length,
    });
    const scores = (rows: typeof whole) => new Map(rows.map((r) => [r.region, r.score]));
    // notes/story.txt holds `the` and `of` alone: read and scored 0 by the whole expression.
    expect(whole.some((r) => r.score === 0)).toBe(true);
    expect(selected.every((r) => r.score > 0)).toBe(true);
    // Every region with a score is kept with the same score; only zero-share ones go.
    const positive = [...scores(whole)].filter(([, sc]) => sc > 0);
    expect(positive.length).toBeGreaterThan(0);
    expect([...scores(selected)].sort((a, b) => a[0] - b[0])).toEqual(positive.sort((a, b) => a[0] - b[0]));
  });
});

describe('the filename lane', () => {
  it('puts a path whose basename names a query word before one that names it in a directory only', () => {
    const ctx = laneContext('check range');
    const lane = filenameLane(ctx, () => ({ start: 0, end: 0, sl: 1, el: 1 }));
    const paths = lane.entries.map((e) => e.path);
    expect(paths.indexOf('lib/range.js')).toBeLessThan(paths.indexOf('lib/check/util.js'));
  });
});
