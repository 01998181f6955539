// `diff REV`'s pure parts: the rule of hunks outside definitions and the page fitted to
// its budget. Its comparison on real Git repositories is in history.test.ts: everything
// that parses source shares one test file, because the native tree-sitter parsers break
// when a second test file in the same jest worker loads them again.
import { countTokens } from '@trufflepig/render';
import type { ResultEntry } from '@trufflepig/result-cache';
import { diffLines, hunkView, outsideHunks, renderDiffPage, type DefChange } from '../src/index';

describe('outsideHunks', () => {
  const change = (before: [number, number], after: [number, number]): DefChange => ({
    status: 'changed',
    name: 'f',
    kind: 'function',
    before: { start: before[0], end: before[1] },
    after: { start: after[0], end: after[1] },
    added: 1,
    deleted: 1,
    whitespaceOnly: false,
  });

  it("leaves out hunks inside a listed change, keeps the rest with both sides' lines", () => {
    const old = ['a', 'b', 'c', 'd', 'e', 'f'];
    const neu = ['A', 'b', 'c', 'D', 'e', 'f', 'g'];
    const hunks = outsideHunks(old, neu, diffLines(old, neu), [change([4, 5], [4, 5])], [{ start: 4, end: 5 }]);
    expect(hunks).toEqual([
      { before: { start: 1, end: 1 }, after: { start: 1, end: 1 }, added: 1, deleted: 1, whitespaceOnly: false },
      { before: { start: 7, end: 6 }, after: { start: 7, end: 7 }, added: 1, deleted: 0, whitespaceOnly: false },
    ]);
  });

  it('joins hunks a few unchanged lines apart, never across a definition, and marks whitespace-only ones', () => {
    const old = ['x', 'k1', 'k2', 'y', 'def', 'body', 'end', 'z'];
    const neu = ['x ', 'k1', 'k2', 'y  ', 'def', 'body', 'end', 'Z'];
    const joined = outsideHunks(old, neu, diffLines(old, neu), [], [{ start: 5, end: 7 }]);
    expect(joined.map((h) => [h.after.start, h.after.end, h.whitespaceOnly])).toEqual([
      [1, 4, true],
      [8, 8, false],
    ]);
  });
});

describe('outsideHunks: lines of one Git hunk split between a definition and the rest', () => {
  it("an import changed next to a changed definition is its own hunk, not lost inside the definition's", () => {
    const old = ["import { a } from 'a';", 'export function f() {', '  return 1;', '}'];
    const neu = ["import { a, b } from 'a';", 'export function f(): number {', '  return 1;', '}'];
    const f: DefChange = {
      status: 'changed',
      name: 'f',
      kind: 'function',
      before: { start: 2, end: 4 },
      after: { start: 2, end: 4 },
      added: 1,
      deleted: 1,
      whitespaceOnly: false,
    };
    expect(outsideHunks(old, neu, diffLines(old, neu), [f], [{ start: 2, end: 4 }])).toEqual([
      { before: { start: 1, end: 1 }, after: { start: 1, end: 1 }, added: 1, deleted: 1, whitespaceOnly: false },
    ]);
  });

  it('a deleted file is its definitions: the blank lines between them go with them, a comment does not', () => {
    const old = ['function f() {}', '', 'function g() {}', '', '// the end'];
    const removed = (name: string, line: number): DefChange => ({
      status: 'removed',
      name,
      kind: 'function',
      before: { start: line, end: line },
      added: 0,
      deleted: 1,
      whitespaceOnly: false,
    });
    const hunks = outsideHunks(old, [], diffLines(old, []), [removed('f', 1), removed('g', 3)], []);
    expect(hunks).toEqual([
      { before: { start: 4, end: 5 }, after: { start: 1, end: 0 }, added: 0, deleted: 2, whitespaceOnly: false },
    ]);
  });
});

describe('renderDiffPage', () => {
  const bytes = (n: number, edit: boolean) =>
    Buffer.from(
      Array.from({ length: n }, (_, i) => `line ${i + 1}${edit && i % 3 === 1 ? ' edited here' : ''}`).join('\n') +
        '\n',
    );
  const before = bytes(40, false);
  const after = bytes(40, true);
  const entries: ResultEntry[] = Array.from({ length: 6 }, (_, i) => {
    const range = { start: i * 6 + 1, end: i * 6 + 6 };
    return {
      tag: 'change',
      root: '/r',
      path: 'a.ts',
      revision: 'x',
      generation: 0,
      start: 0,
      end: 0,
      start_line: range.start,
      end_line: range.end,
      name: `f${i}`,
      kind: 'function',
      change: {
        repo: '/r',
        commit: 'c'.repeat(40),
        worktree: 'f'.repeat(64),
        date: '',
        subject: '',
        after: { path: 'a.ts', start_line: range.start, end_line: range.end },
        before: { path: 'a.ts', start_line: range.start, end_line: range.end },
        added: 2,
        deleted: 2,
      },
      ...(i >= 4 ? { outside: true } : {}),
    };
  });
  const view = (i: number) =>
    hunkView(
      { bytes: before, range: { start: i * 6 + 1, end: i * 6 + 6 } },
      { bytes: after, range: { start: i * 6 + 1, end: i * 6 + 6 } },
    );
  const input = {
    query: 'diff HEAD',
    target: 'working tree since HEAD c',
    setId: 'abc123',
    offset: 0,
    entries,
    view,
    coverage: { changes: 6 },
    coverageLine: '6 changes',
    truncated: false,
    printPath: (p: string) => p,
  };

  it('fits whole changes, then part of the next with its show continuation, and a next cursor', () => {
    for (const budget of [120, 200, 400, 5000]) {
      const lines = renderDiffPage(input, { format: 'lines', budget }).stdout;
      expect(countTokens(lines)).toBeLessThanOrEqual(budget);
      const json = renderDiffPage(input, { format: 'json', budget }).stdout;
      expect(countTokens(json)).toBeLessThanOrEqual(budget);
    }
    const all = renderDiffPage(input, { format: 'lines', budget: 5000 }).stdout;
    expect(all).toMatch(/^4 ~ function f3 19-24 \+2 -2$/m);
    expect(all).toMatch(/^outside definitions:\na\.ts\n5 hunk 25-30 \+2 -2\n/m);
    expect(all).not.toMatch(/^next:/m);
    // One whole change, then the first rows of the second and where the rest is read; more starts after it.
    const small = renderDiffPage(input, { format: 'lines', budget: 150 }).stdout;
    expect(small).toMatch(/^1 ~ function f0 1-6 \+2 -2\n 1\tline 1\n-2\tline 2\n\+2\tline 2 edited here\n/m);
    expect(small).toMatch(/^2 ~ function f1 7-12 \+2 -2\n 7\tline 7\n/m);
    expect(small).toMatch(/^rest: show abc123:2~\d+$/m);
    expect(small).toMatch(/^next: more abc123@2$/m);
    // JSON: a change cut short names its continuation; every other change has all its rows.
    let cut = 0;
    for (let budget = 200; budget <= 700; budget += 25) {
      const page = JSON.parse(renderDiffPage(input, { format: 'json', budget }).stdout);
      page.hits.forEach((hit: any, i: number) => {
        if (hit.rows.length === view(i).rows.length) expect(hit.rest).toBeUndefined();
        else {
          cut++;
          expect(i).toBe(page.hits.length - 1);
          expect(hit.rest).toBe(`${hit.handle}~${hit.rows.length}`);
        }
      });
    }
    expect(cut).toBeGreaterThan(0);
    const tiny = renderDiffPage(input, { format: 'lines', budget: 20 }).stdout;
    expect(tiny).toMatch(/^status: budget_too_small needed=\d+$/m);
  });

  it('an entry whose change cannot be read says why, in place of its rows', () => {
    const out = renderDiffPage(
      {
        ...input,
        entries: entries.slice(0, 1),
        view: () => ({ error: 'stale_source: a.ts changed since it was listed; run diff again' }),
      },
      { format: 'json', budget: 600 },
    ).stdout;
    expect(JSON.parse(out).hits[0]).toMatchObject({
      handle: 'abc123:1',
      error: expect.stringMatching(/^stale_source/),
      section: 'definition',
    });
  });
});
