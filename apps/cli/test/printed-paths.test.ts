// Paths print as themselves (docs/spec/retrieval.md §4): valid UTF-8 without control characters,
// tabs, newlines or `%` prints raw, so an agent can paste it into `sed` or `cat`; any other
// path prints percent-encoded from its raw bytes. Both spellings are accepted back by
// show path:, map and file:. Real files, one per kind of name.
import * as fs from 'node:fs';
import { makeRepo, type Repo } from './cli';

/** Names that print as themselves. */
const PLAIN: readonly string[] = [
  '@scope/pkg/index.ts',
  'sp ace.ts',
  'co:lon.ts',
  'ha#sh.ts',
  'que?ry.ts',
  'quo"te.ts',
  'back\\slash.ts',
  'smile😀.ts',
  'at@sign.ts',
  'café.ts',
  'é.ts',
  "apo'strophe.ts",
  'dol$lar.ts',
  'star*.ts',
  'brack[et].ts',
  ' leading.ts',
  'dir with space/inner.ts',
];
/** Names that print percent-encoded, with their printed form. */
const ENCODED: readonly [string | Buffer, string][] = [
  ['pct%.ts', 'pct%25.ts'],
  ['100%.ts', '100%25.ts'],
  ['lit%25eral.ts', 'lit%2525eral.ts'],
  ['new\nline.ts', 'new%0Aline.ts'],
  ['ta\tb.ts', 'ta%09b.ts'],
  ['cr\rret.ts', 'cr%0Dret.ts'],
  ['del\x7f.ts', 'del%7F.ts'],
  ['ctl\x01.ts', 'ctl%01.ts'],
  ['bidi\u202e.ts', 'bidi%E2%80%AE.ts'],
  [Buffer.from('lat\xe9.ts', 'latin1'), 'lat%E9.ts'],
];
const NAMES: readonly (string | Buffer)[] = [...PLAIN, ...ENCODED.map(([name]) => name)];
const label = (name: string | Buffer) => JSON.stringify(typeof name === 'string' ? name : name.toString('latin1'));

describe('paths print as themselves unless they need encoding', () => {
  let repo: Repo;
  const printed = new Map<number, string>();

  beforeAll(() => {
    repo = makeRepo({ 'notes:12': 'line one\nline two\n' }, 'printed');
    NAMES.forEach((name, i) => repo.write(name, `export function fn_${i}() {\n  return ${i};\n}\n`));
    expect(repo.cli('index').status).toBe(0);
    NAMES.forEach((name, i) => {
      const hit = repo.cli('-b', '2000', 'search', `sym:fn_${i}`).json().hits?.[0];
      expect({ name: label(name), found: hit !== undefined }).toEqual({ name: label(name), found: true });
      printed.set(i, hit.path);
    });
  });

  it('prints a UTF-8 name without %, tabs, newlines or controls exactly as it is, which cat can open', () => {
    PLAIN.forEach((name, i) => {
      expect({ name, printed: printed.get(i) }).toEqual({ name, printed: name });
      expect(fs.readFileSync(repo.abs(printed.get(i)!), 'utf8')).toContain(`fn_${i}(`);
    });
  });

  it('prints any other name percent-encoded from its raw bytes', () => {
    ENCODED.forEach(([name, encoded], j) => {
      const i = PLAIN.length + j;
      expect({ name: label(name), printed: printed.get(i) }).toEqual({ name: label(name), printed: encoded });
    });
  });

  it('prints the same path in lines format, in show and in map', () => {
    NAMES.forEach((name, i) => {
      const lines = repo.cli('--format', 'lines', '-b', '2000', 'search', `sym:fn_${i}`).stdout;
      expect({
        name: label(name),
        has: lines.includes(`\t${printed.get(i)}:1-`) || lines.includes(`  ${printed.get(i)}:1-`),
      }).toEqual({ name: label(name), has: true });
      const hit = repo.cli('-b', '2000', 'search', `sym:fn_${i}`).json().hits[0];
      expect({ name: label(name), path: repo.cli('show', hit.handle).json().path }).toEqual({
        name: label(name),
        path: printed.get(i),
      });
      expect({
        name: label(name),
        path: repo.cli('-b', '2000', 'map', printed.get(i)!).json().hits?.[0]?.path,
      }).toEqual({ name: label(name), path: printed.get(i) });
    });
  });

  it('accepts every printed path back in show path: and file: (one without whitespace)', () => {
    NAMES.forEach((name, i) => {
      const p = printed.get(i)!;
      const shown = repo.cli('show', `path:${p}`);
      expect({
        name: label(name),
        status: shown.status,
        path: shown.status === 0 ? shown.json().path : shown.stderr,
      }).toEqual({ name: label(name), status: 0, path: p });
      const ranged = repo.cli('show', `path:${p}:2-2`).json();
      expect({ name: label(name), rows: ranged.rows?.map((r: { text: string }) => r.text) }).toEqual({
        name: label(name),
        rows: [`  return ${i};`],
      });
      // A query splits on whitespace and `"` opens a literal, so a file: value holding
      // either is given encoded (%20, %22; below).
      if (/[\s"]/.test(p)) return;
      const filtered = repo.cli('-b', '2000', 'search', `sym:fn_${i}`, `file:${p}`).json();
      expect({ name: label(name), paths: filtered.hits.map((h: { path: string }) => h.path) }).toEqual({
        name: label(name),
        paths: [p],
      });
    });
  });

  it('accepts the fully encoded spelling and the raw name too', () => {
    const space = PLAIN.indexOf('sp ace.ts');
    expect(repo.cli('show', 'path:sp%20ace.ts').json().path).toBe('sp ace.ts');
    expect(
      repo
        .cli('-b', '2000', 'search', `sym:fn_${space}`, 'file:sp%20ace.ts')
        .json()
        .hits.map((h: { path: string }) => h.path),
    ).toEqual(['sp ace.ts']);
    expect(repo.cli('show', 'path:%40scope/pkg/index.ts').json().path).toBe('@scope/pkg/index.ts');
    const quote = PLAIN.indexOf('quo"te.ts');
    expect(
      repo
        .cli('-b', '2000', 'search', `sym:fn_${quote}`, 'file:quo%22te.ts')
        .json()
        .hits.map((h: { path: string }) => h.path),
    ).toEqual(['quo"te.ts']);
    // A raw name holding %XX that decodes to no file is read as written.
    expect(repo.cli('show', 'path:lit%25eral.ts').json().path).toBe('lit%2525eral.ts');
    expect(repo.cli('show', 'path:100%.ts').json().path).toBe('100%25.ts');
  });

  it('reads a name ending in :DIGITS as the whole name when the shorter reading names no file', () => {
    const whole = repo.cli('show', 'path:notes:12').json();
    expect({ path: whole.path, rows: whole.rows.map((r: { text: string }) => r.text) }).toEqual({
      path: 'notes:12',
      rows: ['line one', 'line two'],
    });
    const ranged = repo.cli('show', 'path:notes:12:2-2').json();
    expect(ranged.rows.map((r: { text: string }) => r.text)).toEqual(['line two']);
  });
});

describe('navigation prints scoped paths as themselves', () => {
  // `@` is stored encoded (%40); every line an agent reads names the path as it is on disk.
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo(
      {
        '@scope/pkg/shared.ts': 'export function shared(n: number) {\n  return n + 1;\n}\n',
        '@scope/other/shared.ts': 'export function shared(s: string) {\n  return s;\n}\n',
        '@scope/pkg/use.ts': "import { shared } from './shared';\nexport function caller() {\n  return shared(1);\n}\n",
      },
      'scoped-nav',
    );
    expect(repo.cli('index').status).toBe(0);
  });

  it('show sym: also rows, refs rows and their definition, ctx rows and no_definition hints', () => {
    const sym = repo.cli('--format', 'lines', 'show', 'sym:shared');
    expect(sym.status).toBe(0);
    expect(sym.stdout).toMatch(/also: \S+ @scope\/(pkg|other)\/shared\.ts:1-3 function shared/);
    const refs = repo.cli('--format', 'lines', 'refs', 'shared');
    expect(refs.status).toBe(0);
    expect(refs.stdout).toContain('@scope/pkg/use.ts');
    const handle = /^(\S+:1)\s/m.exec(repo.cli('--format', 'lines', 'search', 'sym:caller').stdout)?.[1];
    expect(handle).toBeDefined();
    const ctx = repo.cli('--format', 'lines', 'ctx', handle!);
    expect(ctx.status).toBe(0);
    expect(ctx.stdout).toContain('@scope/pkg/');
    const missing = repo.cli('--format', 'lines', 'show', 'sym:shared', 'file:@scope/nothing/');
    expect(missing.stderr).toContain('@scope/');
    const noFile = repo.cli('--format', 'lines', 'map', '@scope/pkg/shred.ts');
    expect(noFile.stderr).toContain('nearest: @scope/pkg/shared.ts');
    for (const out of [sym.stdout, refs.stdout, ctx.stdout, missing.stderr, noFile.stderr])
      expect(out).not.toContain('%40');
  });
});
