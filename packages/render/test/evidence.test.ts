import { lineMatchRows, pickEvidence } from '../src/evidence';
import {
  EVIDENCE_MATCHES_MAX,
  EVIDENCE_TAB_COLUMNS,
  SNIPPET_MAX_CHARS,
  SPAN_DEFINITION_MAX_LINES,
  SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX,
  SPAN_WINDOW_LINES_BEFORE,
  SPAN_WINDOW_MAX_LINES,
} from '../src/limits';
import { leftLine, renderSearchPage, type PageHit } from '../src/page';
import { lineStarts, rowsOfLines, splitRows } from '../src/rows';
import { chooseHitSpan, constructWindow, lineWindow } from '../src/span';
import { countTokens } from '../src/tokens';

function rowsOf(text: string) {
  const buf = Buffer.from(text);
  return splitRows(buf, 0, buf.length, 1);
}

describe('chooseHitSpan', () => {
  const fn = (startLine: number, endLine: number) => ({ startLine, endLine });

  it('takes the smallest enclosing definition of at most SPAN_DEFINITION_MAX_LINES lines', () => {
    const outer = fn(1, 300);
    const method = fn(40, 69);
    const choice = chooseHitSpan(50, [outer, method, fn(100, 120)], 400);
    expect(choice).toEqual({ kind: 'definition', definition: method });
    expect(chooseHitSpan(50, [fn(10, 10 + SPAN_DEFINITION_MAX_LINES - 1)], 400).kind).toBe('definition');
    expect(chooseHitSpan(50, [fn(10, 10 + SPAN_DEFINITION_MAX_LINES)], 400).kind).toBe('window');
  });

  it('falls back to a window of at most SPAN_WINDOW_MAX_LINES lines holding the line', () => {
    for (const [anchor, last] of [
      [150, 300],
      [1, 300],
      [300, 300],
      [3, 5],
    ]) {
      const choice = chooseHitSpan(anchor, [fn(1, 300)], last);
      if (choice.kind !== 'window') throw new Error('expected a window');
      expect(choice.startLine).toBeLessThanOrEqual(anchor);
      expect(choice.endLine).toBeGreaterThanOrEqual(anchor);
      expect(choice.endLine - choice.startLine + 1).toBe(Math.min(SPAN_WINDOW_MAX_LINES, last));
      expect(choice.startLine).toBeGreaterThanOrEqual(1);
      expect(choice.endLine).toBeLessThanOrEqual(last);
    }
    // The window leans after the match: SPAN_WINDOW_LINES_BEFORE lines above it, the rest below.
    expect(lineWindow(150, 300)).toEqual({
      startLine: 150 - SPAN_WINDOW_LINES_BEFORE,
      endLine: 150 - SPAN_WINDOW_LINES_BEFORE + SPAN_WINDOW_MAX_LINES - 1,
    });
    expect(lineWindow(2, 300)).toEqual({ startLine: 1, endLine: SPAN_WINDOW_MAX_LINES });
    expect(lineWindow(299, 300)).toEqual({ startLine: 300 - SPAN_WINDOW_MAX_LINES + 1, endLine: 300 });
  });

  it("starts at the line opening the match's block when it is a few lines further up", () => {
    // function (indent 0) at 100, `if (contentLength > limit) {` (2) at 108, its body (4) from 109.
    const indents = new Map<number, number | undefined>([
      [100, 0],
      [107, undefined],
      [108, 2],
    ]);
    const indentOf = (line: number) => (indents.has(line) ? indents.get(line) : line > 108 ? 4 : 2);
    expect(lineWindow(113, 300, indentOf)).toEqual({ startLine: 108, endLine: 108 + SPAN_WINDOW_MAX_LINES - 1 });
    // Within SPAN_WINDOW_LINES_BEFORE already: unchanged.
    expect(lineWindow(110, 300, indentOf).startLine).toBe(110 - SPAN_WINDOW_LINES_BEFORE);
    // Further up than SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX: unchanged.
    expect(lineWindow(108 + SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX + 1, 300, indentOf).startLine).toBe(
      108 + SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX + 1 - SPAN_WINDOW_LINES_BEFORE,
    );
    // A match at the left margin has no block to open.
    expect(lineWindow(100, 300, indentOf).startLine).toBe(100 - SPAN_WINDOW_LINES_BEFORE);
  });

  describe('constructWindow', () => {
    const textOf = (lines: string[]) => (line: number) =>
      line >= 1 && line <= lines.length ? lines[line - 1] : undefined;

    it("spans a match's construct to its closing line, not the neighbours' lines", () => {
      const file = [
        'const definitions = {',
        "  'editor': new Definition('editor', {",
        '    flatten,',
        '  }),',
        '  // Refuse packages of another engine.',
        "  'engine-strict': new Definition('engine-strict', {",
        '    default: false,',
        '',
        '    type: Boolean,',
        '  }),',
        "  'expect-result-count': new Definition('expect-result-count', {",
        '    default: null,',
        '  }),',
        '}',
      ];
      expect(constructWindow(6, file.length, textOf(file))).toEqual({ startLine: 5, endLine: 10 });
    });

    it('ends a construct closed by indentation at its last line, and starts at the head of its block', () => {
      const file = ['def f(x):', '    if x:', '        for y in x:', '            g(y)', '', '    return x'];
      expect(constructWindow(3, file.length, textOf(file))).toEqual({ startLine: 2, endLine: 4 });
    });

    it('is undefined for a line that opens nothing or a construct longer than a window', () => {
      const flat = ['a = 1', 'b = 2', 'c = 3'];
      expect(constructWindow(2, flat.length, textOf(flat))).toBeUndefined();
      const long = ['x = {', ...Array.from({ length: SPAN_WINDOW_MAX_LINES }, (_, i) => `  k${i}: ${i},`), '}'];
      expect(constructWindow(1, long.length, textOf(long))).toBeUndefined();
      expect(constructWindow(3, 0, textOf([]))).toBeUndefined();
    });
  });
});

describe('pickEvidence', () => {
  const file =
    [
      'function refill(bucket) {',
      '  // refill the bucket',
      '  const tokens = bucket.refill(rate);',
      '  return tokens;',
      '}',
    ].join('\n') + '\n';

  it('picks the line with the most terms, code before comment', () => {
    const ev = pickEvidence(
      rowsOf(file),
      { startLine: 1, endLine: 5 },
      { kind: 'terms', terms: ['refill', 'bucket'] },
    )!;
    expect(ev.best.line).toBe(1);
    expect(ev.lines).toEqual([{ line: 1, text: 'function refill(bucket) {' }]);
    expect(ev.left).toBe(0);
  });

  it('adds context lines around the best line with -C', () => {
    const ev = pickEvidence(rowsOf(file), { startLine: 3, endLine: 3 }, { kind: 'terms', terms: ['tokens'] }, 1)!;
    expect(ev.lines.map((l) => [l.line, l.context === true])).toEqual([
      [2, true],
      [3, false],
      [4, true],
    ]);
  });

  it('keeps the relative indentation of a -C block, a tab as EVIDENCE_TAB_COLUMNS columns', () => {
    const nested = [
      '        for i in 0..BRANCHES {',
      '            let branch;',
      '',
      '            {',
      '\t\t\t\tbranch = i;',
      '            }',
      '        }',
      '',
    ].join('\n');
    const ev = pickEvidence(
      rowsOf(nested),
      { startLine: 1, endLine: 7 },
      { kind: 'lines', anchorLine: 2, matchAt: (t) => t.indexOf('let branch') },
      3,
    )!;
    expect(ev.lines.map((l) => l.text)).toEqual([
      'for i in 0..BRANCHES {',
      '    let branch;',
      '',
      '    {',
      `${' '.repeat(4 * EVIDENCE_TAB_COLUMNS - 8)}branch = i;`,
    ]);
    // Without -C, the line stands alone, trimmed.
    const alone = pickEvidence(
      rowsOf(nested),
      { startLine: 1, endLine: 7 },
      { kind: 'lines', anchorLine: 2, matchAt: (t) => t.indexOf('let branch') },
    )!;
    expect(alone.lines.map((l) => l.text)).toEqual(['let branch;']);
  });

  it('line matching shows every matching line of the file up to EVIDENCE_MATCHES_MAX and counts the rest', () => {
    const many = Array.from({ length: 9 }, (_, i) => `call_site(${i});`).join('\n') + '\n';
    const ev = pickEvidence(
      rowsOf(many),
      { startLine: 4, endLine: 6 },
      { kind: 'lines', anchorLine: 5, matchAt: (t) => t.indexOf('call_site') },
    )!;
    expect(ev.best.line).toBe(5);
    expect(ev.lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
    expect(ev.lines).toHaveLength(EVIDENCE_MATCHES_MAX);
    expect(ev.left).toBe(9 - EVIDENCE_MATCHES_MAX);
    expect(ev.leftLines).toEqual([6, 7, 8, 9]);
    // A larger cap: every line, none left.
    const all = pickEvidence(
      rowsOf(many),
      { startLine: 4, endLine: 6 },
      { kind: 'lines', anchorLine: 5, matchAt: (t) => t.indexOf('call_site') },
      0,
      50,
    )!;
    expect(all.lines).toHaveLength(9);
    expect([all.left, all.cap]).toEqual([0, 50]);
  });

  it('a capped literal shows exact spellings and code first: the config default is not crowded out by docs and a lowercase name', () => {
    const py = [
      'def send_file_max_age_default(self):', // 1: matches only case-insensitively
      '    """Use ``config["SEND_FILE_MAX_AGE_DEFAULT"]`` instead."""', // 2: a docstring
      '    # SEND_FILE_MAX_AGE_DEFAULT is read here', // 3: a comment
      '    return self.config["SEND_FILE_MAX_AGE_DEFAULT"]', // 4
      'x = 1',
      'y = config["SEND_FILE_MAX_AGE_DEFAULT"]', // 6
      'z = config["SEND_FILE_MAX_AGE_DEFAULT"]', // 7
      'w = config["SEND_FILE_MAX_AGE_DEFAULT"]', // 8
      'defaults = { "SEND_FILE_MAX_AGE_DEFAULT": None }', // 9: the answer
      '',
    ].join('\n');
    const needle = 'send_file_max_age_default';
    const match = {
      kind: 'lines' as const,
      anchorLine: 1,
      matchAt: (t: string) => t.toLowerCase().indexOf(needle),
      exact: (t: string) => t.includes('SEND_FILE_MAX_AGE_DEFAULT'),
    };
    const ev = pickEvidence(rowsOf(py), { startLine: 1, endLine: 4 }, match)!;
    // The best line is the first exact code line of the span, not the hit's lowercase line.
    expect(ev.best.line).toBe(4);
    expect(ev.lines.map((l) => l.line)).toEqual([4, 6, 7, 8, 9]);
    expect(ev.left).toBe(3);
    // Without the exactness rule (a re: pattern), code still comes before commentary.
    const re = pickEvidence(rowsOf(py), { startLine: 1, endLine: 4 }, { ...match, exact: undefined })!;
    expect(re.best.line).toBe(1);
    expect(re.lines.map((l) => l.line)).toEqual([1, 4, 6, 7, 8]);
  });

  it('cuts long lines around the match to SNIPPET_MAX_CHARS characters', () => {
    const long = 'x'.repeat(400) + 'needle' + 'y'.repeat(400) + '\n';
    const ev = pickEvidence(
      rowsOf(long),
      { startLine: 1, endLine: 1 },
      { kind: 'lines', anchorLine: 1, matchAt: (t) => t.indexOf('needle') },
    )!;
    expect(ev.best.text).toContain('needle');
    expect([...ev.best.text].length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });
});

describe('a page with evidence lines', () => {
  const SET = 'abc123';
  function hit(i: number): PageHit {
    const lines = Array.from({ length: 5 }, (_, k) => ({
      line: 10 + k,
      text: `match_${i}_${k}(); // a matching line`,
    }));
    return {
      handle: `${SET}:${i + 1}`,
      path: `src/f${i}.ts`,
      uri: `file:///r/src/f${i}.ts`,
      start_line: 10,
      end_line: 14,
      start: 0,
      end: 100,
      sources: ['source:code'],
      snippet: lines[0],
      evidence: { best: lines[0], lines, left: 3, leftLines: [20, 21, 22], cap: EVIDENCE_MATCHES_MAX },
    };
  }
  const input = (n: number) => ({
    query: 're:match',
    setId: SET,
    offset: 0,
    hits: Array.from({ length: n }, (_, i) => hit(i)),
    limit: 20,
    coverage: {},
    coverageLine: 'complete',
    truncated: false,
  });

  it('prints every evidence line, a footer for the matches left, and no byte offsets', () => {
    const page = renderSearchPage(input(2), { format: 'lines', budget: 10_000 });
    const lines = page.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${SET}:1  src/f0.ts:10-14`);
    expect(lines.slice(1, 6)).toEqual([10, 11, 12, 13, 14].map((l, k) => `  ${l}: match_0_${k}(); // a matching line`));
    expect(lines).toContain(
      'matches left: 6 more matching lines in 2 files: src/f0.ts 3, src/f1.ts 3 (show path:PATH reads a file)',
    );
    expect(page.stdout).not.toContain('file://');
    const json = JSON.parse(renderSearchPage(input(2), { format: 'json', budget: 10_000 }).stdout);
    expect(json.hits[0].evidence).toHaveLength(5);
    expect(json.hits[0].matches_left).toBe(3);
    expect(json.hits[0].start).toBe(0);
  });

  it('of one file, the footer lists the line numbers of the matches left', () => {
    const page = renderSearchPage(input(1), { format: 'lines', budget: 10_000 });
    expect(page.stdout).toContain('matches left: 3 more matching lines in src/f0.ts: 20, 21, 22\n');
    // Only the best line shown: the lines the page dropped are listed too, with the budget hint.
    expect(leftLine(input(1).hits, 'best')).toBe(
      'matches left: 7 more matching lines in src/f0.ts: 11, 12, 13, 14, 20, 21, 22 (raise -b for their text)\n',
    );
    // Past MATCHES_LEFT_LINES_NAMED numbers, an ellipsis.
    const many = input(1).hits[0];
    const ev = { ...many.evidence!, left: 12, leftLines: Array.from({ length: 12 }, (_, i) => 30 + i) };
    expect(leftLine([{ ...many, evidence: ev }], 'full')).toBe(
      'matches left: 12 more matching lines in src/f0.ts: 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, …\n',
    );
  });

  it('keeps the budget, dropping further matches before dropping hits', () => {
    for (const format of ['lines', 'json'] as const) {
      for (let budget = 40; budget <= 2000; budget += 40) {
        const page = renderSearchPage(input(20), { format, budget });
        expect(countTokens(page.stdout)).toBeLessThanOrEqual(budget);
      }
    }
    const tight = renderSearchPage(input(20), { format: 'lines', budget: 300 });
    expect(tight.shown).toBeGreaterThan(1);
    expect(tight.stdout).toMatch(/^next: more abc123@\d+ \(\d+ of 20 files; stopped by -b\)$/m);
  });
});

describe('lineMatchRows', () => {
  // Seeded files of code, comments, docstrings, CRLF breaks, a BOM, invalid UTF-8 and
  // control bytes; `foo` matched line by line as a `"literal"` is.
  let seed = 11;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const LINES = [
    'int foo(void) {',
    '  return foo + 1;',
    '}',
    '// foo in a comment',
    ' * foo in a block comment',
    'def bar():',
    '    """docstring naming foo',
    '    still the docstring"""',
    "x = '''foo'''",
    '',
    '\tfoo\x07bell',
    'caf\u00e9 foo',
    'FOO upper',
    'int x = 0;',
    '  return x;',
    '/* plain */',
    '  y++;',
    '#define N 4',
    '    pass',
  ];
  const file = (): Buffer => {
    const parts: Buffer[] = [];
    if (rand(8) === 0) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
    const n = 1 + rand(40);
    for (let i = 0; i < n; i++) {
      const line = LINES[rand(LINES.length)];
      // Most files hold no triple quote: those are read whole.
      if ((line.includes('"""') || line.includes("'''")) && rand(6) !== 0) continue;
      parts.push(Buffer.from(line));
      if (rand(15) === 0) parts.push(Buffer.from([0xff]));
      if (i < n - 1 || rand(2) === 0) parts.push(Buffer.from(rand(5) === 0 ? '\r\n' : '\n'));
    }
    return Buffer.concat(parts);
  };

  it('gives pickEvidence the same evidence as every row does, reading fewer rows', () => {
    let fewer = 0;
    for (let t = 0; t < 3_000; t++) {
      const buf = file();
      const starts = lineStarts(buf);
      const all = splitRows(buf, 0, buf.length, 1);
      const candidateLines = all.filter((r) => r.text.includes('foo')).map((r) => r.line);
      const throughs = new Map(candidateLines.filter(() => rand(4) === 0).map((l) => [l, l + 1 + rand(5)]));
      const match = {
        kind: 'lines' as const,
        anchorLine: 1 + rand(Math.max(1, all.length)),
        matchAt: (text: string) => text.indexOf('foo'),
        ...(rand(2) === 0 ? { matchThrough: (line: number) => throughs.get(line) } : {}),
        candidateLines,
      };
      const context = rand(4);
      const cap = 1 + rand(5);
      const span = { startLine: 1 + rand(5), endLine: 5 + rand(20) };
      const kept = lineMatchRows(buf, starts, match, context);
      if (kept.length < all.length) fewer++;
      expect({ t, evidence: pickEvidence(kept, span, match, context, cap) }).toEqual({
        t,
        evidence: pickEvidence(all, span, match, context, cap),
      });
    }
    expect(fewer).toBeGreaterThan(1_000);
  });

  it('reads every row when the match names no candidate lines, or the file holds a triple quote', () => {
    const match = { kind: 'lines' as const, anchorLine: 2, matchAt: (text: string) => text.indexOf('foo') };
    const plain = Buffer.from('a\nfoo\nb\nc\n');
    expect(lineMatchRows(plain, lineStarts(plain), match, 0)).toEqual(splitRows(plain, 0, plain.length, 1));
    expect(lineMatchRows(plain, lineStarts(plain), { ...match, candidateLines: [2] }, 0).map((r) => r.line)).toEqual([
      2,
    ]);
    for (const text of ['a\nfoo\n"""\nb\n', "a\nfoo\n'''\nb\n"]) {
      const buf = Buffer.from(text);
      expect(lineMatchRows(buf, lineStarts(buf), { ...match, candidateLines: [2] }, 0)).toEqual(
        splitRows(buf, 0, buf.length, 1),
      );
    }
  });
});

describe('rowsOfLines', () => {
  it('gives exactly the rows splitRows gives for those lines', () => {
    const texts = [
      Buffer.from('\ufeffa\r\nb\n\nc'),
      Buffer.from('a\nb\nc\n'),
      Buffer.from('one line'),
      Buffer.from(''),
      Buffer.from('\n\n'),
      Buffer.from([0x78, 0x0d, 0x0a, 0x79, 0x0d, 0x7a, 0x0a, 0xff, 0x0a]),
    ];
    for (const buf of texts) {
      const starts = lineStarts(buf);
      const every = splitRows(buf, 0, buf.length, 1);
      const lines = Array.from({ length: starts.length + 1 }, (_, i) => i + 1);
      for (let mask = 0; mask < 1 << lines.length; mask++) {
        const chosen = lines.filter((_, i) => mask & (1 << i));
        expect({ buf, chosen, rows: rowsOfLines(buf, starts, chosen) }).toEqual({
          buf,
          chosen,
          rows: every.filter((r) => chosen.includes(r.line)),
        });
      }
    }
  });
});
