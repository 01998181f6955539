// `refs`, `show sym:` and its `no_definition` name the code files too large to index that
// mention the name: their definitions and sites are in no answer. An agent trial on the
// SQLite amalgamation read `refs sqlite3PagerWrite`'s `0 sites in 0 files`, and `show
// sym:sqlite3_prepare_v2`'s `refs: 4 sites in 3 files`, while sqlite3.c (9.5 MB, over the
// index's bound) held the definitions and dozens of calls.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_MAX_BYTES } from '@trufflepig/index';
import { indexCommand, refsCommand, showCommand } from '../src';
import { git, indexedRepo, json, type IndexedRepo } from './ws-helpers';

describe('names mentioned in a file too large to index', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ws-too-large-mentions-', {
      'pager.h': 'int pager_write(void *page);\n',
      'notes.txt': 'btree_insert is described here, in no code file\n',
    });
    const filler = 'static int filler(int x) { return x; }\n';
    const big =
      filler.repeat(Math.ceil((FILE_MAX_BYTES + 1) / filler.length)) +
      'int btree_insert(void *c)\n{\n\treturn pager_write(c);\n}\n';
    fs.writeFileSync(path.join(repo.root, 'sqlite3.c'), big);
    // A file of the same size that never names them: not listed.
    fs.writeFileSync(path.join(repo.root, 'other.c'), filler.repeat(Math.ceil((FILE_MAX_BYTES + 1) / filler.length)));
    git(repo.root, 'add', '-A');
    git(repo.root, 'commit', '-q', '-m', 'amalgamation');
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
  });

  it('refs says which too-large file mentions the name, in lines and JSON', async () => {
    const out = await refsCommand(['pager_write'], repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      '1 file too large to index mentions it: sqlite3.c (search "pager_write" lists its lines)',
    );
    const data = json(await refsCommand(['pager_write'], repo.at({ format: 'json' })));
    expect(data.coverage).toMatchObject({ reference_sites: 1, too_large_files: 1, too_large_paths: ['sqlite3.c'] });
  });

  it('show sym: adds it to its refs line', async () => {
    const out = await showCommand('sym:pager_write', repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      'refs: 1 site in 1 file (refs pager_write); 1 file too large to index mentions it: sqlite3.c (search "pager_write" lists its lines)',
    );
  });

  it('no_definition names it, where the definition may be', async () => {
    const out = await showCommand('sym:btree_insert', repo.at());
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain('1 file too large to index mentions it: sqlite3.c');
    expect(out.stderr).not.toContain('other.c');
  });

  it('says nothing of a name no too-large file holds as an identifier', async () => {
    const out = await refsCommand(['pager'], repo.at());
    expect(out.stdout).not.toContain('too large');
  });
});
