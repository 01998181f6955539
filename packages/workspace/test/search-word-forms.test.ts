// A free-text hit found through a word's stem (`stripped` meeting `stripNulls`, `filtering` meeting `.filter(`, the any-term
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

describe('free-text hits found by a stem', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-word-forms-', { 'src/clean.ts': SOURCE, 'src/other.ts': 'export const x = 1;\n' });
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
