// Fusion across workspace members (workspace contract, "Retrieval and output"). Each
// member ranks its own candidates against its own index; scores from separate indexes
// are not comparable, so only ranks cross the boundary. Reciprocal rank fusion with one
// list per member and equal weights is monotone in rank, so the fused order is: by rank
// within the member, then by path, then by span start, then by member name. The tie
// breaks make the order a pure function of the member lists, whatever order the members
// finished in.

import { MEMBER_TAIL_FACTOR } from './limits';

/** Where a member's hit lies: the tie-break keys. */
export interface MemberHitKey {
  readonly path: string;
  readonly start: number;
}

/** One member's ranked list, best first, one representative per file. */
export interface MemberList<T extends MemberHitKey> {
  readonly member: string;
  readonly hits: readonly T[];
}

export interface MemberFusedHit<T extends MemberHitKey> {
  readonly member: string;
  /** 1-based rank within its member. */
  readonly memberRank: number;
  readonly hit: T;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A hit's standing in its member's fusion of lanes: tier (lower first) and reciprocal-rank score. */
export interface LaneStanding {
  readonly tier: number;
  readonly score: number;
}

/**
 * Fuse member lists. When every hit carries its lane standing (`standing`), the members'
 * file lanes are fused as one: by tier, then reciprocal-rank score (a sum over lanes of
 * weight × path prior / (k + rank): ranks and paths only, so comparable across indexes),
 * then rank within the member; a member whose files sit in more lanes, higher, gets more of
 * the page. Otherwise the lists interleave by rank. Ties break by path, span and member.
 *
 * Then the member-tail rule (docs/workspace.md): a member's k-th file never stands behind
 * another member's file ranked deeper than MEMBER_TAIL_FACTOR × k in its own member, unless
 * that file is of a better tier. A member whose files sit in many lanes still leads, but
 * cannot push a neighbour's best file off the first page with its weak tail.
 */
export function fuseMembers<T extends MemberHitKey>(
  lists: readonly MemberList<T>[],
  standing?: (hit: T) => LaneStanding | undefined,
): MemberFusedHit<T>[] {
  const all = lists.flatMap((list) =>
    list.hits.map((hit, i) => ({ fused: { member: list.member, memberRank: i + 1, hit }, standing: standing?.(hit) })),
  );
  const byLanes = all.length > 0 && all.every((x) => x.standing !== undefined);
  const preferred = all.sort((x, y) => {
    const a = x.fused;
    const b = y.fused;
    if (byLanes && x.standing!.tier !== y.standing!.tier) return x.standing!.tier - y.standing!.tier;
    if (byLanes && x.standing!.score !== y.standing!.score) return y.standing!.score - x.standing!.score;
    return (
      a.memberRank - b.memberRank ||
      compareText(a.hit.path, b.hit.path) ||
      a.hit.start - b.hit.start ||
      compareText(a.member, b.member)
    );
  });
  if (!byLanes) return preferred.map((x) => x.fused);
  return boundMemberTails(preferred.map((x, at) => ({ fused: x.fused, tier: x.standing!.tier, at })));
}

interface Placed<T extends MemberHitKey> {
  readonly fused: MemberFusedHit<T>;
  readonly tier: number;
  /** Index in the preferred order. */
  readonly at: number;
}

/**
 * Reorders a preferred order so that no hit stands behind another member's hit ranked deeper
 * than MEMBER_TAIL_FACTOR × its own member rank with the same or a worse tier. Greedy: the
 * next hit is the first unplaced one of the preferred order, unless placing it would pass
 * another member's next hit that it owes the place to; then that hit is taken instead (and
 * checked the same way: member ranks fall by a factor each step, so this ends). Each
 * member's hits keep their preferred relative order; an order that already obeys the rule
 * comes back unchanged.
 */
function boundMemberTails<T extends MemberHitKey>(preferred: readonly Placed<T>[]): MemberFusedHit<T>[] {
  const queues = new Map<string, Placed<T>[]>();
  for (const p of preferred) {
    const q = queues.get(p.fused.member);
    if (q) q.push(p);
    else queues.set(p.fused.member, [p]);
  }
  if (queues.size < 2) return preferred.map((p) => p.fused);
  const heads = new Map<string, number>([...queues.keys()].map((m) => [m, 0]));
  const headOf = (member: string): Placed<T> | undefined => queues.get(member)![heads.get(member)!];
  const owes = (passer: Placed<T>, head: Placed<T>): boolean =>
    passer.fused.memberRank > MEMBER_TAIL_FACTOR * head.fused.memberRank && passer.tier >= head.tier;
  const out: MemberFusedHit<T>[] = [];
  const placed = new Set<Placed<T>>();
  let next = 0;
  while (out.length < preferred.length) {
    while (placed.has(preferred[next])) next++;
    let chosen = preferred[next];
    for (;;) {
      // Of the heads this hit would pass, the one first in the preferred order.
      let owed: Placed<T> | undefined;
      for (const member of queues.keys()) {
        if (member === chosen.fused.member) continue;
        const head = headOf(member);
        if (head !== undefined && owes(chosen, head) && (owed === undefined || head.at < owed.at)) {
          owed = head;
        }
      }
      if (owed === undefined) break;
      chosen = owed;
    }
    placed.add(chosen);
    heads.set(chosen.fused.member, heads.get(chosen.fused.member)! + 1);
    out.push(chosen.fused);
  }
  return out;
}

/**
 * Each member's equal share of a retained-entry ceiling: members are never starved by a
 * larger neighbour, and the share of a member with fewer hits is not handed on, so the
 * retained set does not depend on which member happened to have more matches.
 */
export function memberShare(ceiling: number, members: number): number {
  return members <= 0 ? 0 : Math.floor(ceiling / members);
}
