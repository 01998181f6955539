'use strict';
// Synthetic checks of the format-agnostic readers, run before every replay: if one of them
// fails, the replay's "found" and its handle following would be wrong for every question.
const assert = require('assert');
const { printedSpans } = require('./printed');
const { parseHandles, parseMatches, parseEvidence, expand } = require('./strategies');
const { sourceLines } = require('./framing');

function selftest() {
  const span = { path: 'pkg/mod.py', lines: [212, 213], text: ['def url_for(', '    endpoint: str,'] };
  const named = { path: 'pkg/mod.py', lines: [98, 98], name: 'exec', text: ['  async exec (args) {'] };
  const printed = (spans, argv, out) => printedSpans(spans, argv, out).map((p) => p.index);
  // rg, sed, Trufflepig lines rows, JSON rows, refs rows.
  assert.deepStrictEqual(
    printed([span], ['rg'], './pkg/mod.py:212:def url_for(\n./pkg/mod.py-213-    endpoint: str,'),
    [0],
  );
  assert.deepStrictEqual(
    printed([span], ['sed', '-n', '1,9p', 'pkg/mod.py'], 'def url_for(\n    endpoint: str,\n'),
    [0],
  );
  assert.deepStrictEqual(
    printed([span], ['show'], 'ab12cd:1\tpkg/mod.py:212-263\n212: def url_for(\n213:     endpoint: str,'),
    [0],
  );
  assert.deepStrictEqual(
    printed(
      [span],
      ['show'],
      JSON.stringify({
        path: 'pkg/mod.py',
        rows: [
          { line: 212, text: 'def url_for(' },
          { line: 213, text: '    endpoint: str,' },
        ],
      }),
    ),
    [0],
  );
  assert.deepStrictEqual(
    printed([{ ...span, lines: [831, 831], text: ['x = f()'] }], ['refs'], 'pkg/mod.py\n1 831 call in A::b: x = f()'),
    [0],
  );
  // Wrong line number, other path, half the span, a longer line ending the same: not printed.
  assert.deepStrictEqual(
    printed([{ ...span, lines: [831, 831], text: ['x = f()'] }], ['refs'], 'pkg/mod.py\n1 832 call in A::b: x = f()'),
    [],
  );
  assert.deepStrictEqual(printed([span], ['rg'], './other.py:212:def url_for(\n./other.py-213-    endpoint: str,'), []);
  assert.deepStrictEqual(printed([span], ['rg'], './pkg/mod.py:212:def url_for('), []);
  assert.deepStrictEqual(printed([span], ['show'], 'pkg/mod.py\n212: xdef url_for(\n213:     endpoint: str,'), []);
  // A definition row: line and name in one row, lines or JSON; not another line or name.
  assert.deepStrictEqual(printed([named], ['map'], 'ab12cd:3  pkg/mod.py:98-173  Install::exec'), [0]);
  assert.deepStrictEqual(
    printed(
      [named],
      ['map'],
      JSON.stringify({ hits: [{ path: 'pkg/mod.py', start_line: 98, name: 'Install::exec' }] }),
    ),
    [0],
  );
  assert.deepStrictEqual(printed([named], ['map'], 'ab12cd:3  pkg/mod.py:99-173  Install::exec'), []);
  assert.deepStrictEqual(printed([named], ['map'], 'ab12cd:3  pkg/mod.py:98-173  Install::execute'), []);
  // Percent-encoded path: printed, flagged.
  const enc = { path: 'node_modules/@s/x.js', lines: [3, 3], text: ['class X {'] };
  assert.deepStrictEqual(printedSpans([enc], ['show'], 'node_modules/%40s/x.js:3-9\n3: class X {'), [
    { index: 0, encoded: true },
  ]);
  // Handles: today's 32-hex and short ids, lines and JSON, rows and `also:` lines, no cursors.
  const hex = '0123456789abcdef0123456789abcdef';
  assert.deepStrictEqual(
    parseHandles(`${hex}:1\tpkg/a.py:1-2\tA\n  1: class A\n${hex}:2\tpkg/b.py:3-4`).map((h) => h.handle),
    [`${hex}:1`, `${hex}:2`],
  );
  assert.deepStrictEqual(
    parseHandles('k3x9qa:1\tpkg/a.rs:1-2\nalso: k3x9qa:2 pkg/b.rs:3-4 fn b\nnext: more k3x9qa@2').map((h) => h.handle),
    ['k3x9qa:1', 'k3x9qa:2'],
  );
  assert.deepStrictEqual(
    parseHandles(JSON.stringify({ hits: [{ handle: 'k3x9qa:1' }, { handle: 'k3x9qa:2', name: 'B' }] })).map(
      (h) => h.handle,
    ),
    ['k3x9qa:1', 'k3x9qa:2'],
  );
  assert.deepStrictEqual(parseHandles('lib/Makefile:12 and helpers.py:47'), []);
  assert.deepStrictEqual(
    expand(['show', '{handle~B}'], {
      handles: parseHandles(JSON.stringify({ hits: [{ handle: 'k3x9qa:1' }, { handle: 'k3x9qa:2', name: 'B' }] })),
    }),
    ['show', 'k3x9qa:2'],
  );
  // grep placeholders: top match, selection by path then text, arithmetic clamped at 1.
  const m = parseMatches('./a/x.js:3:foo\n./lib/y.js:40:bar lib');
  assert.deepStrictEqual(expand(['sed', '-n', '{line-5},{line+20}p', '{path}'], { matches: m }), [
    'sed',
    '-n',
    '1,23p',
    'a/x.js',
  ]);
  assert.deepStrictEqual(expand(['{path~lib}', '{line~bar}'], { matches: m }), ['lib/y.js', '40']);
  assert.strictEqual(expand(['{handle}'], {}), null);
  // Trufflepig evidence lines: the hit's path, each `  N: text` row (lines or JSON), not the footer.
  const page =
    'k3x9qa:1  src/a.rs:10-30  A::b\n  12: let x = size();\n  20: if size() > limit {\nk3x9qa:2  src/b.rs:1-5\n  3: limit\n' +
    'k3x9qa:3  src/c.rs:7  C\n  7: const C: u32 = 1;\ncoverage: complete; 2 files\n';
  const ev = parseEvidence(page);
  assert.deepStrictEqual(
    ev.map((e) => `${e.path}:${e.line}`),
    ['src/a.rs:12', 'src/a.rs:20', 'src/b.rs:3', 'src/c.rs:7'],
  );
  assert.deepStrictEqual(expand(['path:{path~> limit}:{line-5~> limit}-{line+10~> limit}'], { matches: ev }), [
    'path:src/a.rs:15-30',
  ]);
  assert.deepStrictEqual(
    parseEvidence(JSON.stringify({ hits: [{ path: 'src/a.rs', evidence: [{ line: 12, text: 'x' }] }] })),
    [{ path: 'src/a.rs', line: 12, text: 'x' }],
  );
  // The source text of a page, without its framing, for both strategies and every verb shape.
  assert.deepStrictEqual(sourceLines('trufflepig', page), [
    'let x = size();',
    'if size() > limit {',
    'limit',
    'const C: u32 = 1;',
  ]);
  assert.deepStrictEqual(sourceLines('trufflepig', 'k3x9qa:1  src/a.rs:10-11\n10\tfn a() {\n11\t    }\n'), [
    'fn a() {',
    '}',
  ]);
  assert.deepStrictEqual(
    sourceLines(
      'trufflepig',
      'refs f → src/a.rs:3  (show q1w2e3:N reads row N)\nsrc/b.rs\n1 9 call resolved in B::g: f(x)\ncoverage: 1 sites in 1 files\n',
    ),
    ['f(x)'],
  );
  assert.deepStrictEqual(
    sourceLines('trufflepig', 'map src/a.rs  (show q1w2e3:N reads row N)\n1 3-9 fn a\ncoverage: 1 items\n'),
    ['fn a'],
  );
  assert.deepStrictEqual(
    sourceLines('grep', 'src/a.rs:12:    let x = size();\nsrc/a.rs-13-  }\n20:fn b() {\n    plain\n'),
    ['let x = size();', '}', 'fn b() {', 'plain'],
  );
}

module.exports = { selftest };

if (require.main === module) {
  selftest();
  console.log('agent-replay selftest: ok');
}
