// `map PATH` of a file the index holds no content of says so, and what reads it instead: `map
// sqlite3.c` of the SQLite amalgamation (9.5 MB, over the index's bound) answered `0 items`
// alone, as if the file defined nothing (an agent trial).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_MAX_BYTES } from '@trufflepig/index';
import { indexCommand, mapCommand } from '../src';
import { git, indexedRepo, json, type IndexedRepo } from './ws-helpers';

describe('map of an excluded file', () => {
  const size = FILE_MAX_BYTES + 10;
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ws-map-excluded-', { 'shell.c': 'int main(void) { return 0; }\n' });
    const line = 'static int filler(int x) { return x; }\n';
    fs.writeFileSync(path.join(repo.root, 'sqlite3.c'), line.repeat(Math.ceil(size / line.length)).slice(0, size));
    fs.writeFileSync(path.join(repo.root, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    git(repo.root, 'add', '-A');
    git(repo.root, 'commit', '-q', '-m', 'large and binary');
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
  });

  it('says a too-large file is not indexed, its size and bound, and how to read it', async () => {
    const out = await mapCommand(['sqlite3.c'], repo.at());
    expect(out.exitCode).toBe(0);
    const bytes = size.toLocaleString('en-US');
    const bound = FILE_MAX_BYTES.toLocaleString('en-US');
    expect(out.stdout).toContain(
      `coverage: 0 items; not indexed: ${bytes} bytes, over the ${bound}-byte bound, so no outline; search re:PATTERN file:sqlite3.c or "TEXT" file:sqlite3.c finds its lines, show path:sqlite3.c:A-B reads them`,
    );
    const data = json(await mapCommand(['sqlite3.c'], repo.at({ format: 'json' })));
    expect(data.coverage).toEqual({ items: 0, outline: 'excluded', excluded: 'too_large' });
  });

  it('says a binary file is not indexed', async () => {
    const out = await mapCommand(['logo.png'], repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('coverage: 0 items; not indexed (binary): no outline');
  });

  it('still outlines an indexed file as before', async () => {
    const data = json(await mapCommand(['shell.c'], repo.at({ format: 'json' })));
    expect(data.coverage).toEqual({ items: 1 });
  });
});
