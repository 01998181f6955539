// The walk's skip summary as stored in the index meta (`skipped`) at publication, and read
// back by coverage: one JSON text, so an unchanged summary compares equal and publishes nothing.
import { emptySkipCounts, SKIP_CLASSES, type SkipSummary } from './skipped';

export function skipMetaText(summary: SkipSummary): string {
  return JSON.stringify({ counts: summary.counts, largest: summary.largest });
}

/** The stored summary; an index published before skips were recorded has none (nothing counted). */
export function parseSkipMeta(text: string | undefined): SkipSummary {
  const empty: SkipSummary = { counts: emptySkipCounts(), largest: [] };
  if (!text) return empty;
  try {
    const v = JSON.parse(text) as Partial<SkipSummary>;
    const counts = { ...empty.counts };
    for (const c of SKIP_CLASSES) if (typeof v.counts?.[c] === 'number') counts[c] = v.counts[c];
    return { counts, largest: Array.isArray(v.largest) ? v.largest : [] };
  } catch {
    return empty;
  }
}

/** File exclusions by reason plus the walk's non-zero skip counts by class, as one `excluded` map. */
export function withSkipped(byReason: Readonly<Record<string, number>>, summary: SkipSummary): Record<string, number> {
  const out: Record<string, number> = { ...byReason };
  for (const c of SKIP_CLASSES) if (summary.counts[c] > 0) out[c] = (out[c] ?? 0) + summary.counts[c];
  return out;
}
