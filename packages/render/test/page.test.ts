import { SNIPPET_KEEP_MIN } from '../src/limits';
import { renderSearchPage, type PageHit, type SearchPageInput } from '../src/page';
import { countTokens } from '../src/tokens';
import type { OutputFormat } from '../src/fit';

const SET = 'k3x9qa';

function hit(i: number, opts: { snippet?: boolean; name?: string; member?: string } = {}): PageHit {
  const path = `src/module${i}/file_${i}.ts`;
  return {
    handle: `${SET}:${i + 1}`,
    ...(opts.member !== undefined ? { member: opts.member } : {}),
    path,
    uri: `file:///work/repo/${path}`,
    start_line: 10 + i,
    end_line: 20 + i,
    start: 100 * i,
    end: 100 * i + 80,
    ...(opts.name !== undefined ? { name: opts.name } : { name: `refillTokens${i}`, kind: 'function' }),
    sources: ['live_source'],
    ...(opts.snippet === false
      ? {}
      : {
          snippet: {
            line: 12 + i,
            text: `const tokens${i} = bucket.refillTokens(rate, Date.now()) + ${i}; // refill the bucket`,
          },
        }),
  };
}

function input(count: number, over: Partial<SearchPageInput> = {}): SearchPageInput {
  return {
    query: 'refill tokens',
    setId: SET,
    offset: 0,
    hits: Array.from({ length: count }, (_, i) => hit(i)),
    limit: 20,
    coverage: { indexed_files: 123, excluded_files: 2 },
    coverageLine: 'indexed 123 files, 2 excluded',
    truncated: false,
    ...over,
  };
}

const formats: OutputFormat[] = ['json', 'lines'];

describe('renderSearchPage', () => {
  test('a one-line span prints as PATH:LINE, a longer one as PATH:START-END; JSON keeps both lines', () => {
    const one = { ...hit(0), start_line: 78, end_line: 78, snippet: { line: 78, text: 'pub struct Regex(Exec);' } };
    const page = renderSearchPage(input(2, { hits: [one, hit(1)] }), { format: 'lines', budget: 10_000 });
    // Before: `src/module0/file_0.ts:78-78`.
    expect(page.stdout.split('\n').slice(0, 4)).toEqual([
      `${SET}:1  src/module0/file_0.ts:78  refillTokens0`,
      '  78: pub struct Regex(Exec);',
      `${SET}:2  src/module1/file_1.ts:11-21  refillTokens1`,
      '  13: const tokens1 = bucket.refillTokens(rate, Date.now()) + 1; // refill the bucket',
    ]);
    const json = JSON.parse(renderSearchPage(input(1, { hits: [one] }), { format: 'json', budget: 10_000 }).stdout);
    expect([json.hits[0].start_line, json.hits[0].end_line]).toEqual([78, 78]);
  });

  test('a roomy budget shows `limit` hits with snippets and a next cursor', () => {
    const page = renderSearchPage(input(30, { offset: 40, truncated: true }), { format: 'json', budget: 100_000 });
    expect(page.shown).toBe(20);
    expect(page.next).toBe(`${SET}@60`);
    expect(page.stdout.endsWith('\n')).toBe(true);
    expect(page.stdout.indexOf('\n')).toBe(page.stdout.length - 1);
    const json = JSON.parse(page.stdout);
    expect(Object.keys(json)).toEqual(['query', 'set', 'hits', 'coverage', 'next', 'stopped_by', 'truncated']);
    expect(json.stopped_by).toBe('-n');
    expect(Object.keys(json.hits[0])).toEqual([
      'handle',
      'path',
      'uri',
      'start_line',
      'end_line',
      'start',
      'end',
      'name',
      'kind',
      'sources',
      'snippet',
    ]);
    expect(json.next).toBe(`${SET}@60`);
    expect(json.truncated).toBe(true);
    expect(json.coverage).toEqual({ indexed_files: 123, excluded_files: 2 });
  });

  test('the budget is never exceeded, for every budget 0..2000 and both formats', () => {
    const data = input(25, { truncated: true });
    for (const format of formats) {
      let previous = 0;
      let previousSnippets = false;
      for (let budget = 0; budget <= 2000; budget++) {
        const page = renderSearchPage(data, { format, budget });
        expect(countTokens(page.stdout)).toBeLessThanOrEqual(budget);
        if (budget > 0 && page.status === undefined) {
          expect(page.shown).toBeGreaterThan(0);
          expect(page.next).toBe(page.shown < 25 ? `${SET}@${page.shown}` : undefined);
          // More budget never shows fewer locators, except where snippets come back.
          const snippets = format === 'json' ? page.stdout.includes('"snippet"') : page.stdout.includes('\n  ');
          if (page.shown < previous) {
            expect([budget, snippets, previousSnippets]).toEqual([budget, true, false]);
            expect(page.shown).toBeGreaterThanOrEqual(8);
          }
          previous = page.shown;
          previousSnippets = snippets;
        }
      }
      expect(previous).toBeGreaterThanOrEqual(15);
    }
  });

  test('the count is the largest that fits', () => {
    const data = input(20);
    const bare = { ...data, hits: data.hits.map((h) => ({ ...h, snippet: undefined })) };
    for (const format of formats) {
      for (const budget of [150, 300, 450, 600, 900, 1200]) {
        const page = renderSearchPage(data, { format, budget });
        expect(page.shown).toBeGreaterThan(0);
        expect(countTokens(page.stdout)).toBeLessThanOrEqual(budget);
        const snippets = format === 'json' ? page.stdout.includes('"snippet"') : page.stdout.includes('\n  ');
        // The same page with one more hit, in the same snippet mode, does not fit.
        const oneMore = renderSearchPage(
          { ...(snippets ? data : bare), limit: page.shown + 1 },
          { format, budget: 100_000 },
        );
        if (page.shown < 20) expect(countTokens(oneMore.stdout)).toBeGreaterThan(budget);
      }
    }
  });

  test('snippets are kept while SNIPPET_KEEP_MIN hits fit, and dropped only below that', () => {
    const data = input(20);
    const bare = { ...data, hits: data.hits.map((h) => ({ ...h, snippet: undefined })) };
    let dropped = 0;
    for (const format of formats) {
      for (let budget = 50; budget <= 1500; budget += 25) {
        const page = renderSearchPage(data, { format, budget });
        if (page.status !== undefined) continue;
        const hasSnippets = format === 'json' ? page.stdout.includes('"snippet"') : page.stdout.includes('\n  ');
        const withSnippets = renderSearchPage({ ...data, limit: SNIPPET_KEEP_MIN }, { format, budget: 100_000 });
        const keepMinFits = countTokens(withSnippets.stdout) <= budget;
        if (keepMinFits) expect([format, budget, hasSnippets]).toEqual([format, budget, true]);
        if (!hasSnippets) dropped++;
        if (hasSnippets && !keepMinFits) {
          // Kept below the minimum only because dropping them would not show one more hit.
          const oneMoreBare = renderSearchPage({ ...bare, limit: page.shown + 1 }, { format, budget: 100_000 });
          expect(countTokens(oneMoreBare.stdout)).toBeGreaterThan(budget);
        }
      }
    }
    expect(dropped).toBeGreaterThan(5);
  });

  test('with fewer than 8 remaining hits, snippets stay when all of them fit', () => {
    const data = input(3);
    const full = renderSearchPage(data, { format: 'json', budget: 100_000 });
    const page = renderSearchPage(data, { format: 'json', budget: countTokens(full.stdout) });
    expect(page.shown).toBe(3);
    expect(page.next).toBeUndefined();
    expect(page.stdout).toBe(full.stdout);
    const tighter = renderSearchPage(data, { format: 'json', budget: countTokens(full.stdout) - 1 });
    expect(tighter.stdout).not.toContain('"snippet"');
    expect(tighter.shown).toBe(3);
  });

  test('lines format: locators, snippet lines, coverage and next; the coverage line says any truncation', () => {
    const data = input(5, { offset: 7, truncated: true, limit: 2 });
    data.hits = [hit(0, { member: 'api' }), hit(1), ...data.hits.slice(2)];
    const page = renderSearchPage({ ...data, members: { api: '/work/api' } }, { format: 'lines', budget: 10_000 });
    expect(page.stdout).toBe(
      [
        `${SET}:1  api/src/module0/file_0.ts:10-20  refillTokens0`,
        '  12: const tokens0 = bucket.refillTokens(rate, Date.now()) + 0; // refill the bucket',
        `${SET}:2  src/module1/file_1.ts:11-21  refillTokens1`,
        '  13: const tokens1 = bucket.refillTokens(rate, Date.now()) + 1; // refill the bucket',
        'member: api\t/work/api',
        'coverage: indexed 123 files, 2 excluded',
        `next: more ${SET}@9 (9 of 12 files; stopped by -n)`,
        '',
      ].join('\n'),
    );
    expect(page.next).toBe(`${SET}@9`);
  });

  test('names, snippets and coverage cannot break the line structure', () => {
    const evil = hit(0, { name: 'bad\tname\nnext: more x\u001b[2J' });
    evil.snippet = { line: 3, text: 'a\tb\r\nc\u009b\u2028' };
    const page = renderSearchPage(input(1, { hits: [evil], coverageLine: 'ok\nnext: more forged' }), {
      format: 'lines',
      budget: 10_000,
    });
    const lines = page.stdout.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0].split('  ')).toHaveLength(3);
    expect(lines[0]).toContain('bad\\x09name\\x0Anext: more x\\x1B[2J');
    // A tab in source text stays a tab (one token, as show rows keep it); line breaks and controls are escaped.
    expect(lines[1]).toBe('  3: a\tb\\x0D\\x0Ac\\u{9B}\\u{2028}');
    expect(lines[2]).toBe('coverage: ok\\x0Anext: more forged');
    expect(page.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/);
    expect(lines[0]).not.toContain('\t');

    const json = renderSearchPage(input(1, { hits: [evil] }), { format: 'json', budget: 10_000 });
    expect(json.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/);
    expect(JSON.parse(json.stdout).hits[0].name).toBe(evil.name);
    expect(JSON.parse(json.stdout).hits[0].snippet.text).toBe(evil.snippet.text);
  });

  test('an empty page fits when it can; extra fields follow; member comes first', () => {
    const empty = renderSearchPage(input(0, { extra: { filter_hint: 'x', query: 'not replaced' } }), {
      format: 'json',
      budget: 600,
    });
    expect(empty.shown).toBe(0);
    expect(empty.next).toBeUndefined();
    const json = JSON.parse(empty.stdout);
    expect(Object.keys(json)).toEqual(['query', 'set', 'hits', 'coverage', 'filter_hint']);
    expect(json.query).toBe('refill tokens');
    const withMember = renderSearchPage(input(1, { hits: [hit(0, { member: 'm' })] }), { format: 'json', budget: 600 });
    expect(Object.keys(JSON.parse(withMember.stdout).hits[0])[0]).toBe('member');
  });

  test('budget 0 prints nothing and says nothing', () => {
    for (const format of formats) {
      expect(renderSearchPage(input(5), { format, budget: 0 })).toEqual({ stdout: '', shown: 0 });
    }
  });

  test('a tiny budget answers a fitting status and a retry hint', () => {
    for (const format of formats) {
      const bareHits = [0, 1, 2, 3, 4].map((i) => hit(i, { snippet: false }));
      const oneBare = renderSearchPage(input(5, { hits: bareHits, limit: 1 }), { format, budget: 100_000 });
      // A retry renders the same page under a new set id: each occurrence is counted at its
      // worst, one token per character of an id one character longer.
      const idSlack = (oneBare.stdout.split(SET).length - 1) * (SET.length + 1 - countTokens(SET));
      const needed = countTokens(oneBare.stdout) + idSlack;
      for (const budget of [1, 5, 12, 20, needed - idSlack - 1]) {
        const page = renderSearchPage(input(5), { format, budget });
        expect(page.status).toBe('budget_too_small');
        expect(page.needed).toBe(needed);
        expect(page.shown).toBe(0);
        expect(page.stderr).toBe(
          `trufflepig: budget of ${budget} tokens is too small for one hit; retry with -b ${needed}\n`,
        );
        expect(countTokens(page.stdout)).toBeLessThanOrEqual(budget);
        const status =
          format === 'json'
            ? `{"status":"budget_too_small","needed":${needed}}\n`
            : `status: budget_too_small needed=${needed}\n`;
        expect(page.stdout).toBe(countTokens(status) <= budget ? status : '');
      }
      // The retry hint is honest: -b needed shows one hit, whatever the new set id.
      for (const id of [SET, 'zq0x7m', '9y8x7w', 'a1b2c3d']) {
        const retried = renderSearchPage(
          { ...input(5), setId: id, hits: input(5).hits.map((h, i) => ({ ...h, handle: `${id}:${i + 1}` })) },
          { format, budget: needed },
        );
        expect(retried.shown).toBeGreaterThanOrEqual(1);
      }
    }
  });
});

describe('verb-specific hit details', () => {
  it('renders detail keys in JSON and key=value fields in lines', () => {
    const hit = {
      handle: `${'a'.repeat(32)}:1`,
      path: 'src/x.rs',
      uri: 'file:///r/src/x.rs',
      start_line: 3,
      end_line: 3,
      start: 10,
      end: 20,
      detail: { role: 'call' },
      repeats: 2,
    };
    const input = {
      query: 'refs x',
      setId: 'a'.repeat(32),
      offset: 0,
      hits: [hit],
      limit: 5,
      coverage: {},
      coverageLine: 'ok',
      truncated: false,
    };
    expect(JSON.parse(renderSearchPage(input, { format: 'json', budget: 500 }).stdout).hits[0]).toMatchObject({
      role: 'call',
      repeats: 2,
    });
    expect(renderSearchPage(input, { format: 'lines', budget: 500 }).stdout.split('\n')[0]).toBe(
      `${'a'.repeat(32)}:1\tsrc/x.rs:3\trole=call\t×2`,
    );
  });
});

describe('largestFitting', () => {
  it('finds the largest fitting count for every threshold, probing past it only a little', () => {
    const { largestFitting } = require('../src/fit') as typeof import('../src/fit');
    for (let max = 0; max <= 40; max++) {
      for (let t = 0; t <= 45; t++) {
        const probed: number[] = [];
        const got = largestFitting(max, (n) => (probed.push(n), n <= t));
        expect(got).toBe(Math.min(max, t));
        // Galloping: nothing beyond twice the answer (plus one) is ever rendered.
        expect(Math.max(0, ...probed)).toBeLessThanOrEqual(Math.max(1, 2 * Math.min(max, t) + 1, t >= max ? max : 0));
      }
    }
  });
});
