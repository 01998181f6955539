// Search hit spans and lines. A free-text hit found through a word's stem (`stripped` meeting `stripNulls`, `filtering` meeting `.filter(`, the any-term
// lane's word forms) shows the line that holds the stem and spans the code around it: the
// snippet terms carry the stems the index searched (core/search.ts snippetTerms). Before,
// such a hit had no evidence line and its span was its storage region's first lines.
import { searchCommand } from '../src';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

// One storage region: 40 lines of unrelated code, then the function the query's stem names.
const FILLER = Array.from({ length: 40 }, (_, i) => `const unrelated${i} = ${i} * 2;`);
const SOURCE = [
  ...FILLER,
  '',
  'export function stripNulls(value: Record<string, unknown>): Record<string, unknown> {',
  '  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));',
  '}',
  '',
].join('\n');

// A match in a doc comment above a definition: the hit spans the comment and the definition.
const DOCUMENTED = [
  ...FILLER,
  '',
  '// mendHeredoc trims the common leading indentation of every line of a heredoc',
  '// before its parts are joined.',
  'export function mendHeredoc(lines: string[]): string[] {',
  ...Array.from({ length: 30 }, (_, i) => `  lines[${i}] = lines[${i}]?.trim() ?? '';`),
  '  return lines;',
  '}',
  '',
].join('\n');

describe('free-text hits found by a stem', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-word-forms-', {
      'src/clean.ts': SOURCE,
      'src/heredoc.ts': DOCUMENTED,
      'src/other.ts': 'export const x = 1;\n',
    });
  });

  it('a match in a doc comment spans the comment and the definition under it', async () => {
    const page = json(await searchCommand(['common', 'leading', 'indentation'], repo.at({ format: 'json' })));
    const hit = page.hits.find((h: { path: string }) => h.path === 'src/heredoc.ts');
    expect(hit).toMatchObject({ start_line: 42, end_line: 76 });
  });

  it('show the line holding the stem and span its definition', async () => {
    const page = json(await searchCommand(['stripped', 'filtering'], repo.at({ format: 'json' })));
    const hit = page.hits.find((h: { path: string }) => h.path === 'src/clean.ts');
    expect(hit).toBeDefined();
    expect(hit.start_line).toBe(42);
    expect(hit.end_line).toBe(44);
    const lines = await searchCommand(['stripped', 'filtering'], repo.at());
    expect(lines.stdout).toMatch(/^ {2}42: export function stripNulls\(/m);
  });
});
