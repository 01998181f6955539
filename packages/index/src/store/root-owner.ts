// Which root an index belongs to (docs/spec/retrieval.md §3). Every publication records the
// canonical root and the filesystem identity (dev + inode) of its directory, so a cache
// directory never answers for, or is overwritten by, another root.
import * as fs from 'node:fs';
import { fail, ok, type Outcome } from '../errors';
import { getMeta, setMeta } from './schema';
import type { Database } from './sql';

/** Meta keys of the owner record. */
const ROOT_KEY = 'root';
const IDENTITY_KEY = 'root_identity';

/** `dev:ino` of a directory (the format of result entries' `root_id`), undefined when it cannot be read. */
export function rootIdentity(root: string): string | undefined {
  try {
    const st = fs.statSync(root, { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * How an index relates to the root it is opened for:
 * - `own`: built for this root (or nothing recorded yet: a fresh or unpublished database);
 * - `recreated`: same path, another directory (deleted and recreated): rebuild, never reuse;
 * - `other`: built for another root: refuse.
 */
export type Ownership =
  | { readonly state: 'own' }
  | { readonly state: 'recreated'; readonly recorded: string; readonly current: string }
  | { readonly state: 'other'; readonly builtFor: string };

export function ownershipOf(db: Database, root: string): Ownership {
  const builtFor = getMeta(db, ROOT_KEY);
  if (builtFor === undefined) return { state: 'own' };
  if (builtFor !== root) return { state: 'other', builtFor };
  const recorded = getMeta(db, IDENTITY_KEY);
  const current = rootIdentity(root);
  // An index from before identities were recorded is trusted by path and stamped at its next publication.
  if (recorded === undefined || current === undefined || recorded === current) return { state: 'own' };
  return { state: 'recreated', recorded, current };
}

/** Whether the owner record lacks this root's identity (a publication should stamp it). */
export function ownerUnstamped(db: Database, root: string): boolean {
  const current = rootIdentity(root);
  return current !== undefined && getMeta(db, IDENTITY_KEY) !== current;
}

/** Stamp the owner record: part of every publication. */
export function recordOwner(db: Database, root: string): void {
  setMeta(db, ROOT_KEY, root);
  const identity = rootIdentity(root);
  if (identity !== undefined) setMeta(db, IDENTITY_KEY, identity);
}

/** The refusal for an index of another root: names both roots and what to do. */
export function rootMismatch<T>(cacheDir: string, builtFor: string, root: string): Outcome<T> {
  return fail(
    'cache_root_mismatch',
    `the cache directory ${cacheDir} holds the index of ${builtFor}, not of ${root}; pass --cache the cache base (each root gets its own subdirectory of it), or delete ${cacheDir}`,
  );
}

export interface Claim {
  /** The published database to reconcile, or undefined to start from nothing. */
  readonly db: Database | undefined;
  /** A rebuild (the root was recreated): its first publication must follow this generation. */
  readonly generationFloor?: number;
}

/**
 * The published database of `cacheDir` as a reconcile of `root` may use it: refused when it
 * belongs to another root (closed, left as it is), dropped when its root was recreated.
 */
export function claimForReconcile(db: Database | undefined, root: string, cacheDir: string): Outcome<Claim> {
  if (!db) return { ok: true, value: { db: undefined } };
  const owner = ownershipOf(db, root);
  if (owner.state === 'own') return ok({ db });
  // A root that cannot be read is that problem first (nothing will be published either way).
  if (rootIdentity(root) === undefined) {
    db.close();
    return fail('root_unreadable', `cannot read the root ${root}; check --root`);
  }
  const generation = Number(getMeta(db, 'generation') ?? '0');
  db.close();
  if (owner.state === 'other') return rootMismatch(cacheDir, owner.builtFor, root);
  return ok({ db: undefined, generationFloor: generation });
}
