// The one path matcher shared by every lane, the live `re:` walk and filter diagnosis.

function startsComponent(path: string, value: string): boolean {
  if (path.startsWith(value)) return true;
  const i = path.indexOf('/' + value);
  return i >= 0;
}

/** Whether `value` is used as a plain prefix for this index (some path continues it at `/`, `.` or its end). */
function prefixMode(value: string, paths: readonly string[]): boolean {
  if (value.endsWith('/')) return paths.some((p) => p.startsWith(value));
  return paths.some(
    (p) => p.startsWith(value) && (p.length === value.length || p[value.length] === '/' || p[value.length] === '.'),
  );
}

export interface PathMatcher {
  (path: string): boolean;
  /** Per `file:` value, the number of indexed paths it matched on its own. */
  readonly includeCounts: readonly number[];
}

export function createPathMatcher(
  include: readonly string[],
  exclude: readonly string[],
  paths: readonly string[],
): PathMatcher {
  const includeTests = include.map((v) =>
    prefixMode(v, paths) ? (p: string) => p.startsWith(v) : (p: string) => startsComponent(p, v),
  );
  const excludeTests = exclude.map((v) => (p: string) => startsComponent(p, v));
  const matcher = ((path: string) => {
    if (includeTests.length > 0 && !includeTests.some((t) => t(path))) return false;
    return !excludeTests.some((t) => t(path));
  }) as PathMatcher;
  Object.defineProperty(matcher, 'includeCounts', { get: () => includeTests.map((t) => paths.filter(t).length) });
  return matcher;
}
