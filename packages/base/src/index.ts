export const PACKAGE_NAME = '@trufflepig/base';

export { ok, fail, failWith, type CodedError, type Outcome } from './outcome';
export { makeDirectories } from './directories';
export { percentEncode, percentDecode, normalizeEncodedPath, fileUri, displayPath } from './stored-path';
export {
  canonicalOrAbsolute,
  isSameOrInside,
  probeDirectory,
  overlappingPairs,
  type DirectoryProbe,
  type PathOverlap,
} from './roots';
export { ALWAYS_SKIPPED_DIRS, isAlwaysSkippedDir } from './skipped-dirs';
export { GIT_DISCOVERY_OVERRIDES, gitEnvironment } from './git-env';
export { editDistance } from './edit-distance';
export {
  acquirePidLock,
  pidLockState,
  processAlive,
  readLockPid,
  removeDeadLockDrafts,
  removeThreadLock,
  type PidLock,
  type PidLockOptions,
  type PidLockState,
} from './pid-lock';
