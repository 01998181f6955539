// `map P` takes a path exactly as search printed it (percent-encoded) and the raw name,
// for every kind of name that needs encoding (issue 10, finding 8).
import { makeRepo, type Repo } from './cli';

/** Names needing encoding (or looking like it): one file each, defining fn_N. */
const NAMES: readonly (string | Buffer)[] = [
  'pct%.ts',
  'sp ace.ts',
  'co:lon.ts',
  'new\nline.ts',
  'ta\tb.ts',
  'ha#sh.ts',
  'que?ry.ts',
  'quo"te.ts',
  'back\\slash.ts',
  Buffer.from('lat\xe9.ts', 'latin1'),
  'smile😀.ts',
  'at@sign.ts',
  'lit%25eral.ts',
  'cr\rret.ts',
  'café.ts',
  'del\x7f.ts',
  'ctl\x01.ts',
  "apo'strophe.ts",
  'dol$lar.ts',
  'star*.ts',
  'brack[et].ts',
  ' leading.ts',
  'dir with space/inner.ts',
];

const label = (name: string | Buffer) => JSON.stringify(typeof name === 'string' ? name : name.toString('latin1'));

describe('map on names that need encoding', () => {
  let repo: Repo;
  const printed = new Map<number, string>();

  beforeAll(() => {
    const files: Record<string, string> = {};
    repo = makeRepo(files, 'mapnames');
    NAMES.forEach((name, i) => repo.write(name, `export function fn_${i}() {\n  return ${i};\n}\n`));
    expect(repo.cli('index').status).toBe(0);
    NAMES.forEach((name, i) => {
      const out = repo.cli('-b', '2000', 'search', `sym:fn_${i}`).json();
      const hit = out.hits?.[0];
      expect({ name: label(name), found: hit !== undefined }).toEqual({ name: label(name), found: true });
      printed.set(i, hit.path);
    });
  });

  function mapsTo(arg: string, i: number): void {
    const r = repo.cli('-b', '2000', 'map', arg);
    expect({ arg, status: r.status, stderr: r.stderr }).toEqual({ arg, status: 0, stderr: '' });
    const out = r.json();
    expect({ arg, names: out.hits.map((h: { name?: string }) => h.name) }).toEqual({ arg, names: [`fn_${i}`] });
    expect(out.hits[0].path).toBe(printed.get(i));
  }

  it('accepts the path exactly as search printed it, for all 23 names', () => {
    NAMES.forEach((_, i) => mapsTo(printed.get(i)!, i));
  });

  it('accepts the raw name (every name a command line can carry)', () => {
    NAMES.forEach((name, i) => {
      if (typeof name === 'string') mapsTo(name, i);
    });
  });

  it('a directory prefix that needs encoding, printed or raw, lists its files', () => {
    for (const prefix of ['dir with space/', 'dir%20with%20space/', 'dir with space', 'dir%20with%20space']) {
      const r = repo.cli('map', prefix);
      expect({ prefix, status: r.status }).toEqual({ prefix, status: 0 });
      expect(r.json().hits.map((h: { path: string }) => h.path)).toEqual(['dir with space/inner.ts']);
    }
  });

  it('a raw name with %XX in it is found; when its decoded twin exists too, the printed reading wins', () => {
    const i = NAMES.indexOf('lit%25eral.ts');
    expect(printed.get(i)).toBe('lit%2525eral.ts');
    mapsTo('lit%25eral.ts', i); // no file lit%eral.ts: the raw name
    repo.write('lit%eral.ts', 'export function twin() {}\n');
    expect(repo.cli('index').status).toBe(0);
    const out = repo.cli('map', 'lit%25eral.ts').json();
    expect(out.hits.map((h: { name?: string }) => h.name)).toEqual(['twin']);
    mapsTo('lit%2525eral.ts', i);
  });
});
