import { spreadTwins, twinKey } from './twins';

describe('build twins', () => {
  it('keys one module built for several module systems alike', () => {
    const key = twinKey('node_modules/tar/dist/esm/unpack.js');
    expect(key).toBe('node_modules/tar/dist/unpack.js');
    expect(twinKey('node_modules/tar/dist/commonjs/unpack.js')).toBe(key);
    expect(twinKey('node_modules/diff/lib/index.es6.js')).toBe('node_modules/diff/lib/index.js');
    expect(twinKey('node_modules/diff/lib/index.mjs')).toBe('node_modules/diff/lib/index.js');
    expect(twinKey('node_modules/tinyglobby/dist/index.d.cts')).toBe('node_modules/tinyglobby/dist/index.d.ts');
    expect(twinKey('node_modules/tinyglobby/dist/index.d.mts')).toBe('node_modules/tinyglobby/dist/index.d.ts');
  });

  it('keeps apart what is not a build of the same module', () => {
    expect(twinKey('src/index.ts')).not.toBe(twinKey('src/index.d.ts'));
    expect(twinKey('lib/esm.js')).toBe('lib/esm.js');
    expect(twinKey('src/node/fs.js')).not.toBe(twinKey('src/browser/fs.js'));
    expect(twinKey('src/main.rs')).toBeUndefined();
    expect(twinKey('README.md')).toBeUndefined();
  });

  it('moves a later twin after every other item and keeps the rest in order', () => {
    const sizes: Record<string, number> = {
      'a/dist/esm/x.js': 1000,
      'b/y.js': 10,
      'a/dist/commonjs/x.js': 1200,
      'c/z.rs': 5,
      'a/dist/cjs/x.js': 5000,
    };
    const out = spreadTwins(
      Object.keys(sizes),
      (p) => p,
      (p) => sizes[p],
    );
    // The 5,000-byte file is more than twice either build: not a twin, it keeps its place.
    expect(out).toEqual(['a/dist/esm/x.js', 'b/y.js', 'c/z.rs', 'a/dist/cjs/x.js', 'a/dist/commonjs/x.js']);
  });
});
