// Fusion across workspace members (workspace contract, "Retrieval and output"). Each
// member ranks its own candidates against its own index; scores from separate indexes
// are not comparable, so only ranks cross the boundary. Reciprocal rank fusion with one
// list per member and equal weights is monotone in rank, so the fused order is: by rank
// within the member, then by path, then by span start, then by member name. The tie
// breaks make the order a pure function of the member lists, whatever order the members
// finished in.

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
 */
export function fuseMembers<T extends MemberHitKey>(
  lists: readonly MemberList<T>[],
  standing?: (hit: T) => LaneStanding | undefined,
): MemberFusedHit<T>[] {
  const all = lists.flatMap((list) =>
    list.hits.map((hit, i) => ({ fused: { member: list.member, memberRank: i + 1, hit }, standing: standing?.(hit) })),
  );
  const byLanes = all.length > 0 && all.every((x) => x.standing !== undefined);
  return all
    .sort((x, y) => {
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
    })
    .map((x) => x.fused);
}

/**
 * Each member's equal share of a retained-entry ceiling: members are never starved by a
 * larger neighbour, and the share of a member with fewer hits is not handed on, so the
 * retained set does not depend on which member happened to have more matches.
 */
export function memberShare(ceiling: number, members: number): number {
  return members <= 0 ? 0 : Math.floor(ceiling / members);
}
