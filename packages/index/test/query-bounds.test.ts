// Query input is bounded before it reaches SQL or a parser: an over-long word or filter
// value, or too many terms, answers bad_query with a bounded message.
import {
  parseQuery,
  QUERY_MAX_TERMS,
  QUERY_MAX_WORDS,
  QUERY_WORD_MAX_CHARS,
  QUOTED_INPUT_MAX_CHARS,
  quoteInput,
} from '../src';
import { Fixture } from './helpers';

function error(q: string | readonly string[]): { code: string; message: string } {
  const out = parseQuery(q);
  if (out.ok) throw new Error(`parsed: ${JSON.stringify(q).slice(0, 80)}`);
  return out.error;
}

const LONG = 'a'.repeat(50_000);

describe('query bounds', () => {
  it('a word or filter value over QUERY_WORD_MAX_CHARS is bad_query, quoted only in part', () => {
    const cases = [
      ['kind:method', LONG],
      [LONG],
      ['sym:' + LONG],
      ['x', 'file:' + LONG],
      ['x', '-file:' + LONG],
      ['x', 'lang:' + LONG],
      ['x', 'kind:' + LONG],
      ['x', 'source:' + LONG],
      ['x', '-source:' + LONG],
      ['x', 'in:' + LONG],
      ['ws:' + LONG],
      [`"${LONG} b"`],
    ];
    for (const words of cases) {
      const err = error(words);
      expect({ words: words.map((w) => w.slice(0, 12)), code: err.code }).toEqual({
        words: words.map((w) => w.slice(0, 12)),
        code: 'bad_query',
      });
      expect(err.message.length).toBeLessThan(QUOTED_INPUT_MAX_CHARS + 200);
      expect(err.message).toContain(String(QUERY_WORD_MAX_CHARS));
    }
  });

  it('a word of exactly QUERY_WORD_MAX_CHARS is fine', () => {
    expect(parseQuery(['kind:method', 'b'.repeat(QUERY_WORD_MAX_CHARS)]).ok).toBe(true);
    expect(parseQuery(['x', `file:${'c'.repeat(QUERY_WORD_MAX_CHARS)}`]).ok).toBe(true);
  });

  it('more than QUERY_MAX_TERMS words and filters is bad_query', () => {
    const words = Array.from({ length: QUERY_MAX_TERMS + 1 }, (_, i) => `w${i}`);
    expect(error(words).code).toBe('bad_query');
    expect(error(words).message).toContain(String(QUERY_MAX_TERMS));
    expect(parseQuery(words.slice(0, QUERY_MAX_TERMS)).ok).toBe(true);
    expect(error(['x', ...Array.from({ length: QUERY_MAX_TERMS }, (_, i) => `file:d${i}/`)]).code).toBe('bad_query');
  });

  it('error messages never echo unbounded input (unknown kind, language, selector)', () => {
    const long = 'z'.repeat(500);
    for (const q of [`x kind:${long}`, `x lang:${long}`, `ws:${long}`]) {
      const err = error(q);
      expect(err.message.length).toBeLessThan(QUOTED_INPUT_MAX_CHARS + 300);
    }
  });

  it('quoteInput keeps a bounded prefix and names the length', () => {
    expect(quoteInput('short')).toBe('short');
    expect(quoteInput(LONG)).toBe(`${'a'.repeat(QUOTED_INPUT_MAX_CHARS)}…(50000 characters)`);
    expect(quoteInput('😀'.repeat(100))).not.toMatch(/[\ud800-\udbff]…/);
  });

  it('the largest queries the bounds accept run without an exception from SQL', async () => {
    const fx = new Fixture('bounds', { 'a.ts': 'class A {\n  method() {}\n}\n' });
    await fx.index();
    // distinct camelCase words: every one splits into `parts` search words
    const letters = (n: number, width: number) =>
      Array.from({ length: width }, (_, k) => String.fromCharCode(97 + (Math.floor(n / 26 ** k) % 26))).join('');
    const camel = (i: number, parts: number, width = 6) =>
      Array.from({ length: parts }, (_, j) => `Q${letters(i * 1000 + j, width - 1)}`).join('');
    const queries = [
      `kind:method ${'b'.repeat(QUERY_WORD_MAX_CHARS)}`,
      `kind:method ${camel(0, QUERY_WORD_MAX_CHARS / 8, 8)}`,
      Array.from({ length: QUERY_MAX_TERMS }, (_, i) => camel(i, QUERY_MAX_WORDS / QUERY_MAX_TERMS)).join(' '),
      `kind:method ${Array.from({ length: QUERY_MAX_TERMS - 1 }, (_, i) => camel(i, QUERY_MAX_WORDS / QUERY_MAX_TERMS)).join(' ')}`,
      `"${Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')}"`,
    ];
    const most = parseQuery(queries[2]);
    expect(most.ok && most.value.words).toHaveLength(QUERY_MAX_WORDS);
    expect(error(`${queries[2]}Qzzzzz`).code).toBe('bad_query');
    for (const q of queries) {
      expect({ q: q.slice(0, 40), ok: parseQuery(q).ok }).toEqual({ q: q.slice(0, 40), ok: true });
      await expect(fx.search(q)).resolves.toBeDefined();
    }
  });
});
