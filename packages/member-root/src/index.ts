export const PACKAGE_NAME = '@trufflepig/member-root';

export type { RootError, RootErrorCode, Outcome } from './outcome';
export { canonicalRoot, canonicalOrAbsolute, isSameOrInside } from './canonical';
export { rootHash, cacheBase, cacheDirForRoot, checkCacheOutsideRoots, type CacheDirOptions } from './cache-dir';
export { ROOT_HASH_HEX_LENGTH, CACHE_APP_DIR } from './limits';
