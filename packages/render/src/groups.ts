// Grouped search pages (docs/spec/per-source.md, `per_source`): the global ranking, then one group
// per scope, each ranked on its own. The budget is shared and cut fairly: every section
// gets its next hit in turn (top hits first), so a long global ranking never starves a
// group; a section whose hits no longer fit still prints its header and its cursor.

import { escapeLineField, jsonLine } from './escape';
import { budgetTooSmall, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
import { SNIPPET_KEEP_MIN } from './limits';
import {
  hitJson,
  hitLines,
  nextNote,
  setIdSlack,
  shownMembers,
  stoppedBy,
  type PageHit,
  type SearchPageInput,
} from './page';
import { withinBudget } from './tokens';

export interface HitGroup {
  /** The scope's tags (`["source:code"]`). */
  readonly scope: readonly string[];
  /** Offset of `hits[0]` within the result set: the group's cursor continues from here. */
  readonly offset: number;
  /** The group's remaining hits, in its own order. */
  readonly hits: readonly PageHit[];
}

export interface GroupedPageInput extends SearchPageInput {
  /** The scope mode named on the page (`per_source`, or `explicit`). */
  readonly scopes: string;
  readonly groups: readonly HitGroup[];
}

interface Section {
  readonly hits: readonly PageHit[];
  readonly offset: number;
  readonly available: number;
}

function sectionsOf(input: GroupedPageInput): Section[] {
  const limit = Math.max(0, Math.floor(input.limit));
  return [
    { hits: input.hits, offset: input.offset, available: Math.min(limit, input.hits.length) },
    ...input.groups.map((g) => ({ hits: g.hits, offset: g.offset, available: Math.min(limit, g.hits.length) })),
  ];
}

function cursorOf(input: GroupedPageInput, s: Section, count: number): string | undefined {
  return count < s.hits.length ? `${input.setId}@${s.offset + count}` : undefined;
}

/** A section's `next:` line with its note (N of M files; stopped by -n|-b), as a flat page has. */
function nextLine(input: GroupedPageInput, s: Section, count: number): string {
  const next = cursorOf(input, s, count);
  return next ? `next: more ${next} ${nextNote({ offset: s.offset, limit: input.limit }, count, s.hits.length)}\n` : '';
}

function groupedJson(input: GroupedPageInput, sections: Section[], counts: number[], snippets: boolean): string {
  const page: Record<string, unknown> = {
    query: input.query,
    set: input.setId,
    scopes: input.scopes,
    hits: input.hits.slice(0, counts[0]).map((h) => hitJson(h, snippets)),
    groups: input.groups.map((g, i) => {
      const next = cursorOf(input, sections[i + 1], counts[i + 1]);
      return {
        scope: g.scope,
        hits: g.hits.slice(0, counts[i + 1]).map((h) => hitJson(h, snippets)),
        ...(next ? { next, stopped_by: stoppedBy(input.limit, counts[i + 1]) } : {}),
      };
    }),
    coverage: input.coverage,
  };
  const next = cursorOf(input, sections[0], counts[0]);
  if (next) {
    page.next = next;
    page.stopped_by = stoppedBy(input.limit, counts[0]);
  }
  if (input.truncated) page.truncated = true;
  const members = shownMembers({ members: input.members, hits: shownHits(input, counts) }, Number.POSITIVE_INFINITY);
  if (members !== undefined) page.members = members;
  return jsonLine(page);
}

function shownHits(input: GroupedPageInput, counts: number[]): PageHit[] {
  return [...input.hits.slice(0, counts[0]), ...input.groups.flatMap((g, i) => g.hits.slice(0, counts[i + 1]))];
}

function groupedLines(input: GroupedPageInput, sections: Section[], counts: number[], snippets: boolean): string {
  let out = '';
  for (const hit of input.hits.slice(0, counts[0])) out += hitLines(hit, snippets);
  input.groups.forEach((g, i) => {
    out += `scope: ${escapeLineField(g.scope.join(' '))}\n`;
    for (const hit of g.hits.slice(0, counts[i + 1])) out += hitLines(hit, snippets);
    out += nextLine(input, sections[i + 1], counts[i + 1]);
  });
  const members = shownMembers({ members: input.members, hits: shownHits(input, counts) }, Number.POSITIVE_INFINITY);
  for (const [name, root] of Object.entries(members ?? {}))
    out += `member: ${escapeLineField(name)}\t${escapeLineField(root)}\n`;
  out += `coverage: ${escapeLineField(input.coverageLine)}\n`;
  out += nextLine(input, sections[0], counts[0]);
  return out;
}

/**
 * Fair counts: the most rounds r in which every section shows min(r, available) hits, then
 * one more hit for each section in order while it fits. Only measured renderings count.
 */
function fairCounts(sections: Section[], fits: (counts: number[]) => boolean): number[] {
  const max = Math.max(0, ...sections.map((s) => s.available));
  const round = (r: number) => sections.map((s) => Math.min(r, s.available));
  let lo = 0;
  let hi = max;
  if (fits(round(max))) return round(max);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(round(mid))) lo = mid;
    else hi = mid;
  }
  const counts = round(lo);
  for (let i = 0; i < sections.length; i++) {
    if (counts[i] >= sections[i].available) continue;
    counts[i]++;
    if (!fits(counts)) counts[i]--;
  }
  return counts;
}

/** Renders a grouped page within `budget` o200k_base tokens of the complete stdout. */
export function renderGroupedPage(
  input: GroupedPageInput,
  opts: { format: OutputFormat; budget: number },
): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const sections = sectionsOf(input);
  const render = (counts: number[], snippets: boolean) =>
    opts.format === 'json'
      ? groupedJson(input, sections, counts, snippets)
      : groupedLines(input, sections, counts, snippets);
  const result = (counts: number[], snippets: boolean): RenderResult => {
    const next = cursorOf(input, sections[0], counts[0]);
    return { stdout: render(counts, snippets), shown: counts.reduce((a, b) => a + b, 0), ...(next ? { next } : {}) };
  };
  const total = sections.reduce((n, s) => n + s.available, 0);
  const zero = sections.map(() => 0);
  if (total === 0) {
    const empty = render(zero, false);
    return withinBudget(empty, budget)
      ? result(zero, false)
      : budgetTooSmall(empty, budget, opts.format, 'an empty page', setIdSlack(input, empty));
  }
  const fits = (snippets: boolean) => (counts: number[]) => withinBudget(render(counts, snippets), budget);
  const sum = (c: number[]) => c.reduce((a, b) => a + b, 0);
  const hasSnippets = sections.some((s) => s.hits.slice(0, s.available).some((h) => h.snippet !== undefined));
  const withSnippets = fairCounts(sections, fits(true));
  let chosen = withSnippets;
  let snippets = true;
  if (hasSnippets && sum(withSnippets) < Math.min(SNIPPET_KEEP_MIN, total)) {
    // Dropping snippets is only worth it when it buys more locators.
    const bare = fairCounts(sections, fits(false));
    if (sum(bare) > sum(withSnippets)) {
      chosen = bare;
      snippets = false;
    }
  }
  if (sum(chosen) > 0) return result(chosen, snippets);
  const smallest = render(
    sections.map((s, i) => (i === 0 || sections[0].available === 0 ? Math.min(1, s.available) : 0)),
    false,
  );
  return budgetTooSmall(smallest, budget, opts.format, 'one hit', setIdSlack(input, smallest));
}
