// A focused extraction (extractOccurrences with a name: treesitter.ts treeSitterFacts'
// `focus`) reads only around the places the name is spelled; its sites must be exactly
// the whole extraction's sites of that name, on every language's fixtures and on texts
// whose characters before the name are not ASCII (its query range is in the binding's
// UTF-16 bytes, two per unit of the text; a range that misses a spelling loses its role).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesUnder } from './helpers';
import { languageOf } from '../src/classify';
import { extractOccurrences } from '../src/extract/extract';
import type { Language } from '../src/classify';

/** Every name the whole extraction finds, each checked focused; the number of names checked. */
function expectFocusedSame(lang: Language, bytes: Uint8Array): number {
  const whole = extractOccurrences(lang, bytes);
  const names = [...new Set(whole.map((o) => o.name))];
  for (const name of names) {
    const focused = extractOccurrences(lang, bytes, name);
    expect({ name, sites: focused }).toEqual({ name, sites: whole.filter((o) => o.name === name) });
  }
  return names.length;
}

const FIXTURES = path.join(__dirname, '..', 'fixtures');

describe('focused occurrences', () => {
  it('equal the whole extraction of the name for every name of every fixture file', () => {
    const languages = new Set<string>();
    let names = 0;
    for (const file of filesUnder(FIXTURES)) {
      const lang = languageOf(file);
      if (lang === 'text' || lang === 'dreammaker') continue;
      names += expectFocusedSame(lang, fs.readFileSync(file));
      languages.add(lang);
    }
    expect([...languages].sort()).toEqual(['c', 'cpp', 'csharp', 'go', 'java', 'luau', 'php', 'python', 'ruby']);
    expect(names).toBeGreaterThan(300);
  });

  it.each<[Language, string]>([
    [
      'c',
      '/* é€ — ünïcode */\nstatic int helper(int v) { return v; }\n/* ✓ */ int f(int a) { int v = helper(a); return helper(v) + g(a); }\n#define M(x) helper(x)\n',
    ],
    [
      'typescript',
      '// 日本語のコメント\nexport function parse(s: string) { return s; }\nconst r = parse("ü"); class P { parse() { return parse("€"); } }\n',
    ],
    [
      'python',
      '# ¿qué?\ndef load(x):\n    return x\n\nclass L:\n    def load(self):\n        return load(1)  # «load»\n',
    ],
    ['rust', '// ñ\nfn step(x: u8) -> u8 { x }\nstruct S;\nimpl S { fn step(&self) -> u8 { step(1) } }\n'],
  ])('equal the whole extraction of the name in %s after characters that are not ASCII', (lang, text) => {
    expect(expectFocusedSame(lang, Buffer.from(text, 'utf8'))).toBeGreaterThanOrEqual(3);
  });
});
