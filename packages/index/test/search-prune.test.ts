// The any-term lane leaves out a common word's lone regions when they cannot rank
// (query/prune.ts): the lane, and so the search, must be the same as a scan of every region,
// for every setting of when it tries. Real files, a real index, the lane as search builds it.
import { Fixture } from './helpers';
import { parseQuery, searchIndex, type IndexReader } from '../src';
import { ftsFormsExpression, ftsRegions, type FtsMode } from '../src/query/fts';
import { ftsLane, type LaneContext } from '../src/query/lanes';
import { prunedAnyTermRegions, type PruneSettings } from '../src/query/prune';
import { isStopword, WEIGHT_ANY_TERM, wordFormTerms } from '@trufflepig/rank';

// `device` alone in many regions (with the stopwords a region of prose holds); `register`
// and `character` in a few, some with `device`.
const FILES: Record<string, string> = {
  ...Object.fromEntries(
    Array.from({ length: 24 }, (_, i) => [
      `drivers/misc/lone${i}.c`,
      `/* a device of the bus, and a device ${i} */\nint device_count_${i} = ${i};\n`,
    ]),
  ),
  ...Object.fromEntries(
    Array.from({ length: 6 }, (_, i) => [
      `drivers/char/chr${i}.c`,
      `/* register a character device number ${i} with the kernel */\nint register_chrdev_${i}(void) { return ${i}; }\n${'/* character */\n'.repeat(i)}`,
    ]),
  ),
  ...Object.fromEntries(
    Array.from({ length: 4 }, (_, i) => [`drivers/clk/reg${i}.c`, `/* register the clock ${i} */\nint clk_${i};\n`]),
  ),
  'Documentation/charset.txt': 'A character set of the terminal.\n',
};

let fx: Fixture;
let reader: IndexReader;
beforeAll(async () => {
  fx = new Fixture('prune', FILES);
  await fx.index();
  reader = await fx.open();
});
afterAll(() => reader.close());

function context(query: string, laneFiles: number, prune?: PruneSettings, anyTermFiles?: number): LaneContext {
  const q = parseQuery(query);
  if (!q.ok) throw new Error(q.error.message);
  return {
    reader,
    query: q.value,
    eligible: () => true,
    truncated: false,
    laneFiles,
    ...(prune ? { prune } : {}),
    ...(anyTermFiles !== undefined ? { anyTermFiles } : {}),
  };
}

function lane(query: string, laneFiles: number, prune?: PruneSettings, anyTermFiles?: number, mode: FtsMode = 'any') {
  const ctx = context(query, laneFiles, prune, anyTermFiles);
  const out = ftsLane(ctx, 'any_term', mode, WEIGHT_ANY_TERM);
  return { truncated: ctx.truncated, entries: out.entries.map((e) => [e.path, e.start, e.end]) };
}

const QUERY = 'register a character device';

describe('the any-term lane, pruned', () => {
  it('leaves out the lone regions of a common word when the kept files outscore their bound', () => {
    const words = QUERY.split(' ');
    const forms = words.map(wordFormTerms);
    const owners = forms.flatMap((f, i) => f.map(() => (isStopword(words[i]) ? -1 : i)));
    // Regions per word are counted per form (`register` and `regist*`: 20 for `register`),
    // so only `device` (60) is common here.
    const settings = { commonWordRegions: 20, minContentWords: 3 };
    const pruned = prunedAnyTermRegions(
      context(QUERY, 3, settings),
      forms.map((f, i) => ({ forms: f, content: !isStopword(words[i]) })),
      ftsFormsExpression(forms),
      owners,
      settings,
    );
    expect(pruned).toBeDefined();
    const content = forms.filter((_, i) => !isStopword(words[i]));
    const all = ftsRegions(reader.db, ftsFormsExpression(forms), owners, {
      expression: ftsFormsExpression(content),
      phrases: content.flat().length,
    });
    // The 24 regions holding `device` alone were not read; every region read scores as in a full scan.
    expect(all.length - pruned!.length).toBe(24);
    const full = new Map(all.map((r) => [r.region, r.score]));
    for (const r of pruned!) expect(r.score).toBe(full.get(r.region));
    expect(lane(QUERY, 3, settings)).toEqual(lane(QUERY, 3));
  });

  it('gives the lane of a full scan for every setting of when it tries', () => {
    const queries = [
      QUERY,
      'register the character',
      'device of the bus',
      'character device number kernel clock',
      'the device',
      'device',
    ];
    for (const query of queries) {
      for (const laneFiles of [1, 2, 3, 5, 8, 30]) {
        const full = lane(query, laneFiles);
        for (const commonWordRegions of [1, 5, 10, 100])
          for (const minContentWords of [1, 3])
            expect([
              query,
              commonWordRegions,
              laneFiles,
              minContentWords,
              lane(query, laneFiles, { commonWordRegions, minContentWords }),
            ]).toEqual([query, commonWordRegions, laneFiles, minContentWords, full]);
      }
    }
  });

  it('keeps the any-term lane to its own cap, with the same files a full scan ranks first', () => {
    // The all-terms lane of `device` keeps its 30 files; the any-term lane 4, and says it was cut.
    expect(lane('the device', 100, undefined, 4, 'all').entries).toHaveLength(30);
    const cut = lane('the device', 100, undefined, 4);
    expect(cut).toEqual({ truncated: true, entries: lane('the device', 100).entries.slice(0, 4) });
    // The cap is what pruning proves against: the same lane with and without it.
    for (const query of [QUERY, 'character device number kernel clock', 'the device'])
      for (const anyTermFiles of [1, 2, 4, 8])
        expect([
          query,
          anyTermFiles,
          lane(query, 100, { commonWordRegions: 5, minContentWords: 1 }, anyTermFiles),
        ]).toEqual([query, anyTermFiles, lane(query, 100, undefined, anyTermFiles)]);
    const q = parseQuery('the device');
    if (!q.ok) throw new Error(q.error.message);
    // Search passes the cap on, and a page cut by it says so.
    expect(searchIndex(reader, q.value, { anyTermFiles: 4 }).truncated).toBe(true);
    expect(searchIndex(reader, q.value, { anyTermFiles: 100 }).truncated).toBe(false);
  });

  it('is what search does by default, and `prune: false` scans every region', async () => {
    const q = parseQuery(QUERY);
    if (!q.ok) throw new Error(q.error.message);
    const paths = (o: ReturnType<typeof searchIndex>) => o.hits.map((h) => [h.path, h.start, h.end]);
    expect(paths(searchIndex(reader, q.value, { prune: { commonWordRegions: 10 }, laneFiles: 3 }))).toEqual(
      paths(searchIndex(reader, q.value, { prune: false, laneFiles: 3 })),
    );
    expect(searchIndex(reader, q.value).hits[0].path).toMatch(/^drivers\/char\/chr\d\.c$/);
  });
});
