// The pure parts: diff parsing, range mapping, the line diff, origin choice, folding.
import {
  chooseOrigin,
  countEdits,
  definitionChanges,
  diffLines,
  foldUnchanged,
  hunksOf,
  lineSimilarity,
  mapRangeBack,
  parseDiff,
  parseLogRecord,
  parsePorcelain,
  runsOf,
  unquotePath,
  type HunkRow,
} from '../src/index';

describe('parseDiff', () => {
  it('reads paths, statuses and hunk counts, skipping bodies by their counts', () => {
    const text = [
      'diff --git "a/we\\tird\\"q.ts" "b/we\\tird\\"q.ts"',
      'index 1..2 100644',
      '--- "a/we\\tird\\"q.ts"',
      '+++ "b/we\\tird\\"q.ts"',
      '@@ -3,2 +3 @@ fn',
      '-old one',
      '-+++ b/not-a-header',
      '++++ b/still-not',
      '@@ -9,0 +9,2 @@',
      '+a',
      '+b',
      'diff --git a/x.ts b/y.ts',
      'similarity index 100%',
      'rename from x.ts',
      'rename to y.ts',
      'diff --git a/n.ts b/n.ts',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/n.ts',
      '@@ -0,0 +1 @@',
      '+x',
      '\\ No newline at end of file',
    ];
    const files = parseDiff(text);
    expect(files).toEqual([
      {
        beforePath: 'we\tird"q.ts',
        afterPath: 'we\tird"q.ts',
        status: 'modified',
        hunks: [
          { a: 3, b: 2, c: 3, d: 1 },
          { a: 9, b: 0, c: 9, d: 2 },
        ],
        binary: false,
      },
      { beforePath: 'x.ts', afterPath: 'y.ts', status: 'renamed', hunks: [], binary: false },
      { afterPath: 'n.ts', status: 'added', hunks: [{ a: 0, b: 0, c: 1, d: 1 }], binary: false },
    ]);
  });

  it('unquotes octal escapes to bytes', () => {
    expect(Buffer.from(unquotePath('"caf\\303\\251.ts"'), 'latin1').toString('utf8')).toBe('café.ts');
    expect(unquotePath('plain name.ts')).toBe('plain name.ts');
  });

  it('reads a log record header and keeps a subject with NUL-free text whole', () => {
    const rec = parseLogRecord(
      `\0${'a'.repeat(40)} ${'b'.repeat(40)} ${'c'.repeat(40)}\x002024-01-02T12:00:00+00:00\0Merge feat: x\n\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n`,
    );
    expect(rec).toMatchObject({
      commit: 'a'.repeat(40),
      parents: ['b'.repeat(40), 'c'.repeat(40)],
      date: '2024-01-02T12:00:00+00:00',
      subject: 'Merge feat: x',
    });
    expect(rec!.files[0].hunks).toEqual([{ a: 1, b: 1, c: 1, d: 1 }]);
    expect(parseLogRecord('not a record')).toBeUndefined();
  });
});

describe('mapRangeBack', () => {
  it('shifts a range past hunks above it and counts nothing', () => {
    expect(mapRangeBack({ start: 10, end: 14 }, [{ a: 2, b: 0, c: 3, d: 3 }])).toEqual({
      before: { start: 7, end: 11 },
      added: 0,
      deleted: 0,
    });
    expect(mapRangeBack({ start: 10, end: 14 }, [{ a: 3, b: 2, c: 2, d: 0 }])).toEqual({
      before: { start: 12, end: 16 },
      added: 0,
      deleted: 0,
    });
  });

  it('counts a replacement inside the range and keeps the old lines in the parent range', () => {
    expect(mapRangeBack({ start: 5, end: 9 }, [{ a: 6, b: 1, c: 6, d: 2 }])).toEqual({
      before: { start: 5, end: 8 },
      added: 2,
      deleted: 1,
    });
  });

  it('counts a deletion strictly inside, not one at the edge', () => {
    expect(mapRangeBack({ start: 5, end: 9 }, [{ a: 7, b: 2, c: 6, d: 0 }])).toEqual({
      before: { start: 5, end: 11 },
      added: 0,
      deleted: 2,
    });
    expect(mapRangeBack({ start: 5, end: 9 }, [{ a: 10, b: 2, c: 9, d: 0 }])).toEqual({
      before: { start: 5, end: 9 },
      added: 0,
      deleted: 0,
    });
  });

  it('says when every line was added', () => {
    expect(mapRangeBack({ start: 2, end: 6 }, [{ a: 0, b: 0, c: 1, d: 9 }])).toEqual({ added: 5, deleted: 0 });
    expect(mapRangeBack({ start: 2, end: 6 }, [{ a: 1, b: 0, c: 2, d: 5 }])).toEqual({ added: 5, deleted: 0 });
  });

  it('brings a replaced edge line into the parent range', () => {
    // New lines 5-6 replaced old line 5 (the signature of the function at 5-9).
    expect(mapRangeBack({ start: 5, end: 10 }, [{ a: 5, b: 1, c: 5, d: 2 }])).toEqual({
      before: { start: 5, end: 9 },
      added: 2,
      deleted: 1,
    });
  });
});

describe('diffLines', () => {
  it('finds the shortest script and its hunks', () => {
    const before = ['a', 'b', 'c', 'd', 'e'];
    const after = ['a', 'x', 'c', 'd', 'e', 'f'];
    const script = diffLines(before, after);
    expect(script.approximate).toBe(false);
    expect(countEdits(script)).toEqual({ added: 2, deleted: 1 });
    expect(hunksOf(script)).toEqual([
      { a: 2, b: 1, c: 2, d: 1 },
      { a: 5, b: 0, c: 6, d: 1 },
    ]);
    // Applying the script gives `after` back.
    const rebuilt = script.ops.filter((op) => op.kind !== 'del').map((op) => after[(op as { after: number }).after]);
    expect(rebuilt).toEqual(after);
  });

  it('handles empty sides and reorders', () => {
    expect(countEdits(diffLines([], ['a', 'b']))).toEqual({ added: 2, deleted: 0 });
    expect(countEdits(diffLines(['a', 'b'], []))).toEqual({ added: 0, deleted: 2 });
    expect(countEdits(diffLines(['a', 'b', 'c'], ['c', 'a', 'b']))).toEqual({ added: 1, deleted: 1 });
  });
});

describe('origin choice', () => {
  const lines = ['function gamma(y) {', '  const z = y * 3;', '  return z + 1;', '}'];
  it('prefers the same name, and takes another name only when very alike', () => {
    const same = {
      path: 'a.ts',
      name: 'gamma',
      range: { start: 5, end: 8 },
      lines: ['function gamma(y) {', '  return 0;', '}'],
    };
    const alike = {
      path: 'c.ts',
      name: 'delta',
      range: { start: 1, end: 4 },
      lines: ['function delta(y) {', '  const z = y * 3;', '  return z + 1;', '}'],
    };
    expect(chooseOrigin('gamma', lines, [alike, same])?.path).toBe('a.ts');
    expect(chooseOrigin('other', lines, [alike, same])?.path).toBe('c.ts');
    expect(chooseOrigin('other', lines, [same])).toBeUndefined();
    expect(lineSimilarity(lines, lines)).toBe(1);
  });
});

describe('folding', () => {
  it('keeps context next to changes and folds the rest', () => {
    const ctx = (line: number): HunkRow => ({ mark: ' ', line, text: `l${line}`, escaped: false });
    const rows: HunkRow[] = [
      ...[1, 2, 3, 4, 5, 6].map(ctx),
      { mark: '+', line: 7, text: 'new', escaped: false },
      ...[8, 9, 10, 11, 12, 13, 14, 15, 16].map(ctx),
      { mark: '-', line: 16, text: 'old', escaped: false },
      ...[17, 18].map(ctx),
    ];
    const out = foldUnchanged(rows, 3);
    expect(out.map((r) => (r.mark === '…' ? `…${r.count}@${r.line}` : `${r.mark}${r.line}`))).toEqual([
      '…3@1',
      ' 4',
      ' 5',
      ' 6',
      '+7',
      ' 8',
      ' 9',
      ' 10',
      '…3@11',
      ' 14',
      ' 15',
      ' 16',
      '-16',
      ' 17',
      ' 18',
    ]);
    expect(foldUnchanged([ctx(1), ctx(2)], 3)).toEqual([{ mark: '…', line: 1, count: 2 }]);
  });
});

describe('blame porcelain', () => {
  it('groups consecutive lines of one commit and origin into runs', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const z = '0'.repeat(40);
    const text = [
      `${a} 1 10 2`,
      'author-time 1704110400',
      'author-tz +0100',
      'summary first',
      'filename x.ts',
      '\tline',
      `${a} 2 11`,
      '\tline',
      `${b} 7 12 1`,
      'author-time 1704196800',
      'author-tz +0000',
      'summary second',
      `previous ${a} x.ts`,
      'filename x.ts',
      '\tline',
      `${a} 9 13 1`,
      '\tline',
      `${z} 14 14 1`,
      'summary Not Committed Yet',
      'filename x.ts',
      '\tline',
      '',
    ].join('\n');
    const parsed = parsePorcelain(text);
    expect(parsed.commits.get(a)).toEqual({ date: '2024-01-01T13:00:00+01:00', subject: 'first', boundary: false });
    expect(parsed.commits.get(b)?.previous).toEqual({ commit: a, path: 'x.ts' });
    expect(runsOf(parsed.lines)).toEqual([
      { lines: { start: 10, end: 11 }, commit: a, orig: { path: 'x.ts', range: { start: 1, end: 2 } } },
      { lines: { start: 12, end: 12 }, commit: b, orig: { path: 'x.ts', range: { start: 7, end: 7 } } },
      { lines: { start: 13, end: 13 }, commit: a, orig: { path: 'x.ts', range: { start: 9, end: 9 } } },
      { lines: { start: 14, end: 14 } },
    ]);
  });
});

describe('definitionChanges', () => {
  const def = (name: string, start: number, lines: string[], kind = 'function') => ({
    name,
    kind,
    range: { start, end: start + lines.length - 1 },
    lines,
  });
  it('pairs by kind and name, marks whitespace-only changes, and leaves out a container whose member changed', () => {
    const before = [
      def('Box', 1, ['class Box {', '  open() { return 1; }', '  shut() { return 0; }', '}'], 'class'),
      def('Box::open', 2, ['  open() { return 1; }'], 'method'),
      def('Box::shut', 3, ['  shut() { return 0; }'], 'method'),
      def('gone', 6, ['function gone() {}']),
      def('spaced', 7, ['function spaced() { return 1; }']),
    ];
    const after = [
      def('Box', 1, ['class Box {', '  open() { return 2; }', '  shut() { return 0; }', '}'], 'class'),
      def('Box::open', 2, ['  open() { return 2; }'], 'method'),
      def('Box::shut', 3, ['  shut() { return 0; }'], 'method'),
      def('spaced', 6, ['function spaced() {  return 1; }']),
      def('fresh', 7, ['function fresh() {}']),
    ];
    const out = definitionChanges(before, after);
    expect(out.map((c) => `${c.status} ${c.name} +${c.added} -${c.deleted}${c.whitespaceOnly ? ' ws' : ''}`)).toEqual([
      'changed Box::open +1 -1',
      'changed spaced +1 -1 ws',
      'removed gone +0 -1',
      'added fresh +1 -0',
    ]);
  });
});
