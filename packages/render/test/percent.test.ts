import { fileUri, percentDecodePath, percentEncodePath } from '../src/percent';

describe('percent-encoding of paths', () => {
  test('encodes %, :, @, space, control and non-ASCII bytes only', () => {
    expect(percentEncodePath('src/a b/c:d@e%f.ts')).toBe('src/a%20b/c%3Ad%40e%25f.ts');
    expect(percentEncodePath('café/naïve\t.rs')).toBe('caf%C3%A9/na%C3%AFve%09.rs');
    expect(percentEncodePath('a-b_c.d~e+f(g)[h]#?')).toBe('a-b_c.d~e+f(g)[h]#?');
  });

  test('raw bytes round-trip, invalid UTF-8 included', () => {
    const raw = Uint8Array.from([0x61, 0xff, 0x2f, 0x25, 0x7f, 0xc3]);
    const encoded = percentEncodePath(raw);
    expect(encoded).toBe('a%FF/%25%7F%C3');
    expect(Array.from(percentDecodePath(encoded))).toEqual(Array.from(raw));
    expect(Array.from(percentDecodePath('caf%c3%a9'))).toEqual(Array.from(Buffer.from('café')));
    expect(Array.from(percentDecodePath('café'))).toEqual(Array.from(Buffer.from('café')));
  });

  test('file URIs also encode # and ?', () => {
    expect(fileUri('/work/a b/#x?.ts')).toBe('file:///work/a%20b/%23x%3F.ts');
  });
});
