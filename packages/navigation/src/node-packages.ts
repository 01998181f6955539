// Node packages for navigation: a bare specifier (`require('npm-install-checks')`,
// `import gt from 'semver/functions/gt'`) names a package in a `node_modules` directory of
// the importing file or of one of its parents, the way Node resolves it, and the file inside
// it through the package's `exports` map, else its `main`, else `index.js`. Only what the
// index holds counts: a repository that commits its dependencies (npm's own CLI vendors 300
// packages) resolves calls into them; one that does not keeps them `unresolved`. Before,
// every bare specifier was unresolved (an agent trial on npm: 6 of 9 `checkEngine` sites).
//
// Pure apart from reading `package.json` as indexed (@trufflepig/index readIndexedBytes),
// once per reader.
import * as path from 'node:path';
import { percentEncode } from '@trufflepig/base/stored-path';
import { readIndexedBytes, type IndexReader } from '@trufflepig/index';

/** An `exports` value: a path, conditions, a fallback list, or null (not exported). */
type ExportsValue = string | null | readonly ExportsValue[] | { readonly [key: string]: ExportsValue };

interface Manifest {
  readonly main?: string;
  readonly exports?: ExportsValue;
}

/** The conditions Node matches for `require` and for `import`, in its own set (key order of the map decides). */
const REQUIRE_CONDITIONS: ReadonlySet<string> = new Set(['node', 'require', 'default']);
const IMPORT_CONDITIONS: ReadonlySet<string> = new Set(['node', 'import', 'default']);

const manifestsByReader = new WeakMap<IndexReader, Map<string, Manifest | null>>();

/** A package's parsed `package.json`, null when the index does not hold it or it is not an object. */
function manifestOf(reader: IndexReader, packageDir: string): Manifest | null {
  let cache = manifestsByReader.get(reader);
  if (cache === undefined) {
    cache = new Map();
    manifestsByReader.set(reader, cache);
  }
  let manifest = cache.get(packageDir);
  if (manifest === undefined) {
    manifest = null;
    const f = reader.fileByPath(percentEncode(`${packageDir}/package.json`));
    const bytes = f && !f.excluded ? readIndexedBytes(reader.root, f) : undefined;
    if (bytes) {
      try {
        const parsed: unknown = JSON.parse(bytes.toString('utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          const { main, exports } = parsed as { main?: unknown; exports?: unknown };
          manifest = {
            ...(typeof main === 'string' ? { main } : {}),
            ...(exports !== undefined ? { exports: exports as ExportsValue } : {}),
          };
        }
      } catch {
        /* a package.json that is not JSON: no package here */
      }
    }
    cache.set(packageDir, manifest);
  }
  return manifest;
}

/** `@scope/name/sub/path` → { name: '@scope/name', subpath: 'sub/path' }; undefined for a relative, absolute or `node:` spelling. */
export function splitBareSpecifier(spelled: string): { name: string; subpath: string } | undefined {
  if (spelled === '' || spelled.startsWith('.') || spelled.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(spelled))
    return undefined;
  const parts = spelled.split('/');
  const take = spelled.startsWith('@') ? 2 : 1;
  if (parts.length < take || parts.slice(0, take).some((p) => p === '')) return undefined;
  return { name: parts.slice(0, take).join('/'), subpath: parts.slice(take).join('/') };
}

/** The target a conditional `exports` value picks: its first key Node's conditions hold, depth first. */
function conditionalTarget(value: ExportsValue | undefined, conditions: ReadonlySet<string>): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = conditionalTarget(v, conditions);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value as { readonly [key: string]: ExportsValue })) {
      if (!conditions.has(key)) continue;
      const t = conditionalTarget(v, conditions);
      if (t !== undefined) return t;
    }
  }
  return undefined;
}

/**
 * The package-relative file an `exports` map gives for `./SUBPATH` (`.` for the package
 * itself): an exact key, else the `*` pattern with the longest prefix. Undefined when the
 * map does not export it.
 */
export function exportsTarget(
  exportsField: ExportsValue,
  subpath: string,
  conditions: ReadonlySet<string>,
): string | undefined {
  const wanted = subpath === '' ? '.' : `./${subpath}`;
  const isSubpathMap =
    exportsField !== null &&
    typeof exportsField === 'object' &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((k) => k.startsWith('.'));
  if (!isSubpathMap) return wanted === '.' ? conditionalTarget(exportsField, conditions) : undefined;
  const map = exportsField as { readonly [key: string]: ExportsValue };
  if (Object.prototype.hasOwnProperty.call(map, wanted)) return conditionalTarget(map[wanted], conditions);
  let best: { prefix: string; suffix: string; value: ExportsValue } | undefined;
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0 || key.indexOf('*', star + 1) >= 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (wanted.length < prefix.length + suffix.length || !wanted.startsWith(prefix) || !wanted.endsWith(suffix))
      continue;
    if (!best || prefix.length > best.prefix.length) best = { prefix, suffix, value };
  }
  if (!best) return undefined;
  const target = conditionalTarget(best.value, conditions);
  const matched = wanted.slice(best.prefix.length, wanted.length - best.suffix.length);
  return target?.replace(/\*/g, matched);
}

/**
 * The root-relative paths a bare specifier may name from the file `from` (display path),
 * most likely first, before extensions are tried: the nearest `node_modules/NAME` holding a
 * `package.json` the index has, its `exports` entry, else its `main` or the subpath, else
 * `index`. Empty when no such package is indexed (another repository's, or not committed).
 * `esm` picks the `import` conditions of an `exports` map (an ES module importing).
 */
export function nodePackagePaths(reader: IndexReader, from: string, spelled: string, esm: boolean): string[] {
  const spec = splitBareSpecifier(spelled);
  if (!spec) return [];
  for (let dir = path.posix.dirname(from); ; dir = path.posix.dirname(dir)) {
    const base = dir === '.' || dir === '/' ? '' : dir;
    // Node never looks in node_modules/node_modules.
    if (path.posix.basename(base) !== 'node_modules') {
      const packageDir = path.posix.join(base, 'node_modules', spec.name);
      const manifest = manifestOf(reader, packageDir);
      if (manifest) {
        const out: string[] = [];
        if (manifest.exports !== undefined) {
          const target = exportsTarget(manifest.exports, spec.subpath, esm ? IMPORT_CONDITIONS : REQUIRE_CONDITIONS);
          if (target !== undefined) out.push(path.posix.join(packageDir, target));
        }
        // Without an exports entry (or beside it, for bundlers that read files directly).
        if (spec.subpath !== '') out.push(path.posix.join(packageDir, spec.subpath));
        else {
          if (manifest.main !== undefined) out.push(path.posix.join(packageDir, manifest.main));
          out.push(path.posix.join(packageDir, 'index'));
        }
        return out;
      }
    }
    if (base === '') return [];
  }
}
