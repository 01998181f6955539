import { extractFile, REGION_MAX_BYTES, type Extraction } from '../src';

/** Regions tile the file: contiguous, non-empty, within the byte cap, ending at the last byte. */
function expectTiling(bytes: Buffer, x: Extraction): void {
  let at = 0;
  for (const r of x.regions) {
    expect(r.start).toBe(at);
    expect(r.end).toBeGreaterThan(r.start);
    expect(r.end - r.start).toBeLessThanOrEqual(REGION_MAX_BYTES);
    at = r.end;
  }
  expect(at).toBe(bytes.length);
}

describe('regions', () => {
  it('cut a file of many functions at function starts', () => {
    let src = '';
    for (let i = 0; i < 200; i++) src += `fn f${i}(a: u32) -> u32 {\n    let b = a + ${i};\n    b * 2\n}\n\n`;
    const bytes = Buffer.from(src);
    const x = extractFile('rust', bytes);
    expectTiling(bytes, x);
    expect(x.regions.length).toBeGreaterThan(2);
    for (const r of x.regions.slice(1)) expect(bytes.subarray(r.start, r.start + 3).toString()).toBe('fn ');
    // Each region's symbol is the innermost definition that contains it, or none for multi-function regions.
    const last = x.regions[x.regions.length - 1];
    expect(last.endLine).toBe(1000);
  });

  it('split a single 10 KB function inside, every part naming the function', () => {
    let src = 'fn huge() {\n';
    while (src.length < 10240) src += '    let x = compute(1, 2, 3); // padding text here\n';
    src += '}\n';
    const bytes = Buffer.from(src);
    const x = extractFile('rust', bytes);
    expectTiling(bytes, x);
    expect(x.regions.length).toBeGreaterThanOrEqual(3);
    for (const r of x.regions) {
      expect(r.symbol).toBe('huge');
      expect(r.start === 0 || bytes[r.start - 1] === 0x0a).toBe(true);
    }
  });

  it('split a long single line at UTF-8 character boundaries', () => {
    const bytes = Buffer.from('const s = "' + 'é€😀'.repeat(2000) + '";\n');
    const x = extractFile('typescript', bytes);
    expectTiling(bytes, x);
    expect(x.regions.length).toBeGreaterThan(4);
    for (const r of x.regions) expect(bytes[r.start] & 0xc0).not.toBe(0x80);
    expect(x.regions.map((r) => r.body).join('')).toBe(bytes.toString('utf8'));
  });

  it('cover plain text by paragraphs and an empty file by nothing', () => {
    const para = 'word '.repeat(100).trim() + '\n';
    const bytes = Buffer.from((para + '\n').repeat(30));
    const x = extractFile('text', bytes);
    expectTiling(bytes, x);
    expect(x.parse).toBe('none');
    for (const r of x.regions.slice(1)) expect(bytes.subarray(r.start - 2, r.start).toString()).toBe('\n\n');
    expect(extractFile('rust', Buffer.alloc(0)).regions).toEqual([]);
  });

  it('keep lexical coverage for a file that fails to parse', () => {
    const bytes = Buffer.from('fn ok() {}\nfn broken( { {{ \nstruct S { a: }\n' + 'garbage )))\n'.repeat(800));
    const x = extractFile('rust', bytes);
    expect(x.parse).toBe('partial');
    expectTiling(bytes, x);
    expect(x.definitions.map((d) => d.name)).toContain('ok');
  });
});

describe('byte coordinates', () => {
  function expectDefsAtBytes(bytes: Buffer, x: Extraction): void {
    for (const d of x.definitions) {
      const needle = Buffer.from(`fn ${d.name}`);
      expect(d.start).toBe(bytes.indexOf(needle));
      expect(d.nameStart).toBe(bytes.indexOf(needle) + 3);
      expect(bytes.subarray(d.nameStart, d.nameEnd).toString()).toBe(d.name);
    }
  }

  it('are exact for CRLF with a BOM', () => {
    const bytes = Buffer.from('\uFEFFfn alpha() {}\r\n// é ü\r\nfn beta() {\r\n}\r\n');
    const x = extractFile('rust', bytes);
    expect(x.definitions.map((d) => d.name)).toEqual(['alpha', 'beta']);
    expectDefsAtBytes(bytes, x);
    const beta = x.definitions[1];
    expect([beta.startLine, beta.endLine]).toEqual([3, 4]);
    expect(bytes.subarray(beta.start, beta.end).toString()).toBe('fn beta() {\r\n}');
    expectTiling(bytes, x);
  });

  it('are exact for invalid UTF-8 and astral characters', () => {
    const bytes = Buffer.concat([
      Buffer.from([0x2f, 0x2f, 0x20, 0xff, 0xfe, 0x0a]),
      Buffer.from('fn gamma() { let s = "😀😀"; }\n'),
      Buffer.from([0x2f, 0x2f, 0xc3, 0x0a, 0x2f, 0x2f, 0xe2, 0x82, 0x0a]),
      Buffer.from('fn delta() {}\n'),
    ]);
    const x = extractFile('rust', bytes);
    expect(x.definitions.map((d) => d.name)).toEqual(['gamma', 'delta']);
    expectDefsAtBytes(bytes, x);
    expect(x.definitions[1].startLine).toBe(5);
    expect(bytes.subarray(x.definitions[0].start, x.definitions[0].end).toString()).toBe(
      'fn gamma() { let s = "😀😀"; }',
    );
    expectTiling(bytes, x);
  });
});
