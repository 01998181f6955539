import { SNIPPET_MAX_CHARS } from '../src/limits';
import { splitRows, type SourceRow } from '../src/rows';
import { cutSnippet, pickSnippet, termMention } from '../src/snippet';

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

  test('a row holding the word as spelled beats rows mentioning it in another case or inside a name', () => {
    // SQLAlchemy's `search Session` (an agent trial) showed `from ...orm import object_session`.
    const rows = rowsOf(
      'from ...orm import object_session\nself.session = session\n# see Session\nfrom ...orm import Session\n',
    );
    expect(pickSnippet(rows, ['session'])?.line).toBe(1);
    expect(pickSnippet(rows, ['session'], { spelled: 'Session' })?.line).toBe(4);
    // A comment spelling it beats code that does not; among rows spelling it, code first.
    expect(
      pickSnippet(rowsOf('self.session = session\n# see Session\n'), ['session'], { spelled: 'Session' })?.line,
    ).toBe(2);
    // Inside a longer identifier is not spelling it; no row spelling it leaves the scores as they were.
    expect(pickSnippet(rowsOf('x = Sessionmaker\nsession = 1\n'), ['session'], { spelled: 'Session' })?.line).toBe(2);
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
    const line =
      'function f0(a){return a+0};' + 'x'.repeat(300) + 'function f12345(a){return a+12345};' + 'y'.repeat(300);
    const text = cutSnippet(line, ['f12345', 'f', '12345']);
    expect(text).toContain('f12345');
    expect(text.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });
});

describe('whole words and prose', () => {
  test('a term as a whole word or identifier part beats the same term inside a longer word', () => {
    // The stat reloader's question: `stat` in "state" and `file` in "filesystem" are not the code's `os.stat`.
    const rows = rowsOf('        initial filesystem state.\n                mtime = os.stat(name).st_mtime\n');
    expect(pickSnippet(rows, ['stat', 'file', 'mtime'])?.line).toBe(2);
  });

  test.each([
    ['os.stat(name)', 'stat', 2],
    ['st_mtime', 'mtime', 2],
    ['refillTokens', 'tokens', 2],
    ['refillTokens', 'refill', 2],
    ['HTTPServer', 'server', 2],
    ['HTTPServer', 'http', 2],
    ['parse_URLPath', 'url', 2],
    ['state', 'stat', 1],
    ['filesystem', 'file', 1],
    ['mtimes', 'mtime', 1],
    ['unrefill', 'refill', 1],
    ['nothing here', 'stat', 0],
  ])('%s mentions %s with weight %d', (text, term, weight) => {
    expect(termMention(text, text.toLowerCase(), term)).toBe(weight);
  });

  test('a line inside a triple-quoted string counts as a comment, the code after it does not', () => {
    const py = [
      'def finalize(self):',
      '    """Finalize the request after a view function.',
      '    This is invoked for error handlers and request dispatching.',
      '    """',
      '    rv = self.dispatch_request()  # request',
      '',
    ].join('\n');
    expect(pickSnippet(rowsOf(py), ['request', 'dispatch', 'error'])?.line).toBe(5);
    // A string opened and closed on one line leaves the next line code.
    const oneLine = 'x = """a"""\ny = dispatch(request)\n// request dispatch error\n';
    expect(pickSnippet(rowsOf(oneLine), ['request', 'dispatch', 'error'])?.line).toBe(2);
  });
});

describe('documents', () => {
  test('in prose a Markdown heading is no comment: it beats a body line with fewer terms', () => {
    const md = rowsOf('# Rate limiting\n\nThe rate is the refill rate.\n');
    expect(pickSnippet(md, ['rate', 'limiting'], { prose: true })?.line).toBe(1);
    // The same lines as code: `#` starts a comment.
    expect(pickSnippet(md, ['rate', 'limiting'])?.line).toBe(3);
  });
});
