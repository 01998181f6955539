// The stored-path codec is owned by @trufflepig/base. This module only re-exports it: the
// public entry (`export * from './paths'`) keeps offering it to callers that import it from
// @trufflepig/index, and tools/bench/storage/dump.js requires dist/paths.js directly.
export { percentEncode, percentDecode, normalizeEncodedPath, fileUri, displayPath } from '@trufflepig/base';
