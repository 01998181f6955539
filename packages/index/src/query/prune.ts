// The any-term lane without the regions that cannot rank (docs/ranking.md, "Decision: prune
// the lone common word"). The lane scores every region holding a content word of the query
// and keeps each file's best region, LANE_FILE_CAP files. A region holding a single content
// word scores at most that word's bound (fts.ts scoreBound: its coordination is 1 / words).
// When a query has a word common enough to be costly (`device`: 105,000 of the kernel's
// 190,000 regions), the regions holding it alone are left out if the files found without
// them already fill the lane with scores above that bound; a common word whose bound is
// not below the lane's last file keeps all its regions. The lane's files, order, scores and
// representative regions are the same either way: a left-out region scores below every
// file the lane keeps.
import type { FtsTerm } from '@trufflepig/rank';
import { allRows, runStatement } from '../store/sql';
import { ftsFormsExpression, scoreBound, scoredRegions, termText, type FtsRegionHit } from './fts';
import { anyTermFilesOf, type LaneContext } from './lanes';

/** When the proof is tried (values passed in; the defaults are in limits.ts). */
export interface PruneSettings {
  /** Regions a word must be in to count as common. */
  readonly commonWordRegions: number;
  /** Content words a query needs. */
  readonly minContentWords: number;
}

/** One query word: its FTS forms, and whether it counts toward a region's share. */
export interface AnyTermWord {
  readonly forms: readonly FtsTerm[];
  readonly content: boolean;
}

// fts4aux over the index's FTS table, in the connection's temp schema: per term, the
// regions holding it, without touching the index file.
const TERMS_TABLE = 'temp.trufflepig_fts_terms';

/**
 * Regions holding one of `forms` (summed over the terms a prefix covers: an upper bound);
 * undefined when unknown. The terms table must exist (termsTableReady).
 */
function regionsHolding(ctx: LaneContext, forms: readonly FtsTerm[]): number | undefined {
  try {
    let total = 0;
    for (const form of forms) {
      const term = form.prefix ? termText(form).slice(0, -1) : form.text.toLowerCase();
      if (term === '') return undefined;
      const past = form.prefix
        ? term.slice(0, -1) + String.fromCodePoint(term.codePointAt(term.length - 1)! + 1)
        : `${term}\0`;
      const row = allRows(
        ctx.reader.db,
        `SELECT sum(documents) FROM ${TERMS_TABLE} WHERE col = '*' AND term >= ? AND term < ?`,
        [term, past],
      )[0];
      total += Number(row?.[0] ?? 0);
    }
    return total;
  } catch {
    return undefined;
  }
}

/** Creates the terms table in the connection's temp schema once; false when it cannot. */
function termsTableReady(ctx: LaneContext): boolean {
  try {
    runStatement(ctx.reader.db, `CREATE VIRTUAL TABLE IF NOT EXISTS ${TERMS_TABLE} USING fts4aux(main, fts)`);
    return true;
  } catch {
    return false;
  }
}

const group = (forms: readonly FtsTerm[]) => `(${ftsFormsExpression([forms])})`;

/**
 * The any-term lane's regions with the lone common words' regions left out, when that
 * provably leaves the lane unchanged; undefined when the lane must scan every region.
 * `expression` is the lane's scoring expression over every form of `words`, in order, and
 * `owners` its phrases' word indexes (-1 for a stopword's), as ftsRegions takes them.
 */
export function prunedAnyTermRegions(
  ctx: LaneContext,
  words: readonly AnyTermWord[],
  expression: string,
  owners: readonly number[],
  settings: PruneSettings,
): FtsRegionHit[] | undefined {
  const content = words.map((w, i) => ({ ...w, i })).filter((w) => w.content && w.forms.length > 0);
  if (content.length < settings.minContentWords || !termsTableReady(ctx)) return undefined;
  const common: typeof content = [];
  const rare: typeof content = [];
  for (const w of content) {
    const regions = regionsHolding(ctx, w.forms);
    if (regions === undefined) return undefined;
    (regions > settings.commonWordRegions ? common : rare).push(w);
  }
  if (common.length === 0) return undefined;
  // The regions kept: any holding a rare word, or two common ones. matchinfo numbers the
  // selecting expression's phrases first, each occurrence apart (a common word is in one
  // pair per other common word).
  const parts = rare.length > 0 ? [ftsFormsExpression(rare.map((w) => w.forms))] : [];
  for (let a = 0; a < common.length; a++)
    for (let b = a + 1; b < common.length; b++) parts.push(`(${group(common[a].forms)} ${group(common[b].forms)})`);
  // One common word and nothing else: every region is a lone one, nothing to leave out.
  if (parts.length === 0) return undefined;
  const phrases =
    rare.reduce((n, w) => n + w.forms.length, 0) + common.reduce((n, w) => n + w.forms.length * (common.length - 1), 0);
  const kept = scoredRegions(ctx.reader.db, expression, owners, { expression: parts.join(' OR '), phrases });
  const stats = kept.stats;
  if (kept.capped || !stats) return undefined;
  // The lane's files from the kept regions: there must be more than it keeps (as without
  // pruning, the lane is then cut, and says so), and its last one must beat every bound.
  const best = new Map<number, number>();
  for (const r of kept.hits) {
    const f = ctx.reader.file(r.file);
    if (!f || !ctx.eligible(f)) continue;
    if ((best.get(r.file) ?? -Infinity) < r.score) best.set(r.file, r.score);
  }
  const laneFiles = anyTermFilesOf(ctx);
  if (best.size <= laneFiles) return undefined;
  const threshold = [...best.values()].sort((a, b) => b - a)[laneFiles - 1];
  const stopwordPhrases = owners.flatMap((o, k) => (o < 0 ? [k] : []));
  const unbounded = common.filter((w) => {
    const own = owners.flatMap((o, k) => (o === w.i ? [k] : []));
    return scoreBound(stats, [...own, ...stopwordPhrases], 1 / content.length) >= threshold;
  });
  if (unbounded.length === 0) return kept.hits;
  // A common word whose lone regions might rank: read every region holding it. Regions
  // read twice score the same twice; the lane keeps each file's best.
  const extra = scoredRegions(ctx.reader.db, expression, owners, {
    expression: ftsFormsExpression(unbounded.map((w) => w.forms)),
    phrases: unbounded.reduce((n, w) => n + w.forms.length, 0),
  });
  return extra.capped ? undefined : kept.hits.concat(extra.hits);
}
