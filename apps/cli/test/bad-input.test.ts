// Bad input: each case gets a stable error code (exit 2, JSON + one stderr line) or an
// explicit coverage entry, never a crash.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, runCli, tempDir, tokens, type Repo, type Run } from './cli';

const MIB = 1024 * 1024;

function expectError(r: Run, code: string): { code: string; message: string } {
  expect({ status: r.status, stdout: r.stdout }).toMatchObject({ status: 2 });
  const err = r.json().error;
  expect(err.code).toBe(code);
  expect(typeof err.message).toBe('string');
  expect(r.stdout.endsWith('}\n')).toBe(true);
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
  // exactly one stderr line naming the code
  expect(r.stderr).toMatch(new RegExp(`^trufflepig: ${code}: [^\\n]+\\n$`));
  return err;
}

describe('bad input', () => {
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo(
      {
        'src/lib.rs': 'pub fn parse_config(text: &str) -> usize {\n    text.len()\n}\n',
        'assets/logo.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a, 0x70, 0x61, 0x72, 0x73, 0x65]),
        'data/dump.txt': `parse_config ${'x'.repeat(2 * MIB)}\n`,
      },
      'bad',
    );
  });

  it('a missing root exits 2 with root_not_found', () => {
    const missing = path.join(tempDir('noroot'), 'does-not-exist');
    const r = runCli(['--root', missing, '--cache', path.join(tempDir('nocache'), 'c'), 'search', 'x']);
    expect(expectError(r, 'root_not_found').message).toContain(missing);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('re:( is bad_regex, lang:klingon is unknown_language', () => {
    expectError(repo.cli('search', 're:('), 'bad_regex');
    expect(expectError(repo.cli('search', 'parse', 'lang:klingon'), 'unknown_language').message).toContain('rust');
  });

  it('errors respect the budget too', () => {
    const r = repo.cli('-b', '5', 'search', 're:(');
    expect(r.status).toBe(2);
    expect(tokens(r.stdout)).toBeLessThanOrEqual(5);
    expect(r.stderr).toMatch(/bad_regex/);
  });

  it('the unknown verb next exits 2 naming more CURSOR, and daemon stop names stop', () => {
    const r = repo.cli('next', 'abc@1');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      "trufflepig: bad_arguments: unknown verb 'next'; did you mean: trufflepig more CURSOR",
    );
    const page = repo.cli('page');
    expect(page.status).toBe(2);
    expect(page.stderr).toContain('more CURSOR');
    // An unknown word before a verb names the verb (it suggested `serve` for `daemon stop`).
    const daemonStop = repo.cli('daemon', 'stop');
    expect(daemonStop.status).toBe(2);
    expect(daemonStop.stderr.split('\n')[0]).toBe(
      "trufflepig: bad_arguments: unknown verb 'daemon'; did you mean: trufflepig stop",
    );
  });

  it('--help, piped as an agent reads it, keeps its lists within 80 columns: one row per verb and per option', () => {
    const r = repo.cli('--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    // The same text as the help verb and -h.
    expect(repo.cli('help').stdout).toBe(r.stdout);
    expect(repo.cli('-h').stdout).toBe(r.stdout);
    const lines = r.stdout.split('\n');
    // yargs re-wrapped USAGE at 80 columns when stdout was no terminal, splitting rows; help wraps each row under its own column.
    expect(lines).toContain('  hist TARGET         the commits that changed TARGET (a HANDLE, path:P[:A-B] or');
    expect(lines).toContain('  help [VERB]         this text (also -h, --help); help VERB or VERB --help:');
    for (const option of ['--root', '--cache', '--budget', '--limit', '--context', '--daemon', '--scopes']) {
      expect(lines.filter((l) => new RegExp(`^  (-[a-zA-Z], )?${option}( |$)`).test(l))).toHaveLength(1);
    }
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  it("VERB --help and help VERB print that verb's help: a fraction of the whole, with what the verb takes", () => {
    const whole = tokens(repo.cli('--help').stdout);
    const search = repo.cli('search', '--help');
    expect(search.status).toBe(0);
    expect(repo.cli('help', 'search').stdout).toBe(search.stdout);
    expect(repo.cli('search', 'retry', '-h').stdout).toBe(search.stdout);
    expect(search.stdout).toMatch(/^ {2}search QUERY\.\.\. /m);
    expect(search.stdout).toContain('Query language:');
    expect(search.stdout).toMatch(/^ {2}-C, --context N /m);
    expect(search.stdout).not.toContain('Verbs:');
    expect(search.stdout).toContain('trufflepig help');
    expect(tokens(search.stdout)).toBeLessThan(whole / 3);
    // refs takes the filters, not the whole query language; a verb without pages lists no page options.
    const refs = repo.cli('refs', '--help').stdout;
    expect(refs).toContain('Filters:');
    expect(refs).toMatch(/^ {2}-file:P /m);
    expect(refs).not.toMatch(/^ {2}re:PATTERN /m);
    expect(repo.cli('status', '--help').stdout).not.toContain('Options:');
    // help of an unknown word, and help help, are the whole help.
    expect(repo.cli('help', 'nosuch').stdout).toBe(repo.cli('--help').stdout);
    expect(repo.cli('help', '--help').stdout).toBe(repo.cli('--help').stdout);
    for (const out of [search.stdout, refs]) expect(out.split('\n').filter((l) => l.length > 80)).toEqual([]);
  });

  it('status names the files whose parse failed or was partial, not only their count', () => {
    const broken = makeRepo(
      { 'src/ok.ts': 'export const fine = 1;\n', 'src/broken.ts': 'export function half( {\n  return 1;\n' },
      'parse-paths',
    );
    expect(broken.cli('index').status).toBe(0);
    const st = broken.cli('status').json();
    expect(st.coverage.parse_failures).toBe(1);
    expect(st.parse_failure_kinds).toEqual({ failed: 0, partial: 1 });
    expect(st.parse_failure_paths).toEqual(['src/broken.ts']);
    expect(broken.lines('status').stdout).toContain('parse_failure_paths: ["src/broken.ts"]');
    expect(st).not.toHaveProperty('parse_failure_paths_more');
    // Past the first 10, the rest are counted.
    const many = makeRepo(
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`src/b${String(i).padStart(2, '0')}.ts`, 'export function half( {\n']),
      ),
      'parse-many',
    );
    expect(many.cli('index').status).toBe(0);
    const manySt = many.cli('status').json();
    expect(manySt.parse_failure_paths).toHaveLength(10);
    expect(manySt.parse_failure_paths_more).toBe(2);
    // A clean tree names none.
    const clean = makeRepo({ 'src/ok.ts': 'export const fine = 1;\n' }, 'parse-clean');
    expect(clean.cli('index').status).toBe(0);
    expect(clean.cli('status').json()).not.toHaveProperty('parse_failure_paths');
  });

  it('status counts files per language and names the code no extractor reads, by extension', () => {
    const mixed = makeRepo(
      {
        'src/ok.ts': 'export const fine = 1;\n',
        'plugin/a.vim': 'func! A()\nendfunc\n',
        'plugin/b.vim': 'func! B()\nendfunc\n',
        'arch/entry.S': 'ENTRY(start)\n',
        'tests/run.sh': 'echo ok\n',
        'tests/data/input.txt': 'data\n',
        'README.md': '# mixed\n',
      },
      'structure',
    );
    expect(mixed.cli('index').status).toBe(0);
    const st = mixed.cli('status').json();
    expect(st.structure).toEqual({
      languages: { text: 6, typescript: 1 },
      // Test data (.txt) and docs are not code; a test's shell script is.
      unparsed_code: { '.vim': 2, '.s': 1, '.sh': 1 },
    });
    expect(mixed.lines('status').stdout).toContain('structure.unparsed_code: {".vim":2,".s":1,".sh":1}');
  });

  it('usage errors are coded bad_arguments with exit 2', () => {
    for (const args of [
      ['search'],
      ['-b', '-3', 'search', 'x'],
      ['-n', '0', 'search', 'x'],
      ['--format', 'xml', 'search', 'x'],
      ['show'],
    ]) {
      const r = repo.cli(...args);
      expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(r.stderr).toMatch(/^trufflepig: bad_arguments: .+\nUsage: /);
    }
  });

  it('a misspelt long option or a missing value is an error, never searched as text', () => {
    // Before: `--limt` became a query word and `-n` without a value was ignored, both exit 0.
    for (const [args, says] of [
      [['search', 'parse_config', '--limt', '5'], 'unknown option --limt;'],
      [['--no-daemon', 'search', 'parse_config', '--jsn'], 'unknown option --jsn;'],
      [['search', 'parse_config', '-n'], '-n needs a value, e.g. -n 5'],
    ] as const) {
      const r = repo.cli(...args);
      expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(r.stderr.split('\n')[0]).toContain(`trufflepig: bad_arguments: ${says}`);
    }
    // Text that starts with -- is searched after --.
    const text = repo.cli('--format', 'lines', 'search', '--', '--limt');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^coverage: /m);
  });

  it('binary and > 2 MiB files are excluded with a reason and still findable with kind:file', () => {
    const idx = repo.cli('index').json();
    expect(idx.excluded).toEqual({ binary: 1, too_large: 1 });
    expect(idx.files).toBe(1);
    const lines = repo.cli('--format', 'lines', 'search', 'parse_config').stdout;
    expect(lines).toMatch(/^coverage: .*excluded 1 binary, 1 too_large/m);
    const out = repo.cli('-b', '5000', 'search', 'parse_config').json();
    expect(out.coverage.excluded).toEqual({ binary: 1, too_large: 1 });
    expect(out.hits.map((h: any) => h.path)).toEqual(['src/lib.rs']);
    const logo = repo.cli('search', 'kind:file', 'logo').json();
    expect(logo.hits.map((h: any) => [h.path, h.kind])).toEqual([['assets/logo.bin', 'file']]);
    const dump = repo.cli('search', 'kind:file', 'dump').json();
    expect(dump.hits.map((h: any) => [h.path, h.kind])).toEqual([['data/dump.txt', 'file']]);
    expect(dump.hits[0].end).toBe(fs.statSync(repo.abs('data/dump.txt') as string).size);
    expectError(repo.cli('show', 'path:assets/logo.bin'), 'binary_file');
  });

  it('reindexing an unchanged tree publishes nothing and parses nothing', () => {
    const first = repo.cli('index').json();
    const again = repo.cli('index');
    expect(again.status).toBe(0);
    expect(again.json()).toMatchObject({
      published: false,
      parsed: 0,
      generation: first.generation,
      files: first.files,
    });
    // one changed file: a new generation, one parse
    fs.appendFileSync(repo.abs('src/lib.rs'), '// touched\n');
    expect(repo.cli('index').json()).toMatchObject({ published: true, parsed: 1, generation: first.generation + 1 });
  });

  it('an empty filtered search exits 0 with coverage.filter_diagnosis', () => {
    const r = repo.cli('search', 'parse_config', 'file:srcc/');
    expect(r.status).toBe(0);
    const out = r.json();
    expect(out.hits).toEqual([]);
    expect(out.coverage.filter_diagnosis.file).toEqual([expect.objectContaining({ value: 'srcc/', matched: 0 })]);
    expect(out.coverage.filter_diagnosis.file[0].nearest).toContain('src/lib.rs');
    const lang = repo.cli('search', 'parse_config', 'lang:typescript').json();
    expect(lang.hits).toEqual([]);
    expect(lang.coverage.filter_diagnosis.lang).toEqual([{ value: 'typescript', matched: 0 }]);
    // Outside src the name is spelled only in data/dump.txt, too large to index, which a
    // compound identifier no indexed file holds is read live for (index search.ts,
    // spelledLanes); excluding both leaves nothing, and the diagnosis names both.
    const live = repo.cli('search', 'parse_config', '-file:src').json();
    expect(live.hits.map((h: any) => h.path)).toEqual(['data/dump.txt']);
    const excl = repo.cli('search', 'parse_config', '-file:src', '-file:data').json();
    expect(excl.hits).toEqual([]);
    expect(excl.coverage.filter_diagnosis.excluded_every_match).toEqual(['src', 'data']);
    // In lines, the coverage line says what each filter matched, a kind's definitions too
    // (`kind:fn` on Java printed `filters: ` and nothing after it, an agent trial).
    const kind = repo.cli('--format', 'lines', 'search', 'parse_config', 'kind:class').stdout;
    expect(kind).toMatch(
      /; 0 hits;.*; filters: kind:class matched 0 definitions, the words match without the filters\n$/,
    );
    const nothing = repo.cli('--format', 'lines', 'search', 'zzqqxxnothing', 'file:src/').stdout;
    expect(nothing).toMatch(/; filters: file:src\/ matched \d+, the words match nothing, filters or not\n$/);
    // an unfiltered empty search is complete and has no diagnosis
    const none = repo.cli('search', 'zzqqxxnothing');
    expect(none.status).toBe(0);
    expect(none.json().coverage.filter_diagnosis).toBeUndefined();
  });

  it('a file deleted after indexing is an explicit error for its handle, not a crash', () => {
    const other = makeRepo({ 'gone.rs': 'pub fn vanishing_act() {}\n', 'kept.rs': 'fn kept() {}\n' }, 'deleted');
    const hit = other.cli('search', 'vanishing_act').json().hits[0];
    fs.rmSync(other.abs('gone.rs') as string);
    expectError(other.cli('show', hit.handle), 'source_missing');
    const idx = other.cli('index').json();
    expect(idx).toMatchObject({ published: true, removed: 1, files: 1 });
    expect(other.cli('search', 'vanishing_act').json().hits).toEqual([]);
  });
});
