import { RRF_K } from './limits';

/** One file's representative in a lane. Lanes list at most one entry per path, best first. */
export interface LaneEntry<T> {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Overrides the lane weight for this entry (filename evidence). */
  readonly weight?: number;
  readonly payload: T;
}

export interface Lane<T> {
  readonly name: string;
  readonly weight: number;
  readonly entries: readonly LaneEntry<T>[];
}

export interface FusedFile<T> {
  readonly path: string;
  readonly score: number;
  readonly tier: number;
  /** Name of the earliest lane that holds this file: it supplies the representative. */
  readonly lane: string;
  readonly representative: LaneEntry<T>;
}

export interface FuseOptions {
  /** Multiplier for a path's contributions (the path prior). */
  readonly prior?: (path: string) => number;
  /** Lower tiers rank first regardless of score (identifier queries). */
  readonly tierOf?: (path: string) => number;
}

/**
 * Reciprocal rank fusion of file lanes. Scores are sums of weight × prior / (k + rank);
 * order is tier, score, then path and span start, so a fixed input always yields the same order.
 */
export function fuseLanes<T>(lanes: readonly Lane<T>[], options: FuseOptions = {}): FusedFile<T>[] {
  const prior = options.prior ?? (() => 1);
  const byPath = new Map<string, { score: number; lane: string; rep: LaneEntry<T> }>();
  for (const lane of lanes) {
    lane.entries.forEach((entry, index) => {
      const weight = entry.weight ?? lane.weight;
      const contribution = (weight * prior(entry.path)) / (RRF_K + index + 1);
      const seen = byPath.get(entry.path);
      if (seen) seen.score += contribution;
      else byPath.set(entry.path, { score: contribution, lane: lane.name, rep: entry });
    });
  }
  const fused: FusedFile<T>[] = [];
  for (const [path, v] of byPath) {
    fused.push({
      path,
      score: v.score,
      tier: options.tierOf ? options.tierOf(path) : 0,
      lane: v.lane,
      representative: v.rep,
    });
  }
  fused.sort(compareFused);
  return fused;
}

export function compareFused<T>(a: FusedFile<T>, b: FusedFile<T>): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.score !== b.score) return b.score - a.score;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.representative.start - b.representative.start;
}
