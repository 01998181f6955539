// Spans narrowed per page (core/settle.ts): a search narrows the hits its first page prints
// and stores the rest provisional; `more`, `show` and `ctx` settle them from the same index
// and bytes, to the spans a search narrowing every hit at once gives, and the stored set
// keeps that first settled form.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { moreCommand, searchCommand, showCommand } from '../src';
import { errorCode, indexedRepo, json, type IndexedRepo } from './ws-helpers';

// Each file: filler, then a short function naming the query word. The index's storage
// region holds the whole file; the narrowed span is the function.
const FILLER = Array.from({ length: 40 }, (_, i) => `const unrelated${i} = ${i} * 2;`);
const source = (n: number) =>
  [
    ...FILLER,
    '',
    `export function retry${n}(attempt: number): number {`,
    `  // exponential backoff, step ${n}`,
    `  return ${n} * 2 ** attempt;`,
    '}',
    '',
  ].join('\n');
const FILES = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`src/retry${n}.ts`, source(n)]));
const FUNCTION_LINES = { start_line: 42, end_line: 45 };

interface StoredEntry {
  path: string;
  start_line: number;
  end_line: number;
  unsettled?: true;
}

function storedEntries(repo: IndexedRepo, setId: string): StoredEntry[] {
  const cache = repo.at().cache!;
  const dir = fs.readdirSync(cache).find((d) => fs.existsSync(path.join(cache, d, 'results', `${setId}.set.json`)));
  if (!dir) throw new Error(`no set ${setId} under ${cache}`);
  return JSON.parse(fs.readFileSync(path.join(cache, dir, 'results', `${setId}.set.json`), 'utf8')).entries;
}

describe('spans narrowed per page, settled when first read', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-settle-', FILES);
  });

  async function search(limit: number) {
    const page = json(await searchCommand(['backoff'], repo.at({ format: 'json', limit })));
    expect(page.hits).toHaveLength(Math.min(limit, 5));
    return { page, setId: String(page.hits[0].handle).split(':')[0] };
  }

  it('narrows the first page at once and stores the rest with their provisional spans', async () => {
    const { page, setId } = await search(2);
    for (const hit of page.hits) expect(hit).toMatchObject(FUNCTION_LINES);
    const stored = storedEntries(repo, setId);
    expect(stored).toHaveLength(5);
    expect(stored.slice(0, 2).every((e) => e.unsettled === undefined)).toBe(true);
    for (const e of stored.slice(2)) expect(e).toMatchObject({ unsettled: true, start_line: 1 });
  });

  it('more settles its page to the spans of a search that narrows every hit, and stores them', async () => {
    const eager = await search(20);
    const eagerSpans = eager.page.hits.map((h: StoredEntry & { name?: string }) => [
      h.path,
      h.start_line,
      h.end_line,
      h.name,
    ]);
    const { setId } = await search(2);
    const next = json(await moreCommand(`${setId}@2`, repo.at({ format: 'json', limit: 2 })));
    // Settled like a search that narrowed them at once: the same spans, and the same names.
    expect(next.hits.map((h: StoredEntry & { name?: string }) => [h.path, h.start_line, h.end_line, h.name])).toEqual(
      eagerSpans.slice(2, 4),
    );
    const stored = storedEntries(repo, setId);
    expect(stored.slice(0, 4).every((e) => e.unsettled === undefined)).toBe(true);
    expect(stored[4].unsettled).toBe(true);
    // A handle nobody printed yet is settled by show, to the same span.
    const shown = await showCommand(`${setId}:5`, repo.at());
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout.split('\n')[0]).toBe(`${setId}:5  ${eagerSpans[4][0]}:42-45  ${eagerSpans[4][3]}`);
    const fifth = storedEntries(repo, setId)[4];
    expect(fifth).toMatchObject(FUNCTION_LINES);
    expect(fifth.unsettled).toBeUndefined();
  });

  it('a file changed since the search settles on its own span, and show says it is stale', async () => {
    const { setId } = await search(1);
    const target = storedEntries(repo, setId)[1].path;
    const file = path.join(repo.root, target);
    const before = fs.readFileSync(file, 'utf8');
    try {
      fs.writeFileSync(file, before.replace('step', 'stage'));
      const next = json(await moreCommand(`${setId}@1`, repo.at({ format: 'json', limit: 1 })));
      expect(next.hits[0]).toMatchObject({ path: target, start_line: 1 });
      expect(storedEntries(repo, setId)[1].unsettled).toBeUndefined();
      expect(errorCode(await showCommand(`${setId}:2`, repo.at()))).toBe('stale_source');
      // Settled once: restoring the file does not move the printed span.
      fs.writeFileSync(file, before);
      const again = json(await moreCommand(`${setId}@1`, repo.at({ format: 'json', limit: 1 })));
      expect(again.hits[0]).toMatchObject({ path: target, start_line: 1 });
    } finally {
      fs.writeFileSync(file, before);
    }
  });
});
