import { createHash, randomBytes } from 'node:crypto';
import { sha256Hex } from '../src/sha256';

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('is createHash("sha256") for every length around the block boundaries and for any text', () => {
    for (let n = 0; n <= 200; n++) {
      const text = 'x'.repeat(n);
      expect([n, sha256Hex(text)]).toEqual([n, reference(text)]);
    }
    for (let i = 0; i < 500; i++) {
      // Random bytes read as text: paths with any character, astral ones and lone surrogates included.
      const text = randomBytes(1 + (i % 300)).toString('latin1') + String.fromCodePoint(0x1f600 + i) + '\ud800';
      expect(sha256Hex(text)).toBe(reference(text));
    }
    expect(sha256Hex('/tmp/trufflepig-bench-kernel/kernel/linux-source-6.1').slice(0, 16)).toBe('fc6621a2847e5e8a');
  });
});
