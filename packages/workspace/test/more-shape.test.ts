// `more` pages a set the way its first page was asked for: `search -n 2 -C 1` continues two
// hits at a time with a line of context, `refs -n 3` three rows at a time, unless `more`
// is given its own `-n`/`-C`. Before, every `more` fell back to 20 hits and no context, so
// an agent that asked for 2 hits read 20 on its next page.
import { moreCommand, refsCommand, searchCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES: Record<string, string> = Object.fromEntries(
  Array.from({ length: 6 }, (_, i) => [
    `src/part${i}.ts`,
    `import { settle } from './settle';\n\nexport function part${i}(x: number): number {\n  const y = x + ${i};\n  return settle(y);\n}\n`,
  ]),
);
FILES['src/settle.ts'] = 'export function settle(v: number): number {\n  return v * 2;\n}\n';

const hitLines = (stdout: string) => stdout.split('\n').filter((l) => /^[0-9a-z]{6,}:\d+ {2}/.test(l));
const contextLines = (stdout: string) => stdout.split('\n').filter((l) => /^ {2}\d+- /.test(l));
const cursorOf = (stdout: string) => /^next: more (\S+)/m.exec(stdout)?.[1] ?? '';

describe('more keeps the first page shape', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-more-shape-', FILES);
  });

  it('continues a search -n 2 -C 1 two hits at a time, with context', async () => {
    const first = (await searchCommand(['re:return settle'], repo.at({ limit: 2, context: 1 }))).stdout;
    expect(hitLines(first)).toHaveLength(2);
    expect(contextLines(first).length).toBeGreaterThan(0);
    const next = (await moreCommand(cursorOf(first), repo.at())).stdout;
    expect(hitLines(next)).toHaveLength(2);
    expect(hitLines(next)[0]).toMatch(/:3 {2}/);
    expect(contextLines(next).length).toBeGreaterThan(0);
    expect(next).toMatch(/^next: more \S+@4 \(4 of 6 files; stopped by -n\)$/m);
  });

  it('takes more own -n and -C over the stored ones', async () => {
    const first = (await searchCommand(['re:return settle'], repo.at({ limit: 2, context: 1 }))).stdout;
    const next = (await moreCommand(cursorOf(first), repo.at({ limit: 3, context: 0 }))).stdout;
    expect(hitLines(next)).toHaveLength(3);
    expect(contextLines(next)).toHaveLength(0);
  });

  it('pages a search given no shape with the defaults', async () => {
    const first = (await searchCommand(['re:return settle'], repo.at({ budget: 70 }))).stdout;
    const shown = hitLines(first).length;
    expect(shown).toBeLessThan(6);
    const next = (await moreCommand(cursorOf(first), repo.at())).stdout;
    expect(hitLines(next)).toHaveLength(6 - shown);
  });

  it('continues refs -n 3 three rows at a time', async () => {
    const first = (await refsCommand(['settle'], repo.at({ limit: 3 }))).stdout;
    expect(first).toMatch(/^next: more \S+@3 \(3 of \d+ rows; stopped by -n\)$/m);
    const next = (await moreCommand(cursorOf(first), repo.at())).stdout;
    expect(next).toMatch(/^next: more \S+@6 \(6 of \d+ rows; stopped by -n\)$/m);
  });
});
