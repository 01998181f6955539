import { displayPath, fileUri, normalizeEncodedPath, percentDecode, percentEncode } from '../src';

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe('percentEncode', () => {
  it('keeps ordinary path text and slashes as they are', () => {
    expect(percentEncode('src/lib/config.ts')).toBe('src/lib/config.ts');
    expect(percentEncode("a-b_c.d~e+f=g,h;i!j$k&l'm(n)o*p[q]r{s}t|u^v`w<x>y")).toBe(
      "a-b_c.d~e+f=g,h;i!j$k&l'm(n)o*p[q]r{s}t|u^v`w<x>y",
    );
  });

  it('escapes controls, space, DEL and up, and % : @ # ? \\ " with uppercase hex', () => {
    expect(percentEncode('100% done.ts')).toBe('100%25%20done.ts');
    expect(percentEncode('a:b@c#d?e\\f"g')).toBe('a%3Ab%40c%23d%3Fe%5Cf%22g');
    expect(percentEncode('tab\there\nnl')).toBe('tab%09here%0Anl');
    expect(percentEncode(Buffer.from([0x7f, 0x00, 0xff]))).toBe('%7F%00%FF');
    expect(percentEncode('café.ts')).toBe('caf%C3%A9.ts');
  });

  it('takes raw bytes exactly, non-UTF-8 included, and a string as UTF-8', () => {
    expect(percentEncode(Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x72, 0x73]))).toBe('latin%E9.rs');
    expect(percentEncode(new Uint8Array([0x61, 0x25]))).toBe('a%25');
    expect(percentEncode('é')).toBe(percentEncode(Buffer.from('é', 'utf8')));
  });

  it('only ever produces printable ASCII', () => {
    expect(percentEncode(ALL_BYTES)).toMatch(/^[\x21-\x7e]*$/);
  });
});

describe('percentDecode', () => {
  it('round-trips every byte value', () => {
    expect(percentDecode(percentEncode(ALL_BYTES)).equals(ALL_BYTES)).toBe(true);
    for (let b = 0; b < 256; b++) expect(percentDecode(percentEncode(Buffer.from([b])))[0]).toBe(b);
  });

  it('reads the printed and the stored spelling to the same bytes, hex in either case', () => {
    expect(percentDecode('café').equals(percentDecode('caf%C3%A9'))).toBe(true);
    expect(percentDecode('caf%c3%a9').equals(Buffer.from('café', 'utf8'))).toBe(true);
    expect(
      percentDecode('latin%E9.rs').equals(Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x72, 0x73])),
    ).toBe(true);
  });

  it('keeps a % that is not followed by two hex digits as a literal byte', () => {
    expect(percentDecode('100%').toString('latin1')).toBe('100%');
    expect(percentDecode('a%zzb%4').toString('latin1')).toBe('a%zzb%4');
    expect(percentDecode('%%41').toString('latin1')).toBe('%A');
    expect(percentDecode('').length).toBe(0);
  });
});

describe('normalizeEncodedPath', () => {
  it('gives user-typed text and its stored form one spelling', () => {
    expect(normalizeEncodedPath('café.ts')).toBe('caf%C3%A9.ts');
    expect(normalizeEncodedPath('caf%c3%a9.ts')).toBe('caf%C3%A9.ts');
    expect(normalizeEncodedPath('my file.ts')).toBe('my%20file.ts');
    expect(normalizeEncodedPath('100%.ts')).toBe('100%25.ts');
  });

  it('is the identity on stored paths and idempotent', () => {
    const stored = percentEncode(ALL_BYTES);
    expect(normalizeEncodedPath(stored)).toBe(stored);
    expect(normalizeEncodedPath(normalizeEncodedPath('a b%zz'))).toBe(normalizeEncodedPath('a b%zz'));
  });
});

describe('fileUri', () => {
  it('joins an encoded root and an encoded relative path', () => {
    expect(fileUri('/work/app', 'src/a.ts')).toBe('file:///work/app/src/a.ts');
    expect(fileUri('/work/my app/', 'caf%C3%A9.ts')).toBe('file:///work/my%20app/caf%C3%A9.ts');
    expect(fileUri(Buffer.from('/r\u00e9', 'latin1'), 'x')).toBe('file:///r%E9/x');
    expect(fileUri('/', 'a')).toBe('file:///a');
  });
});

describe('displayPath', () => {
  it('decodes to text, replacing bytes that are not UTF-8', () => {
    expect(displayPath('caf%C3%A9.ts')).toBe('café.ts');
    expect(displayPath('my%20file.ts')).toBe('my file.ts');
    expect(displayPath('latin%E9.rs')).toBe('latin\ufffd.rs');
  });

  it('is the decoded text for every string of up to four characters from an alphabet of escapes, non-ASCII and lone surrogates', () => {
    // Plain ASCII is returned as it is without decoding; the rest must not notice.
    const alphabet = ['a', '/', '%', '4', '1', 'C', '3', 'A', 'F', 'é', '€', '\ud800', '\x7f'];
    let strings = [''];
    let checked = 0;
    for (let length = 1; length <= 4; length++) {
      strings = strings.flatMap((s) => alphabet.map((c) => s + c));
      for (const s of strings) {
        expect(displayPath(s)).toBe(percentDecode(s).toString('utf8'));
        checked++;
      }
    }
    expect(checked).toBe(13 + 13 ** 2 + 13 ** 3 + 13 ** 4);
  });
});
