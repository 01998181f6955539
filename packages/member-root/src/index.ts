export const PACKAGE_NAME = '@trufflepig/member-root';

export type { RootError, RootErrorCode, Outcome } from './outcome';
export { canonicalRoot } from './canonical';
// Owned by @trufflepig/base; re-exported for callers of this entry.
export { canonicalOrAbsolute, isSameOrInside } from '@trufflepig/base';
export {
  rootHash,
  cacheBase,
  cacheDirForRoot,
  checkCacheOutsideRoots,
  effectiveCacheBase,
  explicitCacheBaseOf,
  type CacheDirOptions,
} from './cache-dir';
export { gitInfo, type GitInfo } from './git';
export {
  belongsToMember,
  checkExplicitRoot,
  findHome,
  matchExplicitRoot,
  sameMemberByGit,
  worktreeStandIn,
  type Home,
  type MemberRef,
} from './membership';
export { checkRoots, type RootConflict } from './overlap';
export { ROOT_HASH_HEX_LENGTH, CACHE_APP_DIR, GIT_PROBE_TIMEOUT_MS } from './limits';
