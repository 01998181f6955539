// The version every request and reply carries (issue 14, "Version handshake"): a client
// and a daemon of different versions never act on each other's requests and replies.

/**
 * The release this client or daemon belongs to. Its owner is this package's package.json
 * `version` (every Trufflepig package is versioned in lockstep); it is repeated here
 * because the CLI's fast path bundles this module and cannot load JSON. A test fails when
 * the two differ.
 */
export const TRUFFLEPIG_VERSION = '0.1.0';

function parse(v: string): { core: number[]; pre: string[] } | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v);
  return m ? { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] } : undefined;
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b);
  if (numeric.test(a) !== numeric.test(b)) return numeric.test(a) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Semantic-version order of `a` and `b`: negative when `a` is older, positive when newer,
 * 0 when they have the same precedence; undefined when either is not `X.Y.Z[-pre][+build]`.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i] - y.core[i];
  // A release is newer than its pre-releases.
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const c = compareIdentifiers(x.pre[i], y.pre[i]);
    if (c !== 0) return c;
  }
  return x.pre.length - y.pre.length;
}

/** True when a daemon of `daemonVersion` is newer than this client: the client must not replace it. */
export function daemonIsNewer(daemonVersion: string | undefined, clientVersion: string = TRUFFLEPIG_VERSION): boolean {
  if (daemonVersion === undefined) return false;
  return (compareVersions(daemonVersion, clientVersion) ?? 0) > 0;
}
