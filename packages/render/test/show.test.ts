import { SHOW_MAX_ROWS } from '../src/limits';
import { renderObject } from '../src/object';
import { fitError } from '../src/fit-error';
import { splitRows, type SourceRow } from '../src/rows';
import { isFolded, renderShow, type ShowInput, type ShownRow } from '../src/show';
import { countTokens } from '../src/tokens';
import type { OutputFormat } from '../src/fit';

/** A shown row that must be source text (these reads fold nothing). */
function sourceRow(row: ShownRow): SourceRow {
  if (isFolded(row)) throw new Error(`unexpected folded rows at line ${row.line}`);
  return row;
}

const HANDLE = '0123456789abcdef0123456789abcdef:3';
const formats: OutputFormat[] = ['json', 'lines'];

function fileOf(lines: number): Buffer {
  const parts = [Buffer.from([0xef, 0xbb, 0xbf])];
  for (let i = 1; i <= lines; i++) {
    parts.push(
      Buffer.from(
        i % 7 === 0 ? `  let bad${i} = "\u001b[2J";\r\n` : `  const value${i} = compute(${i}); // line ${i}\n`,
      ),
    );
  }
  return Buffer.concat(parts);
}

function showInput(buf: Buffer, over: Partial<ShowInput> = {}): ShowInput {
  return {
    handle: HANDLE,
    path: 'src/lib%20x.ts',
    uri: 'file:///work/repo/src/lib%20x.ts',
    revision: 'a'.repeat(64),
    verified: 'revision',
    rows: splitRows(buf, 0, buf.length, 1),
    continuation: (start) => `${HANDLE}+${start}-${buf.length}`,
    ...over,
  };
}

describe('renderShow', () => {
  test('JSON shape: the span of the rows actually emitted', () => {
    const buf = fileOf(3);
    const out = renderShow(showInput(buf), { format: 'json', budget: 10_000 });
    const json = JSON.parse(out.stdout);
    expect(Object.keys(json)).toEqual([
      'handle',
      'path',
      'uri',
      'revision',
      'verified',
      'start_line',
      'end_line',
      'start',
      'end',
      'rows',
    ]);
    expect(json.start).toBe(0);
    expect(json.end).toBe(buf.length - 1);
    expect(json.rows[0]).toEqual({ line: 1, start: 0, end: 41, text: '  const value1 = compute(1); // line 1' });
    expect(out.next).toBeUndefined();
    expect(out.shown).toBe(3);
  });

  test('never exceeds the budget, rows are whole, next starts at the first omitted row', () => {
    const buf = fileOf(300);
    const data = showInput(buf);
    for (const format of formats) {
      for (let budget = 0; budget <= 2000; budget += 7) {
        const out = renderShow(data, { format, budget });
        expect(countTokens(out.stdout)).toBeLessThanOrEqual(budget);
        if (out.status !== undefined || budget === 0) continue;
        expect(out.shown).toBeGreaterThan(0);
        expect(out.next).toBe(`${HANDLE}+${data.rows[out.shown].start}-${buf.length}`);
        if (format === 'json') {
          const json = JSON.parse(out.stdout);
          expect(json.rows).toHaveLength(out.shown);
          expect(json.rows).toEqual(
            data.rows
              .slice(0, out.shown)
              .map(sourceRow)
              .map((r) => (r.escaped ? { ...r } : { line: r.line, start: r.start, end: r.end, text: r.text })),
          );
          expect(json.end).toBe(data.rows[out.shown - 1].end);
          expect(json.next).toBe(out.next);
        } else {
          expect(out.stdout.split('\n')).toHaveLength(out.shown + 3);
        }
      }
    }
  });

  test(`at most ${SHOW_MAX_ROWS} rows; input.next when every row fits`, () => {
    const buf = fileOf(250);
    const out = renderShow(showInput(buf), { format: 'lines', budget: 1_000_000 });
    expect(out.shown).toBe(SHOW_MAX_ROWS);
    expect(out.next).toBe(`${HANDLE}+${splitRows(buf, 0, buf.length, 1)[SHOW_MAX_ROWS].start}-${buf.length}`);
    const small = fileOf(2);
    const all = renderShow(showInput(small, { next: 'CONT' }), { format: 'json', budget: 10_000 });
    expect(all.shown).toBe(2);
    expect(all.next).toBe('CONT');
    expect(JSON.parse(all.stdout).next).toBe('CONT');
  });

  test('lines format: header, escaped rows marked with !, next', () => {
    const buf = fileOf(8);
    const out = renderShow(showInput(buf), { format: 'lines', budget: 10_000 });
    const lines = out.stdout.split('\n');
    // the stored path src/lib%20x.ts prints as itself: a space needs no encoding
    expect(lines[0]).toBe(`${HANDLE}  src/lib x.ts:1-8`);
    expect(lines[1]).toBe('1\t  const value1 = compute(1); // line 1');
    expect(lines[7]).toBe('7!\t  let bad7 = "\\x1B[2J";');
    expect(out.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    const byPath = renderShow(showInput(buf, { handle: undefined, verified: 'current file' }), {
      format: 'lines',
      budget: 10_000,
    });
    expect(byPath.stdout.split('\n')[0]).toBe('path:src/lib x.ts:1-8');
    // One line: `path:P:3`, not `3-3`.
    const line3 = splitRows(buf, 0, buf.length, 1).filter((r) => r.line === 3);
    const oneRow = renderShow(showInput(buf, { handle: undefined, verified: 'current file', rows: line3 }), {
      format: 'lines',
      budget: 10_000,
    });
    expect(oneRow.stdout.split('\n')[0]).toBe('path:src/lib x.ts:3');
    const json = JSON.parse(renderShow(showInput(buf), { format: 'json', budget: 10_000 }).stdout);
    expect({ path: json.path, uri: json.uri }).toEqual({
      path: 'src/lib x.ts',
      uri: 'file:///work/repo/src/lib%20x.ts',
    });
  });

  test('a row larger than the budget gives the tiny-budget status', () => {
    const buf = Buffer.from('x'.repeat(5000) + '\nshort\n');
    for (const format of formats) {
      const out = renderShow(showInput(buf), { format, budget: 300 });
      expect(out.status).toBe('budget_too_small');
      expect(out.needed).toBeGreaterThan(300);
      expect(out.stderr).toMatch(/^trufflepig: budget of 300 tokens is too small for one row; retry with -b \d+\n$/);
      expect(countTokens(out.stdout)).toBeLessThanOrEqual(300);
      expect(out.stdout).not.toBe('');
      const retry = renderShow(showInput(buf), { format, budget: out.needed ?? 0 });
      expect(retry.shown).toBeGreaterThanOrEqual(1);
    }
    expect(renderShow(showInput(buf), { format: 'json', budget: 0 })).toEqual({ stdout: '', shown: 0 });
  });
});

describe('fitError / renderObject', () => {
  test('error JSON when it fits, one stderr line always', () => {
    const err = { code: 'stale_source', message: 'file changed since the search\nrun the search again' };
    const out = fitError(err, 600);
    expect(JSON.parse(out.stdout)).toEqual({ error: err });
    expect(out.stdout.split('\n')).toHaveLength(2);
    expect(out.stderr).toBe('trufflepig: stale_source: file changed since the search\\x0Arun the search again\n');
    expect(fitError(err, 5).stdout).toBe('');
    expect(fitError(err, 0).stdout).toBe('');
    const needed = countTokens(out.stdout);
    expect(fitError(err, needed).stdout).toBe(out.stdout);
    // one token short: the message is cut (marked …), the code kept
    const cut = JSON.parse(fitError(err, needed - 1).stdout).error;
    expect(cut.code).toBe('stale_source');
    expect(cut.message).toMatch(/…$/);
  });

  test('lines of an object: nested records as key.sub lines, an empty one as none', () => {
    const out = renderObject(
      { files: 26, excluded: { binary: 25 }, unsearched: {}, paths: ['a', 'b'], coverage: { skipped: [], by: {} } },
      { budget: 1000, format: 'lines' },
    );
    expect(out.stdout).toBe(
      'files: 26\nexcluded.binary: 25\nunsearched: none\npaths: ["a","b"]\ncoverage.skipped: none\ncoverage.by: none\n',
    );
    // A verb's own lines view replaces the generic one, under the same budget.
    const own = renderObject({ files: 26 }, { budget: 1000, format: 'lines', lines: (v) => `${v.files} files\n` });
    expect(own.stdout).toBe('26 files\n');
    expect(renderObject({ files: 26 }, { budget: 1000, lines: () => 'x\n' }).stdout).toBe('{"files":26}\n');
  });

  test('objects fit or answer the status with a retry hint', () => {
    const value = { generation: 3, files: 120, note: 'x'.repeat(400) };
    const full = renderObject(value, { budget: 10_000 });
    expect(JSON.parse(full.stdout)).toEqual(value);
    const needed = countTokens(full.stdout);
    for (let budget = 0; budget <= needed + 2; budget++) {
      const out = renderObject(value, { budget });
      expect(countTokens(out.stdout)).toBeLessThanOrEqual(budget);
      if (budget >= needed) expect(out.stdout).toBe(full.stdout);
      else if (budget > 0) {
        expect(out.status).toBe('budget_too_small');
        expect(out.stderr).toBe(
          `trufflepig: budget of ${budget} tokens is too small for this response; retry with -b ${needed}\n`,
        );
      }
    }
  });
});

describe('navigation context after the rows', () => {
  it('adds extra JSON keys and lines within the budget', () => {
    const bytes = Buffer.from('fn a() {}\nfn b() {}\n');
    const input = {
      path: 'src/x.rs',
      uri: 'file:///r/src/x.rs',
      revision: 'r',
      verified: 'revision' as const,
      rows: splitRows(bytes, 0, bytes.length, 1),
      continuation: (n: number) => `c~${n}`,
      extra: { definitions: [{ path: 'src/y.rs', line: 3 }] },
      extraLines: [['definition', 'src/y.rs:3']] as [string, string][],
    };
    const json = JSON.parse(renderShow(input, { format: 'json', budget: 1000 }).stdout);
    expect(json.definitions).toEqual([{ path: 'src/y.rs', line: 3 }]);
    expect(Object.keys(json).indexOf('definitions')).toBeGreaterThan(Object.keys(json).indexOf('rows'));
    const lines = renderShow(input, { format: 'lines', budget: 1000 }).stdout;
    expect(lines.trimEnd().split('\n').pop()).toBe('definition: src/y.rs:3');
    const tight = renderShow(input, { format: 'json', budget: 60 });
    expect(countTokens(tight.stdout)).toBeLessThanOrEqual(60);
  });
});
