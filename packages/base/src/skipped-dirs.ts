/**
 * Directory names the walk never enters and the watcher never watches, wherever they are,
 * unless Git tracks files inside them (those are indexed, and so watched: vendored
 * dependencies committed under `node_modules/` are part of the repository). Frozen.
 */
export const ALWAYS_SKIPPED_DIRS: readonly string[] = Object.freeze(['.git', 'node_modules', 'target', '.trufflepig']);

/** Whether one path segment (a directory's own name, not a path) is always skipped. Exact, case-sensitive. */
export function isAlwaysSkippedDir(name: string): boolean {
  return ALWAYS_SKIPPED_DIRS.includes(name);
}
