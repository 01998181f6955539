import { STEM_WORD_MAX_CHARS } from './limits';
import { stemPrefix, wordFormTerms } from './word-forms';

describe('word forms of a query word', () => {
  it('searches the Porter2 stem as a prefix beside the word as typed', () => {
    expect(wordFormTerms('lookups')).toEqual([
      { text: 'lookups', prefix: false },
      { text: 'lookup', prefix: true },
    ]);
    expect(wordFormTerms('nested')).toEqual([
      { text: 'nested', prefix: false },
      { text: 'nest', prefix: true },
    ]);
  });

  it('leaves alone stopwords, short stems, unchanged words, other scripts and overlong words', () => {
    for (const w of ['into', 'uses', 'hash', 'ssssss', 'выселение', 'x1', 's'.repeat(STEM_WORD_MAX_CHARS + 1)])
      expect(stemPrefix(w)).toBeNull();
    expect(wordFormTerms('hash')).toEqual([{ text: 'hash', prefix: false }]);
    // The stem need not begin the word as typed: both are searched.
    expect(wordFormTerms('cache')).toEqual([
      { text: 'cache', prefix: false },
      { text: 'cach', prefix: true },
    ]);
  });
});
