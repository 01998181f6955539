// Build twins: one module published twice by its package, once per module system
// (`dist/esm/unpack.js` and `dist/commonjs/unpack.js`, `lib/index.mjs` and
// `lib/index.es6.js`). Each twin says what the other says, so a page listing both spends a
// slot and an agent's tokens on a copy: on the concept replay tar's two `unpack.js` builds
// stood 4th and 5th for "write a file safely through a temporary name and rename it into
// place", pushing write-file-atomic to 6th. Pure: ranked items in, the same items out in a
// stable new order; nothing is dropped.

import { TWIN_SIZE_RATIO_MAX } from './limits';

/** Directories that name a module system or language level, not a part of the code. */
const BUILD_VARIANT_DIRS: ReadonlySet<string> = new Set([
  'esm',
  'cjs',
  'commonjs',
  'mjs',
  'es',
  'es5',
  'es6',
  'es2015',
  'es2016',
  'es2017',
  'es2018',
  'es2019',
  'es2020',
  'es2021',
  'es2022',
  'esnext',
  'umd',
  'amd',
]);

/** File names of one module in several builds: `x.mjs`, `x.cjs`, `x.es6.js`, `x.esm.js`, `x.d.mts`. */
const VARIANT_NAME = /^(.+?)(?:\.(?:esm|es6|es5|cjs|mjs|umd|module|min))?\.(d\.)?(?:[mc]?js|[mc]?ts)$/;

/**
 * A path with its build-variant directories left out and its module-system extension made
 * plain (`node_modules/tar/dist/esm/unpack.js` → `node_modules/tar/dist/unpack.js`,
 * `lib/index.es6.js` → `lib/index.js`, `index.d.cts` → `index.d.ts`); undefined for a
 * path that is not JavaScript or TypeScript. Two paths with one key are twins.
 */
export function twinKey(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts.pop()!;
  const m = VARIANT_NAME.exec(name);
  if (!m) return undefined;
  const ts = /ts$/.test(name);
  const plain = `${m[1]}.${m[2] ?? ''}${ts ? 'ts' : 'js'}`;
  return [...parts.filter((d) => !BUILD_VARIANT_DIRS.has(d)), plain].join('/');
}

/**
 * Items whose twin (same `twinKey`, sizes within TWIN_SIZE_RATIO_MAX of each other) ranks
 * earlier move, in their order, after every other item; the rest keep their ranks.
 */
export function spreadTwins<T>(
  ranked: readonly T[],
  pathOf: (item: T) => string,
  sizeOf: (item: T) => number | undefined,
): T[] {
  const seen = new Map<string, number[]>();
  const first: T[] = [];
  const later: T[] = [];
  for (const item of ranked) {
    const key = twinKey(pathOf(item));
    const size = key === undefined ? undefined : sizeOf(item);
    if (key === undefined || size === undefined) {
      first.push(item);
      continue;
    }
    const sizes = seen.get(key) ?? [];
    const twin = sizes.some((s) => Math.max(s, size) <= TWIN_SIZE_RATIO_MAX * Math.max(1, Math.min(s, size)));
    sizes.push(size);
    seen.set(key, sizes);
    (twin ? later : first).push(item);
  }
  return [...first, ...later];
}
