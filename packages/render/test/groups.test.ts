import type { OutputFormat } from '../src/fit';
import { renderGroupedPage, type GroupedPageInput } from '../src/groups';
import { renderSearchPage, sourceMarker, type PageHit } from '../src/page';
import { countTokens } from '../src/tokens';

const SET = 'fedcba9876543210fedcba9876543210';

function hit(ordinal: number, path: string, sources: string[]): PageHit {
  return {
    handle: `${SET}:${ordinal}`,
    path,
    uri: `file:///r/${path}`,
    start_line: 3,
    end_line: 9,
    start: 40,
    end: 200,
    name: `evict_${ordinal}`,
    sources,
    snippet: { line: 4, text: `entries.evict_oldest(${ordinal}); // evict the oldest entry of the cache` },
  };
}

/** Global hits 1..n, then a code group, a docs group and a git-log group, each stored after the previous. */
function grouped(perGroup = 12): GroupedPageInput {
  const global = Array.from({ length: perGroup }, (_, i) => hit(i + 1, `src/g${i}.rs`, ['source:code']));
  let offset = perGroup;
  const group = (scope: string, path: (i: number) => string) => {
    const g = {
      scope: [scope],
      offset,
      hits: Array.from({ length: perGroup }, (_, i) => hit(offset + i + 1, path(i), [scope])),
    };
    offset += perGroup;
    return g;
  };
  return {
    query: 'evict oldest',
    setId: SET,
    offset: 0,
    hits: global,
    limit: 20,
    coverage: { state: 'complete' },
    coverageLine: 'complete',
    truncated: false,
    scopes: 'per_source',
    groups: [
      group('source:code', (i) => `src/c${i}.rs`),
      group('source:docs', (i) => `docs/d${i}.md`),
      group('source:git-log', (i) => `commit:${String(i).padStart(40, 'a')}`),
    ],
  };
}

describe('source marker in lines format', () => {
  it('is compact and names every non-code source tag in brackets', () => {
    expect(sourceMarker(['source:config', 'source:test'])).toBe('[config,test]');
    expect(sourceMarker(['source:code'])).toBe('');
    expect(sourceMarker(['source:git-log'])).toBe('[git-log]');
    expect(sourceMarker([])).toBe('');
    const page = renderSearchPage(
      {
        query: 'q',
        setId: SET,
        offset: 0,
        hits: [hit(1, 'tests/fixtures/routes.toml', ['source:config', 'source:test']), hit(2, 'LICENSE', [])],
        limit: 5,
        coverage: {},
        coverageLine: 'ok',
        truncated: false,
      },
      { format: 'lines', budget: 1000 },
    ).stdout.split('\n');
    expect(page[0]).toBe(`${SET}:1  tests/fixtures/routes.toml:3-9  evict_1  [config,test]`);
    expect(page[2]).toBe(`${SET}:2  LICENSE:3-9  evict_2`);
  });
});

describe('renderGroupedPage', () => {
  it('shows the global ranking, then each group with its scope, hits and own cursor (JSON)', () => {
    const out = renderGroupedPage(grouped(), { format: 'json', budget: 100_000 });
    const json = JSON.parse(out.stdout);
    expect(Object.keys(json)).toEqual(['query', 'set', 'scopes', 'hits', 'groups', 'coverage']);
    expect(json.scopes).toBe('per_source');
    expect(json.hits).toHaveLength(12);
    expect(json.groups.map((g: { scope: string[] }) => g.scope)).toEqual([
      ['source:code'],
      ['source:docs'],
      ['source:git-log'],
    ]);
    expect(json.groups[1].hits[0]).toMatchObject({ handle: `${SET}:25`, path: 'docs/d0.md', sources: ['source:docs'] });
    expect(out.shown).toBe(48);
  });

  it('prints a scope header per group and a cursor per section in lines format', () => {
    const input = grouped();
    const out = renderGroupedPage({ ...input, limit: 2 }, { format: 'lines', budget: 100_000 });
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('scope: '))).toEqual([
      'scope: source:code',
      'scope: source:docs',
      'scope: source:git-log',
    ]);
    // Each cursor says how far its section got and which cap stopped it, as a flat page does.
    expect(lines).toContain(`next: more ${SET}@14 (14 of 24 files; stopped by -n)`);
    expect(lines).toContain(`next: more ${SET}@26 (26 of 36 files; stopped by -n)`);
    expect(lines.slice(-2)).toEqual(['coverage: complete', `next: more ${SET}@2 (2 of 12 files; stopped by -n)`]);
    const json = JSON.parse(renderGroupedPage({ ...input, limit: 2 }, { format: 'json', budget: 100_000 }).stdout);
    expect([json.stopped_by, json.groups[0].stopped_by]).toEqual(['-n', '-n']);
    expect(lines.filter((l) => l.endsWith('  [docs]'))).toHaveLength(2);
  });

  it('a tight budget gives every group its top hit before any section gets a second', () => {
    for (const format of ['json', 'lines'] as OutputFormat[]) {
      const roomy = renderGroupedPage(grouped(), { format, budget: 100_000 });
      let budget = 60;
      let found = false;
      for (; budget < countTokens(roomy.stdout); budget += 10) {
        const out = renderGroupedPage(grouped(), { format, budget });
        expect(countTokens(out.stdout)).toBeLessThanOrEqual(budget);
        if (out.shown === 0) continue;
        const end = format === 'json' ? '"' : '  ';
        const has = (ordinal: number) => out.stdout.includes(`${SET}:${ordinal}${end}`);
        if (out.shown >= 4) {
          // Every section has its top hit: each section's first handle appears.
          for (const first of [1, 13, 25, 37]) expect(has(first)).toBe(true);
          found = true;
        } else {
          // Before every section has its top hit, no section has a second one.
          for (const second of [2, 14, 26, 38]) expect(has(second)).toBe(false);
        }
      }
      expect(found).toBe(true);
    }
  });

  it('keeps the budget for every budget 0..1500 in both formats', () => {
    for (const format of ['json', 'lines'] as OutputFormat[]) {
      for (let budget = 0; budget <= 1500; budget += 37) {
        const out = renderGroupedPage(grouped(5), { format, budget });
        expect(countTokens(out.stdout)).toBeLessThanOrEqual(budget);
      }
    }
  });

  it('renders a group continuation: no global hits, one group', () => {
    const input = grouped();
    const out = renderGroupedPage(
      { ...input, hits: [], groups: [input.groups[1]] },
      { format: 'json', budget: 100_000 },
    );
    const json = JSON.parse(out.stdout);
    expect(json.hits).toEqual([]);
    expect(json.groups).toHaveLength(1);
    expect(json.groups[0].scope).toEqual(['source:docs']);
    expect(json.next).toBeUndefined();
  });
});
