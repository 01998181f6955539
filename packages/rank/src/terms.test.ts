import { splitAscii, splitIdentifier, splitUnicode } from './terms';

/** A deterministic generator (xorshift32), so a failure names a reproducible case. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

// Letters, digits, and the separators paths and identifiers hold, weighted toward runs of case.
const ALPHABET = 'aAbBzZqQxX09_-./@:$# \tabcdefXYZ123';

describe('splitIdentifier', () => {
  test('its ASCII loop gives the regular expressions’ answer on 20,000 random ASCII strings', () => {
    const next = generator(20261203);
    const differ: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const length = Math.floor(next() * 24);
      let s = '';
      for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
      if (splitAscii(s).join('|') !== splitUnicode(s).join('|')) differ.push(s);
    }
    expect(differ).toEqual([]);
  });

  test('an acronym before a word, a path, and text that is not ASCII', () => {
    expect(splitIdentifier('ABCdef')).toEqual(['ab', 'cdef']);
    expect(splitIdentifier('drivers/net/wireless/mwifiex_v4l2.c')).toEqual([
      'drivers',
      'net',
      'wireless',
      'mwifiex',
      'v',
      '4',
      'l',
      '2',
      'c',
    ]);
    expect(splitIdentifier('größeÜber_straße')).toEqual(splitUnicode('größeÜber_straße'));
    expect(splitIdentifier('größeÜber_straße')).toEqual(['größe', 'über', 'straße']);
  });
});
