// A `re:` or `"literal"` hit in a file too large to index (read live, as rg reads it) prints
// its evidence lines, spans a window rather than its one line, and `show` reads it back. An
// agent trial on the SQLite amalgamation (`sqlite3.c`, 9.5 MB) found nothing of the library
// with Trufflepig alone: every pattern rg answered from it was `0 hits`.
import { FILE_MAX_BYTES } from '@trufflepig/index';
import { ctxCommand, searchCommand, showCommand } from '../src';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

/** C past the index's bound, and the line of the definition that lies after its first FILE_MAX_BYTES. */
function amalgamation(): { text: string; line: number } {
  const parts: string[] = [];
  let bytes = 0;
  let line = 1;
  for (let i = 0; bytes <= FILE_MAX_BYTES; i++) {
    const f = `static int filler_${i}(int x)\n{\n\treturn x + ${i};\n}\n\n`;
    parts.push(f);
    bytes += f.length;
    line += 5;
  }
  parts.push('int btree_insert(struct cursor *c, const void *key)\n{\n\treturn balance_pages(c);\n}\n');
  return { text: parts.join(''), line };
}

describe('hits in a file too large to index', () => {
  const big = amalgamation();
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ws-too-large-', {
      'sqlite3.c': big.text,
      'shell.c': 'int main(void) { return 0; }\n',
    });
  });

  it('re: prints the matching line and a window around it; show reads the window back', async () => {
    const out = await searchCommand(['re:^int btree_insert\\('], repo.at());
    expect(out.exitCode).toBe(0);
    const [hitLine, evidence] = out.stdout.split('\n');
    // A window holding the match and the body below it, not the match's line alone.
    const span = /^\w+:1 {2}sqlite3\.c:(\d+)-(\d+)$/.exec(hitLine);
    expect(span).not.toBeNull();
    expect(Number(span![1])).toBeLessThan(big.line);
    expect(Number(span![2])).toBeGreaterThanOrEqual(big.line + 2);
    expect(evidence).toBe(`  ${big.line}: int btree_insert(struct cursor *c, const void *key)`);
    const handle = hitLine.split(' ')[0];
    const shown = await showCommand(handle, repo.at());
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain(`${big.line}\tint btree_insert(struct cursor *c, const void *key)`);
    expect(shown.stdout).toContain(`${big.line + 2}\t\treturn balance_pages(c);`);
  });

  it('a literal finds it too, with its line as evidence', async () => {
    const out = json(await searchCommand(['"balance_pages"'], repo.at({ format: 'json' })));
    const hits = out.hits as { path: string; excluded?: string; snippet?: { line: number } }[];
    expect(hits.map((h) => h.path)).toEqual(['sqlite3.c']);
    expect(hits[0].excluded).toBeUndefined();
    expect(hits[0].snippet?.line).toBe(big.line + 2);
  });

  it('ctx of such a hit says the file has no structure, not that it changed', async () => {
    const out = await searchCommand(['"balance_pages"'], repo.at());
    const handle = out.stdout.split(' ')[0];
    const ctx = await ctxCommand(handle, repo.at());
    expect(ctx.exitCode).toBe(2);
    expect(ctx.stderr).toContain('trufflepig: no_indexed_path: sqlite3.c is too large to index (');
    expect(ctx.stderr).toContain('show the handle to read the hit');
    expect(ctx.stderr).not.toContain('changed');
  });
});
