import { requiredTerms } from '../src/query/regex-terms';

/** FTS unicode61 tokens of a text: alphanumeric runs, lowercased. */
function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A term holds for a text when some token equals it (or starts with it, for `tok*`). */
function holds(term: string, text: string): boolean {
  const t = tokens(text);
  return term.endsWith('*') ? t.some((x) => x.startsWith(term.slice(0, -1))) : t.includes(term);
}

describe('requiredTerms', () => {
  it.each([
    ['fn\\s+spawn_\\w+', ['spawn']],
    ['impl<T>\\s+Drop\\s+for', ['drop', 'for*']],
    ['^pub\\s+async\\s+fn', ['pub', 'async', 'fn*']],
    ['\\bJoinHandle\\b', ['joinhandle']],
    ['(ab)+cd ef', ['ef*']],
  ])('%s needs %j', (pattern, want) => expect(requiredTerms(pattern)).toEqual(want));

  it.each(['foo|bar', 'JoinHandle', 'colou?r', 'a.b', '(?<=x)yz', '(a)\\1'])('%s has no safe terms', (pattern) => {
    expect(requiredTerms(pattern)).toBeUndefined();
  });

  // Every line a pattern matches must satisfy every term: the prefilter never drops a match.
  const lines = [
    'pub fn spawn_blocking<F>(f: F) -> JoinHandle<R>',
    'impl<T> Drop for Receiver<T> {',
    'pub async fn accept(&self) -> io::Result<()>',
    '    pub(crate) async fn run() {}',
    'let colour = color_of(x); // JoinHandles',
    'unsafe impl Send for Inner {}',
    'fn ab_cd(x: u32) -> u32 { x }',
    'struct FooBuilder { inner: Vec<u8> }',
  ];
  const patterns = [
    'fn\\s+spawn_\\w+',
    'impl<T>\\s+Drop\\s+for',
    '^pub\\s+async\\s+fn',
    'async\\s+fn\\s+\\w+\\(',
    'colou?r',
    'unsafe\\s+impl\\s+Send\\s+for',
    '\\bu32\\b',
    'fn\\s+ab_cd',
    'struct\\s+\\w+Builder',
    'Receiver<T>',
    '\\(&self\\)',
    'pub\\(crate\\)\\s+async',
  ];
  it.each(patterns)('never excludes a line that %s matches', (pattern) => {
    const re = new RegExp(pattern, 'm');
    const terms = requiredTerms(pattern) ?? [];
    for (const line of lines)
      if (re.test(line))
        for (const term of terms) expect([pattern, line, term, holds(term, line)]).toEqual([pattern, line, term, true]);
  });
});
