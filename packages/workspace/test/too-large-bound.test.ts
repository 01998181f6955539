// One query reads files too large to index live within TOO_LARGE_LIVE_BYTES_MAX summed, and
// names the ones it left, in lines and JSON: the Linux kernel's 40 generated register headers
// over the index's bound (290 MB) would otherwise be read by every `re:`, `"literal"`, `refs`
// and `show sym:`, and a bound that left them unnamed would claim a match is nowhere.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOO_LARGE_LIVE_BYTES_MAX } from '@trufflepig/index';
import { indexCommand, refsCommand, searchCommand, showCommand } from '../src';
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

  it('refs names the ones it read that mention the name and the one it did not read', async () => {
    const out = await refsCommand(['asic_marker'], repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      `4 files too large to index mention it: ${READ.slice(0, 3).join(', ')}, +1 (search "asic_marker" lists their lines)`,
    );
    expect(out.stdout).toContain(`1 file too large to index not searched: ${LAST} (file:PATH searches one)`);
    const data = json(await refsCommand(['asic_marker'], repo.at({ format: 'json' })));
    expect(data.coverage).toMatchObject({
      too_large_files: READ.length,
      too_large_unsearched: 1,
      too_large_unsearched_paths: [LAST],
    });
  });

  it('show sym: adds them to its refs line, in lines and JSON', async () => {
    const out = await showCommand('sym:asic_probe', repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      `refs: 1 site in 1 file (refs asic_probe); 4 files too large to index mention it: ${READ.slice(0, 3).join(', ')}, +1 (search "asic_probe" lists their lines); 1 file too large to index not searched: ${LAST} (file:PATH searches one)`,
    );
    const data = json(await showCommand('sym:asic_probe', repo.at({ format: 'json' })));
    expect(JSON.stringify(data)).toContain(`"too_large_unsearched":1,"too_large_unsearched_paths":["${LAST}"]`);
  });

  it('show sym: (no_definition) names the one it did not read, where the definition may be', async () => {
    const out = await showCommand('sym:asic_marker', repo.at());
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain(`1 file too large to index not searched: ${LAST} (file:PATH searches one)`);
  });
});
