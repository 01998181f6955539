// Reading Git objects, verified: a blob's bytes are hashed here as Git hashes them
// (`blob SIZE\0` + bytes, SHA-1 or SHA-256 by the id's length) and must give its id, so
// bytes shown as a commit's are the commit's, or nothing is shown.
import { createHash } from 'node:crypto';
import { BLOB_MAX_BYTES } from './limits';
import { gitArg } from './repo';
import { runGit, type GitRun } from './git';

export type BlobRead =
  | { readonly state: 'ok'; readonly oid: string; readonly bytes: Buffer }
  /** The commit or the path in it does not exist (history rewritten, or a wrong path). */
  | { readonly state: 'missing' }
  | { readonly state: 'too_large'; readonly size: number }
  /** The bytes Git gave do not hash to the object's id. */
  | { readonly state: 'corrupt'; readonly oid: string };

/** Git's object id of `bytes` as a blob, in the hash of `like` (40 hex: SHA-1, 64: SHA-256). */
export function blobId(bytes: Buffer, like: string): string {
  const hash = createHash(like.length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

/** `REV:PATH` as a cat-file request line, or undefined when no request line can name it (not UTF-8, a newline). */
function specOf(rev: string, gitPath: string): string | undefined {
  const arg = gitArg(gitPath);
  return arg === undefined || arg.includes('\n') ? undefined : `${rev}:${arg}`;
}

interface CheckRow {
  readonly oid?: string;
  readonly type?: string;
  readonly size?: number;
}

function parseCheck(run: GitRun, count: number): CheckRow[] {
  const lines = run.stdout.toString('latin1').split('\n');
  const rows: CheckRow[] = [];
  for (let i = 0; i < count; i++) {
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(lines[i] ?? '');
    rows.push(m ? { oid: m[1], type: m[2], size: Number(m[3]) } : {});
  }
  return rows;
}

/**
 * Blobs `REV:PATH` (paths are byte strings from the top level), each read and verified;
 * a request Git cannot resolve is `missing`, one over `maxBytes` is `too_large`. Undefined
 * when Git itself could not run (the caller reports the run).
 */
export function readBlobs(
  top: string,
  requests: readonly { readonly rev: string; readonly path: string }[],
  maxBytes = BLOB_MAX_BYTES,
): { reads: BlobRead[] } | { failed: GitRun } {
  const specs = requests.map((r) => specOf(r.rev, r.path));
  const asked = specs.filter((s): s is string => s !== undefined);
  const check = asked.length
    ? runGit(top, ['cat-file', '--batch-check'], { input: `${asked.join('\n')}\n` })
    : undefined;
  if (check && check.state !== 'ok') return { failed: check };
  const rows = check ? parseCheck(check, asked.length) : [];
  const reads: BlobRead[] = [];
  const wanted: string[] = [];
  let row = 0;
  for (const spec of specs) {
    if (spec === undefined) {
      reads.push({ state: 'missing' });
      continue;
    }
    const r = rows[row++];
    if (r.type !== 'blob' || r.oid === undefined || r.size === undefined) reads.push({ state: 'missing' });
    else if (r.size > maxBytes) reads.push({ state: 'too_large', size: r.size });
    else {
      reads.push({ state: 'ok', oid: r.oid, bytes: Buffer.alloc(0) });
      wanted.push(r.oid);
    }
  }
  if (wanted.length === 0) return { reads };
  // Read by object id: the ids were just resolved, so no path is looked up twice.
  const batch = runGit(top, ['cat-file', '--batch'], {
    input: `${wanted.join('\n')}\n`,
    maxBytes: wanted.length * (maxBytes + 200) + 4096,
  });
  if (batch.state !== 'ok') return { failed: batch };
  const out = batch.stdout;
  let at = 0;
  const contents = new Map<string, Buffer>();
  for (const oid of wanted) {
    const nl = out.indexOf(0x0a, at);
    if (nl < 0) break;
    const m = /^([0-9a-f]{40,64}) blob (\d+)$/.exec(out.toString('latin1', at, nl));
    if (!m || m[1] !== oid) break;
    const size = Number(m[2]);
    contents.set(oid, out.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return {
    reads: reads.map((r): BlobRead => {
      if (r.state !== 'ok') return r;
      const bytes = contents.get(r.oid);
      if (bytes === undefined || blobId(bytes, r.oid) !== r.oid) return { state: 'corrupt', oid: r.oid };
      return { state: 'ok', oid: r.oid, bytes };
    }),
  };
}

/** The type of each object `specs` name (`commit`, `blob`, ...), undefined for one this clone does not have. */
export function objectTypes(top: string, specs: readonly string[]): (string | undefined)[] | { failed: GitRun } {
  if (specs.some((s) => s.includes('\n'))) return specs.map(() => undefined);
  const run = runGit(top, ['cat-file', '--batch-check'], { input: `${specs.join('\n')}\n` });
  if (run.state !== 'ok') return { failed: run };
  return parseCheck(run, specs.length).map((r) => r.type);
}
