// The one path matcher shared by every lane, the live `re:` walk and filter diagnosis.
//
// A `file:`/`-file:` value is read in the first of these modes that fits the index
// (docs/cli.md, the `file:P` row):
// - a glob, when it holds `*` or `?`: matched from a path component's start to the end of
//   the path or to a `/` (`*_test.go`, `crates/*/src`; `*` and `?` stay inside a
//   component, `**` crosses them);
// - a prefix (`file:` only), when some indexed path continues it at `/`, `.` or its end;
// - a component start (for `-file:`, when some indexed path has a component starting
//   with it);
// - else, for `-file:`, a substring (`-file:_test`): an exclusion that matched nothing
//   would leave the search looking filtered. A `file:` value that matches nothing empties
//   the search and is diagnosed instead (diagnosis.ts: nearest paths).

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

/** A value with glob characters. */
function isPathGlob(value: string): boolean {
  return /[*?]/.test(value);
}

/** The regular expression of a glob value: from a component start to the end or a `/`. */
function globRegExp(glob: string): RegExp {
  let body = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        body += '(?:.*/)?';
      } else body += '.*';
    } else if (c === '*') body += '[^/]*';
    else if (c === '?') body += '[^/]';
    else body += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`(?:^|/)${body.replace(/\/$/, '')}(?:/|$)`);
}

type PathTest = (path: string) => boolean;

function valueTest(value: string, paths: readonly string[], role: 'include' | 'exclude'): PathTest {
  if (isPathGlob(value)) {
    const re = globRegExp(value);
    return (p) => re.test(p);
  }
  if (role === 'include' && prefixMode(value, paths)) return (p) => p.startsWith(value);
  const component: PathTest = (p) => startsComponent(p, value);
  if (role === 'include' || paths.some(component)) return component;
  return (p) => p.includes(value);
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
  const includeTests = include.map((v) => valueTest(v, paths, 'include'));
  const excludeTests = exclude.map((v) => valueTest(v, paths, 'exclude'));
  const matcher = ((path: string) => {
    if (includeTests.length > 0 && !includeTests.some((t) => t(path))) return false;
    return !excludeTests.some((t) => t(path));
  }) as PathMatcher;
  Object.defineProperty(matcher, 'includeCounts', { get: () => includeTests.map((t) => paths.filter(t).length) });
  return matcher;
}
