import { SNIPPET_MAX_CHARS } from '../src/limits';
import { splitRows, type SourceRow } from '../src/rows';
import { cutSnippet, pickSnippet } from '../src/snippet';

const rowsOf = (text: string, firstLine = 1): SourceRow[] => {
  const buf = Buffer.from(text, 'utf8');
  return splitRows(buf, 0, buf.length, firstLine);
};
const chars = (s: string): number => Array.from(s).length;

describe('pickSnippet', () => {
  test('the line mentioning the most distinct terms wins, case-insensitively', () => {
    const rows = rowsOf('fn refill() {\n  let tokens = bucket.refill_tokens(RATE);\n  tokens\n}\n', 10);
    expect(pickSnippet(rows, ['refill', 'tokens', 'rate'])).toEqual({
      line: 11,
      text: 'let tokens = bucket.refill_tokens(RATE);',
    });
  });

  test('no mentioned term gives undefined', () => {
    expect(pickSnippet(rowsOf('a\nb\n'), ['zzz'])).toBeUndefined();
    expect(pickSnippet(rowsOf('a\nb\n'), [])).toBeUndefined();
  });

  test('a code line beats a comment line with one more term, not with two more', () => {
    const oneMore = rowsOf('// refill the tokens\nlet x = refill();\n');
    expect(pickSnippet(oneMore, ['refill', 'tokens'])?.line).toBe(2);
    const twoMore = rowsOf('# refill the tokens bucket\nlet x = refill();\n');
    expect(pickSnippet(twoMore, ['refill', 'tokens', 'bucket'])?.line).toBe(1);
    for (const prefix of ['//', '/*', '*', '#', '--', '<!--', ';']) {
      const rows = rowsOf(`  ${prefix} refill tokens\nrefill()\n`);
      expect([prefix, pickSnippet(rows, ['refill', 'tokens'])?.line]).toEqual([prefix, 2]);
    }
  });

  test('ties go to the earliest line', () => {
    expect(pickSnippet(rowsOf('x\nrefill a\nrefill b\n'), ['refill'])?.line).toBe(2);
  });

  test('long lines are cut to a window with the first match, … counted', () => {
    const long = 'const value = ' + 'a'.repeat(200) + ' + refillTokens(x) + ' + 'b'.repeat(200) + ';';
    const snippet = pickSnippet(rowsOf(long), ['refilltokens']);
    expect(snippet).toBeDefined();
    const text = snippet?.text ?? '';
    expect(chars(text)).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text).toContain('refillTokens(x)');

    const early = 'refill ' + 'x'.repeat(300);
    const head = pickSnippet(rowsOf(early), ['refill'])?.text ?? '';
    expect(chars(head)).toBe(SNIPPET_MAX_CHARS);
    expect(head.startsWith('refill x')).toBe(true);
    expect(head.endsWith('…')).toBe(true);

    const late = 'y'.repeat(300) + ' refill';
    const tail = pickSnippet(rowsOf(late), ['refill'])?.text ?? '';
    expect(chars(tail)).toBe(SNIPPET_MAX_CHARS);
    expect(tail.startsWith('…')).toBe(true);
    expect(tail.endsWith(' refill')).toBe(true);
  });

  test('text is trimmed, escaped, and escapes are never split', () => {
    const rows = rowsOf('\t  say("\u001b[2J") refill  \n');
    expect(pickSnippet(rows, ['refill'])?.text).toBe('say("\\x1B[2J") refill');
    const many = '\u0007'.repeat(100) + ' refill ' + '\u0007'.repeat(100);
    const text = pickSnippet(rowsOf(many), ['refill'])?.text ?? '';
    expect(chars(text)).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(text.replace(/…/g, '')).toMatch(/^(\\x07)* refill (\\x07)*$/);
  });
});

describe('window anchor', () => {
  it('anchors a long line on the first listed term it contains, not on an earlier shorter one', () => {
    const line = 'function f0(a){return a+0};' + 'x'.repeat(300) + 'function f12345(a){return a+12345};' + 'y'.repeat(300);
    const text = cutSnippet(line, ['f12345', 'f', '12345']);
    expect(text).toContain('f12345');
    expect(text.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });
});
