import * as path from 'node:path';
import { canonicalOrAbsolute, isSameOrInside } from '@trufflepig/base';
import { gitInfo } from './git';
import { fail, ok, type Outcome } from './outcome';

export interface MemberRef {
  name: string;
  /** The member's configured root (canonicalized here before any comparison). */
  root: string;
}

export interface Home {
  name: string;
  /** The root to search: the member's canonical root, or the worktree standing in for it. */
  root: string;
  /** True when `root` is a linked worktree standing in for the member's configured root. */
  worktree: boolean;
}

/**
 * The directory inside a linked worktree that stands in for `memberRoot`, when
 * `candidateDir` lies in a linked worktree of the member's repository; else undefined.
 *
 * Decided by canonical Git common directory, never by path prefix: a nested unrelated
 * repository has its own common directory and so is not a worktree of the member.
 * When the member root is a subdirectory of its repository, the stand-in is the same
 * subdirectory of the worktree, and the candidate must lie inside it.
 */
export function worktreeStandIn(memberRoot: string, candidateDir: string): string | undefined {
  const candidate = gitInfo(candidateDir);
  if (!candidate.ok || !candidate.value.insideWorkTree || !candidate.value.linkedWorktree) return undefined;
  return standInFor(memberRoot, canonicalOrAbsolute(candidateDir), candidate.value);
}

type WorkTree = { topLevel: string; commonDir: string };

function standInFor(memberRoot: string, canonicalCandidate: string, candidate: WorkTree): string | undefined {
  const member = gitInfo(memberRoot);
  if (!member.ok || !member.value.insideWorkTree) return undefined;
  if (member.value.commonDir !== candidate.commonDir) return undefined;
  // The member's own checkout is plain path containment, not a worktree stand-in.
  if (member.value.topLevel === candidate.topLevel) return undefined;
  const subpath = path.relative(member.value.topLevel, canonicalOrAbsolute(memberRoot));
  const standIn = path.join(candidate.topLevel, subpath);
  return isSameOrInside(standIn, canonicalCandidate) ? standIn : undefined;
}

/** Whether `candidateDir` is inside a linked worktree of the member's repository. */
export function sameMemberByGit(memberRoot: string, candidateDir: string): boolean {
  return worktreeStandIn(memberRoot, candidateDir) !== undefined;
}

/**
 * Whether `dir` belongs to the member: inside its configured root (canonical paths), or
 * inside a linked worktree of it at any location. Suitable as config's
 * `belongsToMember` callback.
 */
export function belongsToMember(memberRoot: string, dir: string): boolean {
  if (isSameOrInside(canonicalOrAbsolute(memberRoot), canonicalOrAbsolute(dir))) return true;
  return sameMemberByGit(memberRoot, dir);
}

/**
 * The home member of an invocation directory.
 *
 * A linked worktree of a member is home for that member wherever it lives, even inside
 * another member's tree or the member's own tree, so the Git check runs first. Otherwise
 * the member whose canonical root contains the directory is home (deepest wins; overlaps
 * are configuration errors anyway). Git is consulted for members only when the
 * invocation directory is in a linked worktree, so the common case costs one probe.
 */
export function findHome(members: readonly MemberRef[], invocationDir: string): Home | undefined {
  const invocation = canonicalOrAbsolute(invocationDir);
  const info = gitInfo(invocation);
  if (info.ok && info.value.insideWorkTree && info.value.linkedWorktree) {
    let best: Home | undefined;
    for (const member of members) {
      const standIn = standInFor(member.root, invocation, info.value);
      if (standIn !== undefined && (best === undefined || standIn.length > best.root.length)) {
        best = { name: member.name, root: standIn, worktree: true };
      }
    }
    if (best) return best;
  }
  let home: Home | undefined;
  for (const member of members) {
    const root = canonicalOrAbsolute(member.root);
    if (isSameOrInside(root, invocation) && (home === undefined || root.length > home.root.length)) {
      home = { name: member.name, root, worktree: false };
    }
  }
  return home;
}

/**
 * The member an explicit --root activates: the root must equal a member root exactly
 * (canonical paths) or be exactly the stand-in directory of a linked worktree of one.
 * A subdirectory of a member does not match: it asks for a subtree, not a member.
 */
export function matchExplicitRoot(members: readonly MemberRef[], explicitRoot: string): Home | undefined {
  const explicit = canonicalOrAbsolute(explicitRoot);
  for (const member of members) {
    const root = canonicalOrAbsolute(member.root);
    if (root === explicit) return { name: member.name, root, worktree: false };
  }
  const info = gitInfo(explicit);
  if (!info.ok || !info.value.insideWorkTree || !info.value.linkedWorktree) return undefined;
  for (const member of members) {
    if (standInFor(member.root, explicit, info.value) === explicit) {
      return { name: member.name, root: explicit, worktree: true };
    }
  }
  return undefined;
}

/**
 * The --root rules of the workspace contract (docs/spec/workspace.md) for one request. With an explicitly selected
 * workspace, a root that is neither a member root nor a worktree stand-in of one is an
 * error (`root_not_member`). Without one, a non-matching root simply does not activate
 * discovery: the result is `undefined` and the caller searches that root alone.
 */
export function checkExplicitRoot(
  members: readonly MemberRef[],
  explicitRoot: string,
  workspaceExplicit: boolean,
): Outcome<Home | undefined> {
  const match = matchExplicitRoot(members, explicitRoot);
  if (match || !workspaceExplicit) return ok(match);
  const names = members.map((m) => m.name).join(', ');
  return fail(
    'root_not_member',
    `--root ${canonicalOrAbsolute(explicitRoot)} is not a member root or a linked worktree of one (members: ${names}); pass a member root, use --member NAME, or drop --workspace`,
  );
}
