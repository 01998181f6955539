// `re:` of a pattern that cannot span lines tries only the lines holding its required
// strings, each alone, and past REGEX_LINE_TRIES_MAX such lines matches the rest of the file
// at once (live.ts firstMatchingLine). One that spans lines only through whitespace and starts
// with its leading string is tried only where that string occurs, past
// REGEX_ANCHORED_TRIES_MAX attempts at once (firstAnchoredMatch). Whatever path a file takes,
// its hit must be the line of the leftmost match over the whole text: checked here against
// that reference, per file.
import { Fixture } from './helpers';
import { prepareRegex, regexScan } from '../src/query/live';
import { compileRegex } from '../src/query/regex-engine';
import { decodeText, lineAt, lineStartOffsets } from '../src/extract/text';
import { REGEX_ANCHORED_TRIES_MAX, REGEX_LINE_TRIES_MAX } from '../src/limits';

function nomem(n: number): string {
  return Array.from({ length: n }, (_, i) => `\tif (!ptr${i}) {\n\t\tgoto out;\n\t}\n`).join('');
}
const miss = (n: number) => Array.from({ length: n }, (_, i) => `\tspin_lock(&other${i});\n`).join('');
const FILES: Record<string, string | Buffer> = {
  'sparse.c': `int a;\n${miss(5)}\tspin_lock(&dev->lock);\n${miss(3)}`,
  'dense.c': `${miss(REGEX_LINE_TRIES_MAX * 2 + 3)}\tspin_lock(&q->lock);\n\tspin_lock(&r->lock);\n`,
  'none.c': miss(REGEX_LINE_TRIES_MAX + 4),
  // The match is the first candidate line past the ones tried alone.
  'edge.c': `${miss(REGEX_LINE_TRIES_MAX)}\tspin_lock(&e->lock);\n`,
  'crlf.c': 'int x;\r\n\tspin_lock(&a);\r\nstatic int probe(void)\r\n\tspin_lock(&b->lock);\r\n',
  'latin1.c': Buffer.concat([Buffer.from('/* caf'), Buffer.from([0xe9]), Buffer.from(' */\n\tspin_lock(&c->lock);\n')]),
  'first.c': 'int first;\nint second;\nstatic int probe(void)\n',
  'second.c': '// int\nint later;\n',
  // A match across lines after failed attempts; the first attempt past those tried one by one
  // (the whole-text match goes on from it); none at all; a text not one byte per character.
  'enomem.c': `${nomem(5)}\tif (!buf)\n\t\treturn -ENOMEM;\n${nomem(2)}`,
  'enomem-dense.c': `${nomem(REGEX_ANCHORED_TRIES_MAX)}\tif (!q) return -ENOMEM;\n\tif (!r)\n\n\t\treturn -ENOMEM;\n`,
  'enomem-none.c': `${nomem(9)}\treturn -ENOMEM;\n`,
  'enomem-utf8.c': `/* caf\u00e9 */\n${nomem(3)}\tif (!p) /* x */ return -ENOMEM;\n\tif (!s)   \n return -ENOMEM;\n`,
  // `foo` inside a word first: a pattern asserting a word boundary before it must not hit there.
  'boundary.c': 'int xfoo\n  bar;\nint y;\nint foo\n  bar;\n',
};

const PATTERNS = [
  'spin_lock\\(&\\w+->lock\\)',
  '^static int \\w+\\(void\\)$',
  '\\Aint',
  'int \\w+;$',
  'if \\(!\\w+\\)\\s*return -ENOMEM;',
  'static\\s+int\\s+\\w+\\(void\\)',
  // Nothing consumed before the leading string, but an assertion looks before it.
  'a{0}\\bfoo\\s+bar',
  'foo(?:\\s|.)*bar;',
];

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('regex-lines', FILES);
  await fx.index();
});

/** The line of the leftmost match over the whole text, as a scan of the whole file finds it. */
function referenceLine(bytes: Buffer, pattern: string): number | undefined {
  const c = compileRegex(pattern);
  if (!c.ok) throw new Error(c.message);
  const decoded = decodeText(bytes);
  const m = c.matcher.firstMatch(decoded.text);
  return m.found ? lineAt(lineStartOffsets(bytes), decoded.byteAt(m.at)) : undefined;
}

test.each(PATTERNS)('re:%s hits each file on the line of its leftmost match', async (pattern) => {
  const reader = await fx.open();
  try {
    const scan = regexScan(reader.root, reader.files(), pattern);
    const got = Object.fromEntries(scan.hits.map((h) => [h.path, h.startLine]));
    const expected: Record<string, number> = {};
    for (const [p, content] of Object.entries(FILES)) {
      const line = referenceLine(Buffer.from(content), pattern);
      if (line !== undefined) expected[p] = line;
    }
    expect(got).toEqual(expected);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
  } finally {
    reader.close();
  }
});

test('patterns that span lines only through whitespace and start with their leading string are tried at its occurrences', () => {
  expect(prepareRegex('if \\(!\\w+\\)\\s*return -ENOMEM;').anchor?.toString()).toBe('if (!');
  expect(prepareRegex('static\\s+int\\s+\\w+\\(void\\)').anchor?.toString()).toBe('static');
  // An assertion before the leading string, a class, a construct that crosses lines by itself, a line-local pattern.
  expect(prepareRegex('foo(?:\\s+)bar').anchor?.toString()).toBe('foo');
  // An assertion before the leading string, a class, a construct that crosses lines by itself, a line-local pattern.
  for (const p of ['\\bif\\s*\\(\\w+\\)', '^if \\(\\s*x', 'if [(]\\s*x', 'if \\(\\W*x', 'spin_lock\\(&\\w+->lock\\)'])
    expect([p, prepareRegex(p).anchor]).toEqual([p, undefined]);
  // A first character that is optional or repeated zero times, with an assertion behind it;
  // a repeated group holding \s, which lets an attempt run on through anything.
  for (const p of [
    'a{0}\\bfoo\\s+bar',
    'a{0,2}\\bfoo\\s+bar',
    'a?\\bfoo\\s+bar',
    'a*^foo\\s+bar',
    'foo(?:\\s|.)*bar',
    'foo(?:\\s+x){2}bar',
  ])
    expect([p, prepareRegex(p).anchor]).toEqual([p, undefined]);
});

test('the reference lines are the ones a reader would point at', () => {
  expect(referenceLine(Buffer.from(FILES['enomem.c'] as string), PATTERNS[4])).toBe(16);
  expect(referenceLine(Buffer.from(FILES['enomem-dense.c'] as string), PATTERNS[4])).toBe(
    3 * REGEX_ANCHORED_TRIES_MAX + 1,
  );
  expect(referenceLine(Buffer.from(FILES['enomem-none.c'] as string), PATTERNS[4])).toBeUndefined();
  expect(referenceLine(Buffer.from(FILES['sparse.c'] as string), PATTERNS[0])).toBe(7);
  expect(referenceLine(Buffer.from(FILES['dense.c'] as string), PATTERNS[0])).toBe(REGEX_LINE_TRIES_MAX * 2 + 4);
  expect(referenceLine(Buffer.from(FILES['crlf.c'] as string), PATTERNS[0])).toBe(4);
  expect(referenceLine(Buffer.from(FILES['second.c'] as string), '\\Aint')).toBeUndefined();
  expect(referenceLine(Buffer.from(FILES['first.c'] as string), '\\Aint')).toBe(1);
  expect(referenceLine(Buffer.from(FILES['boundary.c'] as string), PATTERNS[6])).toBe(4);
  expect(referenceLine(Buffer.from(FILES['boundary.c'] as string), PATTERNS[7])).toBe(1);
});
