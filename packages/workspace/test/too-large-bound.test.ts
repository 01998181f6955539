// One query reads files too large to index live within TOO_LARGE_LIVE_BYTES_MAX summed, and
// names the ones it left, in lines and JSON: the Linux kernel's 40 generated register headers
// over the index's bound (290 MB) would otherwise be read by every `re:`, `"literal"`, `refs`
// and `show sym:`, and a bound that left them unnamed would claim a match is nowhere.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOO_LARGE_LIVE_BYTES_MAX } from '@trufflepig/index';
import { indexCommand, searchCommand } from '../src';
import { git, indexedRepo, json, type IndexedRepo } from './ws-helpers';

const HEADER_BYTES = 7 * 1024 * 1024;
const HEADERS = Math.floor(TOO_LARGE_LIVE_BYTES_MAX / HEADER_BYTES) + 1;
const NAMES = Array.from({ length: HEADERS }, (_, i) => `gen/reg_${String.fromCharCode(97 + i)}.h`);
const READ = NAMES.slice(0, -1);
const LAST = NAMES[NAMES.length - 1];

describe('files too large to index past the live bound of one query', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ws-too-large-bound-', {
      'main.c': 'int main(void) { return 0; }\n',
      'probe.c': 'int asic_probe(void)\n{\n\treturn 1;\n}\n',
    });
    const line = '#define mmREG_FILLER 0x00000000\n';
    const text =
      line.repeat(Math.ceil(HEADER_BYTES / line.length)) +
      'extern int asic_marker(void);\nextern int asic_probe(void);\n';
    fs.mkdirSync(path.join(repo.root, 'gen'));
    for (const p of NAMES) fs.writeFileSync(path.join(repo.root, p), text);
    git(repo.root, 'add', '-A');
    git(repo.root, 'commit', '-q', '-m', 'generated headers');
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
  });

  it('re: says which it did not search and how to search one, in lines and JSON', async () => {
    const out = await searchCommand(['re:^extern int asic_marker'], repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(`1 file too large to index not searched: ${LAST} (file:PATH searches one)`);
    // The exclusion count stays as it was: every one of them is still a too_large file.
    expect(out.stdout).toContain(`excluded ${HEADERS} too_large`);
    const data = json(await searchCommand(['re:^extern int asic_marker'], repo.at({ format: 'json' })));
    expect((data.hits as { path: string }[]).map((h) => h.path).sort()).toEqual(READ);
    expect(data.coverage).toMatchObject({
      excluded: { too_large: HEADERS },
      too_large_unsearched: 1,
      too_large_unsearched_paths: [LAST],
    });
  });

  it('a literal says the same; file: naming the file reads it and says nothing was left', async () => {
    const out = await searchCommand(['"asic_marker"'], repo.at());
    expect(out.stdout).toContain(`1 file too large to index not searched: ${LAST}`);
    const named = json(await searchCommand(['"asic_marker"', `file:${LAST}`], repo.at({ format: 'json' })));
    expect((named.hits as { path: string }[]).map((h) => h.path)).toEqual([LAST]);
    expect(named.coverage).not.toHaveProperty('too_large_unsearched');
  });
});
