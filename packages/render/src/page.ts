// Search pages (spec 4): as many hits as the budget fits, snippets kept while enough fit.

import { escapeLineField, jsonLine } from './escape';
import { printedPath } from './path';
import { budgetTooSmall, largestFitting, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
import { SNIPPET_KEEP_MIN } from './limits';
import { countTokens, withinBudget } from './tokens';

export interface PageHit {
  handle: string;
  member?: string;
  /** Root-relative path in its stored (percent-encoded) form; printed by printedPath. */
  path: string;
  /** File URI, already percent-encoded. */
  uri: string;
  start_line: number;
  end_line: number;
  start: number;
  end: number;
  name?: string;
  kind?: string;
  sources?: readonly string[];
  snippet?: { line: number; text: string };
  /** The bytes on disk may differ from the indexed ones (a worktree answered from its parent's index). */
  differs?: boolean;
  /**
   * Verb-specific fields of a hit (`refs`: role, resolution, repeats; `map`: names): JSON
   * keys after the standard ones, and in lines format tab-separated `key=value` fields.
   */
  detail?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  /** Same-line same-role sites collapsed into this one (`refs`): JSON `repeats`, lines `×N`. */
  repeats?: number;
}

export interface SearchPageInput {
  query: string;
  /** Result-set id: 6 or more characters of [0-9a-z]. */
  setId: string;
  /** Offset of hits[0] within the result set (0 for a first page). */
  offset: number;
  /** The set's remaining hits from `offset` on, in order (may exceed `limit`). */
  hits: readonly PageHit[];
  /** Most hits on this page (-n). */
  limit: number;
  /** Emitted as-is under "coverage" in JSON. */
  coverage: Readonly<Record<string, unknown>>;
  /** One-line summary; the lines format prints `coverage: ${coverageLine}`. */
  coverageLine: string;
  /** The set itself was capped (more matches existed than kept). */
  truncated: boolean;
  /** Workspace pages: member name -> percent-encoded root. */
  members?: Readonly<Record<string, string>>;
  /** Additional top-level JSON fields (never replacing the fields above). */
  extra?: Readonly<Record<string, unknown>>;
}

/**
 * Renders one search page within `budget` o200k_base tokens of the complete stdout.
 * Takes up to `limit` hits; keeps snippets when at least min(SNIPPET_KEEP_MIN, available)
 * hits fit with them, otherwise drops all snippets when that fits more hits.
 */
export function renderSearchPage(
  input: SearchPageInput,
  opts: { format: OutputFormat; budget: number },
): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const available = Math.min(Math.max(0, Math.floor(input.limit)), input.hits.length);
  const render = (count: number, snippets: boolean): string =>
    opts.format === 'json' ? pageJson(input, count, snippets) : pageLines(input, count, snippets);
  const result = (count: number, snippets: boolean): RenderResult => {
    const next = count < input.hits.length ? cursor(input, count) : undefined;
    return { stdout: render(count, snippets), shown: count, ...(next ? { next } : {}) };
  };

  if (available === 0) {
    const empty = render(0, false);
    if (withinBudget(empty, budget)) return result(0, false);
    return budgetTooSmall(empty, budget, opts.format, 'an empty page', setIdSlack(input, empty));
  }

  const withSnippets = largestFitting(available, (n) => withinBudget(render(n, true), budget));
  // Looking one hit past those that fit is enough: below that, pages with and without
  // snippets are the same text. (Snippets may be computed on first access.)
  const hasSnippets = input.hits.slice(0, Math.min(available, withSnippets + 1)).some((hit) => hit.snippet !== undefined);
  if (!hasSnippets || withSnippets >= Math.min(SNIPPET_KEEP_MIN, available)) {
    if (withSnippets > 0) return result(withSnippets, true);
  } else {
    // Dropping snippets is only worth it when it buys more locators.
    const bare = largestFitting(available, (n) => withinBudget(render(n, false), budget));
    if (bare > withSnippets) return result(bare, false);
    if (withSnippets > 0) return result(withSnippets, true);
  }
  const smallest = render(1, false);
  return budgetTooSmall(smallest, budget, opts.format, 'one hit', setIdSlack(input, smallest));
}

/** Characters a retry's set id may have beyond this one's (ids grow only after collisions). */
const SET_ID_GROWTH_CHARS = 1;

/**
 * A retry of the same search renders the same page with another random set id. Count
 * every occurrence of the id at its worst (one token per character) so that retrying
 * with the hinted budget always fits.
 */
export function setIdSlack(input: { readonly setId: string }, page: string): number {
  if (!input.setId) return 0;
  const occurrences = page.split(input.setId).length - 1;
  return occurrences * Math.max(0, input.setId.length + SET_ID_GROWTH_CHARS - countTokens(input.setId));
}

function cursor(input: SearchPageInput, count: number): string {
  return `${input.setId}@${input.offset + count}`;
}

export function shownMembers(input: Pick<SearchPageInput, 'members'> & { hits: readonly PageHit[] }, count: number): Record<string, string> | undefined {
  if (input.members === undefined) return undefined;
  const used: Record<string, string> = {};
  let any = false;
  for (const hit of input.hits.slice(0, count)) {
    const root = hit.member !== undefined ? input.members[hit.member] : undefined;
    if (hit.member !== undefined && root !== undefined) {
      used[hit.member] = root;
      any = true;
    }
  }
  return any ? used : undefined;
}

export function hitJson(hit: PageHit, snippets: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (hit.member !== undefined) out.member = hit.member;
  out.handle = hit.handle;
  out.path = printedPath(hit.path);
  out.uri = hit.uri;
  out.start_line = hit.start_line;
  out.end_line = hit.end_line;
  out.start = hit.start;
  out.end = hit.end;
  if (hit.name !== undefined) out.name = hit.name;
  if (hit.kind !== undefined) out.kind = hit.kind;
  if (hit.sources !== undefined) out.sources = hit.sources;
  if (snippets && hit.snippet !== undefined) out.snippet = { line: hit.snippet.line, text: hit.snippet.text };
  if (hit.differs) out.differs = true;
  for (const [key, value] of Object.entries(hit.detail ?? {})) if (!(key in out)) out[key] = value;
  if (hit.repeats !== undefined && hit.repeats > 1) out.repeats = hit.repeats;
  return out;
}

function pageJson(input: SearchPageInput, count: number, snippets: boolean): string {
  const page: Record<string, unknown> = {
    query: input.query,
    set: input.setId,
    hits: input.hits.slice(0, count).map((hit) => hitJson(hit, snippets)),
    coverage: input.coverage,
  };
  if (count < input.hits.length) page.next = cursor(input, count);
  if (input.truncated) page.truncated = true;
  const members = shownMembers(input, count);
  if (members !== undefined) page.members = members;
  for (const [key, value] of Object.entries(input.extra ?? {})) {
    if (!(key in page) && key !== 'next' && key !== 'truncated' && key !== 'members') page[key] = value;
  }
  return jsonLine(page);
}

/**
 * The compact origin marker of a hit in lines format (per-source.md: every hit reports its
 * tags): `source:` and the tag names, comma-separated (`source:config,test`); nothing for
 * a file without source tags.
 */
export function sourceMarker(sources: readonly string[] | undefined): string {
  const names = (sources ?? []).filter((t) => t.startsWith('source:')).map((t) => t.slice('source:'.length));
  return names.length > 0 ? `source:${names.join(',')}` : '';
}

/** One hit in lines format: its locator line and, with `snippets`, its indented snippet line. */
export function hitLines(hit: PageHit, snippets: boolean): string {
  const where = (hit.member !== undefined ? hit.member + '/' : '') + printedPath(hit.path);
  let out = escapeLineField(hit.handle) + '\t' + escapeLineField(where) + `:${hit.start_line}-${hit.end_line}`;
  if (hit.name !== undefined) out += '\t' + escapeLineField(hit.name);
  const marker = sourceMarker(hit.sources);
  if (marker) out += '\t' + escapeLineField(marker);
  for (const [key, value] of Object.entries(hit.detail ?? {})) out += '\t' + escapeLineField(`${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  if (hit.repeats !== undefined && hit.repeats > 1) out += `\t×${hit.repeats}`;
  // The workspace contract: a hit whose file changed since its index ends in `differs`.
  if (hit.differs) out += '\tdiffers';
  out += '\n';
  if (snippets && hit.snippet !== undefined) {
    out += `  ${hit.snippet.line}: ${escapeLineField(hit.snippet.text)}\n`;
  }
  return out;
}

function pageLines(input: SearchPageInput, count: number, snippets: boolean): string {
  let out = '';
  for (const hit of input.hits.slice(0, count)) out += hitLines(hit, snippets);
  const members = shownMembers(input, count);
  for (const [name, root] of Object.entries(members ?? {})) {
    out += `member: ${escapeLineField(name)}\t${escapeLineField(root)}\n`;
  }
  out += `coverage: ${escapeLineField(input.coverageLine)}\n`;
  if (count < input.hits.length) out += `next: more ${cursor(input, count)}\n`;
  if (input.truncated) out += 'truncated: true\n';
  return out;
}
