// fitError: every error fits its budget, keeps its code, and never prints unbounded text.
import { ERROR_MESSAGE_MAX_CHARS, fitError, internalErrorOf } from '../src';
import { countTokens } from '../src/tokens';

const SHORT = { code: 'bad_arguments', message: 'search needs a query, e.g. trufflepig search refill tokens' };
const HUGE = {
  code: 'bad_regex',
  message: `re:(${'a'.repeat(100_000)} is not a valid regular expression (Unterminated group); escape special characters with \\`,
};
const WIDE = { code: 'no_indexed_path', message: `no indexed file is ${'😀'.repeat(300)}/x or lies under it` };

describe('fitError', () => {
  it('a budget of 0 prints nothing on stdout and the whole coded line on stderr', () => {
    const out = fitError(SHORT, 0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`trufflepig: bad_arguments: ${SHORT.message}\n`);
  });

  it('prints the whole error when it fits', () => {
    const out = fitError(SHORT, 600);
    expect(JSON.parse(out.stdout)).toEqual({ error: SHORT });
    expect(out.stdout.endsWith('}\n')).toBe(true);
    expect(fitError(SHORT, countTokens(out.stdout)).stdout).toBe(out.stdout);
  });

  it('stays within every budget, keeps the code, and cuts only the message (with …)', () => {
    for (const err of [SHORT, HUGE, WIDE]) {
      let firstFit: number | undefined;
      for (let budget = 0; budget <= 120; budget++) {
        const out = fitError(err, budget);
        expect({ budget, n: countTokens(out.stdout), within: countTokens(out.stdout) <= budget }).toMatchObject({
          within: true,
        });
        if (out.stdout === '') {
          expect(firstFit).toBeUndefined(); // once something fits, every larger budget fits too
          continue;
        }
        firstFit ??= budget;
        const shown = JSON.parse(out.stdout).error;
        expect(shown.code).toBe(err.code);
        if (shown.message !== err.message) {
          expect(shown.message.endsWith('…')).toBe(true);
          expect(err.message.startsWith(shown.message.slice(0, -1))).toBe(true);
        }
        expect(out.stdout.split('\n')).toHaveLength(2);
      }
      // the smallest error (code and a cut message) needs only a handful of tokens
      expect(firstFit).toBeLessThanOrEqual(20);
    }
  });

  it('a truncated message uses the budget: more budget, more message', () => {
    const small = JSON.parse(fitError(HUGE, 30).stdout).error.message as string;
    const larger = JSON.parse(fitError(HUGE, 60).stdout).error.message as string;
    expect(larger.length).toBeGreaterThan(small.length);
  });

  it('never cuts a character in half', () => {
    for (let budget = 10; budget <= 60; budget++) {
      const message = JSON.parse(fitError(WIDE, budget).stdout || '{"error":{"message":""}}').error.message as string;
      expect(message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });

  it('bounds the message on stderr and on stdout, whatever the budget', () => {
    const out = fitError(HUGE, 1_000_000);
    expect(out.stderr.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX_CHARS + 100);
    expect(out.stderr).toMatch(/^trufflepig: bad_regex: re:\(a+…\n$/);
    expect(JSON.parse(out.stdout).error.message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX_CHARS);
  });

  it('escapes control and bidi characters on stderr, keeps one line', () => {
    const out = fitError({ code: 'bad_query', message: 'x\u202ey\n\x1b[31mz' }, 600);
    expect(out.stderr).toBe('trufflepig: bad_query: x\\u{202E}y\\x0A\\x1B[31mz\n');
    expect(out.stdout).not.toMatch(/[\u202e\x1b]/);
    expect(JSON.parse(out.stdout).error.message).toBe('x\u202ey\n\x1b[31mz');
  });
});

describe('internalErrorOf', () => {
  it('keeps the first line of the message, bounded, never the stack', () => {
    const err = new Error(`LIKE or GLOB pattern too complex\nsecond line ${'b'.repeat(5000)}`);
    const coded = internalErrorOf(err);
    expect(coded.code).toBe('internal_error');
    expect(coded.message).toMatch(/^LIKE or GLOB pattern too complex/);
    expect(coded.message).not.toContain('second line');
    expect(coded.message).not.toMatch(/\n|\s+at /);
    const long = internalErrorOf(new Error('c'.repeat(100_000)));
    expect(long.message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX_CHARS);
    expect(internalErrorOf('thrown text').message).toMatch(/^thrown text/);
    expect(internalErrorOf(undefined).code).toBe('internal_error');
  });
});
