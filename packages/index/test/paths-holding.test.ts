// The filename lane's screen: IndexReader.pathsHolding finds exactly the paths a per-path
// substring test finds, on a real index whose paths include a newline, a percent sign,
// non-ASCII letters and words that repeat within one path or span its separators, and
// words that only a directory holds (path-screen.ts looks for them once per directory,
// where one directory's files are split by a subdirectory's, and at the root).
import { Fixture } from './helpers';

const FILES: Record<string, string> = {
  'src/token_bucket.rs': 'pub struct TokenBucket;\n',
  'src/bucket/bucket_bucket.rs': 'pub fn b() {}\n',
  'docs/Token Guide.md': '# Guide\n',
  'café/naïve.ts': 'export const n = 1;\n',
  'odd/100%done.txt': 'done\n',
  'odd/two\nlines.txt': 'x\n',
  'src/zeta.rs': 'fn z() {}\n',
  'zzz/last_token.txt': 'end\n',
  'README.md': '# Read me\n',
};

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('paths-holding', FILES);
  await fx.index();
});

const cases: string[][] = [
  ['token'],
  ['bucket'],
  ['bucket', 'token'],
  ['naïve'],
  ['100%'],
  ['two'],
  ['lines'],
  ['o/t'], // spans a separator inside one path
  ['txt\nzzz'], // holds a newline: never joins two paths
  ['nothing_here'],
  ['src'], // a directory whose files a subdirectory's split
  ['rc/b'], // spans a directory's separator
  ['readme'], // a file at the root
  ['zz', 'odd'],
  ['cket'],
  [''],
  [],
];

test.each(cases)('pathsHolding(%j) equals the per-path test', async (...words) => {
  const reader = await fx.open();
  try {
    const lowers = reader.lowerPaths();
    const expected = lowers.flatMap((p, i) => (words.some((w) => p.includes(w)) ? [i] : []));
    expect(reader.pathsHolding(words)).toEqual(expected);
  } finally {
    reader.close();
  }
});

test('the screen finds what it should: a word in several paths, and only those', async () => {
  const reader = await fx.open();
  try {
    const shown = reader.lowerPaths();
    const held = reader.pathsHolding(['token']).map((i) => shown[i]);
    expect(held).toEqual(['docs/token guide.md', 'src/token_bucket.rs', 'zzz/last_token.txt']);
    expect(reader.pathsHolding(['two']).map((i) => reader.lowerPaths()[i])).toEqual(['odd/two\nlines.txt']);
  } finally {
    reader.close();
  }
});
