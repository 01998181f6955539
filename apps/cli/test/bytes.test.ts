// Byte-exact coordinates for CRLF, BOM and invalid UTF-8 files, and percent-encoded paths.
import * as fs from 'node:fs';
import { byteOf, makeRepo, type Repo } from './cli';

const CRLF_RS =
  'use std::io;\r\n\r\n/// Windows line endings.\r\npub fn crlf_marker(x: u32) -> u32 {\r\n    x + 1\r\n}\r\n';
const BOM_TS = '\uFEFFexport function bomMarker(n: number): number {\n  return n * 2;\n}\n';
const BAD_UTF8 = Buffer.concat([
  Buffer.from('// caf'),
  Buffer.from([0xe9]),
  Buffer.from(' latin-1 byte\n'),
  Buffer.from('pub fn invalid_marker() -> u8 {\n    let s = b"'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('";\n    s[0]\n}\n'),
]);

function hitFor(repo: Repo, name: string): any {
  const out = repo.cli('-b', '100000', 'search', name).json();
  const hit = out.hits.find((h: any) => h.name === name);
  if (!hit) throw new Error(`no definition hit for ${name}: ${JSON.stringify(out)}`);
  return hit;
}

describe('byte coordinates', () => {
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo({ 'src/crlf.rs': CRLF_RS, 'src/bom.ts': BOM_TS, 'src/bad.rs': BAD_UTF8 }, 'bytes');
    expect(repo.cli('index').status).toBe(0);
  });

  it('CRLF: hit and show spans land on the real bytes, CR is no extra line', () => {
    const bytes = fs.readFileSync(repo.abs('src/crlf.rs'));
    const hit = hitFor(repo, 'crlf_marker');
    // the definition starts at `pub fn` (line 4 when CRLF counts as one break)
    expect(hit.start).toBe(byteOf(bytes, 'pub fn crlf_marker'));
    expect(hit.start_line).toBe(4);
    expect(hit.end_line).toBe(6);
    expect(bytes.subarray(hit.start, hit.end).toString()).toContain('pub fn crlf_marker');
    expect(hit.end).toBe(byteOf(bytes, '}\r\n') + 1);
    const shown = repo.cli('show', hit.handle).json();
    const fnRow = shown.rows.find((r: any) => r.text.startsWith('pub fn'));
    expect(fnRow).toMatchObject({
      line: 4,
      start: byteOf(bytes, 'pub fn crlf_marker'),
      text: 'pub fn crlf_marker(x: u32) -> u32 {',
    });
    expect(bytes.subarray(fnRow.end, fnRow.end + 2).toString()).toBe('\r\n');
    for (const row of shown.rows) expect(row.text).not.toContain('\r');
    const ranged = repo.cli('show', 'path:src/crlf.rs:5').json();
    expect(ranged.rows).toEqual([
      { line: 5, start: byteOf(bytes, '    x + 1'), end: byteOf(bytes, '    x + 1') + 9, text: '    x + 1' },
    ]);
  });

  it('BOM: its three bytes count in offsets', () => {
    const bytes = fs.readFileSync(repo.abs('src/bom.ts'));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const hit = hitFor(repo, 'bomMarker');
    expect(hit.start_line).toBe(1);
    expect(hit.start).toBe(byteOf(bytes, 'function bomMarker'));
    expect(hit.start).toBe(10); // 3 BOM bytes + 'export '
    expect(hit.end).toBe(bytes.length - 1);
    const shown = repo.cli('show', hit.handle).json();
    expect(shown.rows[1]).toMatchObject({ line: 2, start: byteOf(bytes, '  return'), text: '  return n * 2;' });
    const rows = repo.cli('show', 'path:src/bom.ts:2-3').json().rows;
    expect(rows[0].start).toBe(byteOf(bytes, '  return'));
    expect(rows[1]).toMatchObject({ line: 3, start: bytes.length - 2, end: bytes.length - 1, text: '}' });
  });

  it('invalid UTF-8: spans stay on original bytes and rows say they are escaped', () => {
    const bytes = fs.readFileSync(repo.abs('src/bad.rs'));
    const hit = hitFor(repo, 'invalid_marker');
    expect(hit.start).toBe(byteOf(bytes, 'pub fn invalid_marker'));
    expect(hit.end).toBe(bytes.length - 1);
    const shown = repo.cli('-b', '100000', 'show', 'path:src/bad.rs').json();
    expect(shown.rows).toHaveLength(5);
    let at = 0;
    for (const row of shown.rows) {
      expect(row.start).toBe(at);
      at = byteOf(bytes, '\n', row.start) + 1;
      expect(row.end).toBe(at - 1);
    }
    const escaped = shown.rows.filter((r: any) => r.escaped);
    expect(escaped.map((r: any) => r.line)).toEqual([1, 3]);
    expect(escaped[0].text).not.toContain('\uFFFD');
    const lines = repo.cli('--format', 'lines', 'show', hit.handle).stdout;
    expect(lines).toMatch(/^3!\t/m);
    expect(lines).toMatch(/^2\tpub fn invalid_marker/m);
  });
});

describe('paths with %, :, spaces and non-UTF-8 bytes', () => {
  const raw = Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x72, 0x73]); // "latin\xe9.rs"
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo(
      {
        'src/100%done.rs': 'pub fn percent_marker() {}\n',
        'src/a:b.rs': 'pub fn colon_marker() {}\n',
        'src/with space.rs': 'pub fn space_marker() {}\n',
      },
      'paths',
    );
    repo.write(Buffer.concat([Buffer.from('src/'), raw]), 'pub fn latin_marker() {}\n');
    expect(repo.cli('index').json().files).toBe(4);
  });

  it.each([
    // [name, path as printed, stored (percent-encoded) form]: a path prints as itself unless
    // it holds %, a control character or bytes that are not UTF-8
    ['percent_marker', 'src/100%25done.rs', 'src/100%25done.rs'],
    ['colon_marker', 'src/a:b.rs', 'src/a%3Ab.rs'],
    ['space_marker', 'src/with space.rs', 'src/with%20space.rs'],
    ['latin_marker', 'src/latin%E9.rs', 'src/latin%E9.rs'],
  ])('%s is printed as %s, which pastes back into show path:, as does its encoded form', (name, encoded, stored) => {
    const hit = hitFor(repo, name);
    expect(hit.path).toBe(encoded);
    expect(hit.uri).toBe(`file://${repo.root}/${stored}`);
    expect(repo.cli('show', `path:${stored}`).json()).toMatchObject({
      path: encoded,
      rows: [{ line: 1, text: `pub fn ${name}() {}` }],
    });
    const shown = repo.cli('show', hit.handle).json();
    expect(shown.path).toBe(encoded);
    expect(shown.rows[0].text).toBe(`pub fn ${name}() {}`);
    const byPath = repo.cli('show', `path:${encoded}`);
    expect(byPath.status).toBe(0);
    expect(byPath.json()).toMatchObject({
      path: encoded,
      verified: 'current file',
      rows: [{ line: 1, start: 0, text: `pub fn ${name}() {}` }],
    });
    const ranged = repo.cli('show', `path:${encoded}:1-1`).json();
    expect(ranged.rows).toHaveLength(1);
    // the lines format prints the same path, never raw bytes
    const lines = repo.cli('--format', 'lines', 'search', name).stdout;
    expect(lines).toContain(`  ${encoded}:1`);
    // file: filters take the encoded form too
    const filtered = repo.cli('search', name, `file:${encoded}`).json();
    expect(filtered.hits.map((h: any) => h.path)).toEqual([encoded]);
  });
});
