// The library ships no types: one function from a lowercase word to its Porter2 stem.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
