// Search pages (docs/spec/retrieval.md §4): as many hits as the budget fits, snippets kept while enough fit.

import { counted } from './counted';
import { escapeLineField, escapeSourceLine, FIELD, jsonLine } from './escape';
import { printedPath } from './path';
import type { Evidence, EvidenceLine } from './evidence';
import { budgetTooSmall, largestFitting, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
import { EVIDENCE_FULL_KEEP_MIN, MATCHES_LEFT_FILES_NAMED, MATCHES_LEFT_LINES_NAMED, SNIPPET_KEEP_MIN } from './limits';
import { printedLines } from './span';
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
  /** A window hit: the definition its span is cut from (lines: `in NAME` where a name would stand). */
  within?: string;
  /** A file found by its path alone, its content not indexed: the reason (lines: `[excluded: binary]`). */
  excluded?: string;
  sources?: readonly string[];
  snippet?: { line: number; text: string };
  /**
   * Evidence lines (evidence.ts): the best line (= `snippet`), further matching lines of a
   * `re:` or literal search, `-C` context. Without it, `snippet` alone is the evidence.
   */
  evidence?: Evidence;
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
  /** The set's remaining hits from `offset` on, in order (may exceed `limit`), or the first of them (see `remaining`). */
  hits: readonly PageHit[];
  /**
   * How many hits the set holds from `offset` on, when `hits` holds only the first of them
   * (at least `limit`, or all): the page needs no more, and the rest cost a search 5 ms to
   * build on the kernel. Default: hits.length.
   */
  remaining?: number;
  /** Most hits on this page (-n). */
  limit: number;
  /** Emitted as-is under "coverage" in JSON. */
  coverage: Readonly<Record<string, unknown>>;
  /**
   * One-line summary; the lines format prints `coverage: ${coverageLine}`. It says why the set
   * is truncated when it is (the lines format has no other truncation line; JSON has `truncated`).
   */
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
 * Takes up to `limit` hits; keeps every evidence line when at least
 * min(EVIDENCE_FULL_KEEP_MIN, available) hits fit with them, else each hit's best line
 * when at least min(SNIPPET_KEEP_MIN, available) hits fit with it, otherwise drops all
 * evidence when that fits more hits.
 */
export function renderSearchPage(input: SearchPageInput, opts: { format: OutputFormat; budget: number }): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const available = Math.min(Math.max(0, Math.floor(input.limit)), input.hits.length);
  const render = (count: number, level: EvidenceLevel): string =>
    opts.format === 'json' ? pageJson(input, count, level) : pageLines(input, count, level);
  const result = (count: number, level: EvidenceLevel): RenderResult => {
    const next = count < remainingOf(input) ? cursor(input, count) : undefined;
    return { stdout: render(count, level), shown: count, ...(next ? { next } : {}) };
  };

  if (available === 0) {
    const empty = render(0, 'none');
    if (withinBudget(empty, budget)) return result(0, 'none');
    return budgetTooSmall(empty, budget, opts.format, 'an empty page', setIdSlack(input, empty));
  }

  const fitting = (level: EvidenceLevel) => largestFitting(available, (n) => withinBudget(render(n, level), budget));
  // Every evidence line while a few hits fit with them; else the best line of each hit
  // while enough fit; else bare locators when that buys more of them. Looking one hit
  // past those that fit is enough: below that, the levels render the same text.
  // (Evidence may be computed on first access.)
  const full = fitting('full');
  const richer = (n: number) => input.hits.slice(0, Math.min(available, n + 1));
  const hasExtra = richer(full).some((hit) => (hit.evidence?.lines.length ?? 0) > 1);
  if (hasExtra && full > 0 && full >= Math.min(EVIDENCE_FULL_KEEP_MIN, available)) return result(full, 'full');
  const level: EvidenceLevel = hasExtra ? 'best' : 'full';
  const best = hasExtra ? fitting('best') : full;
  const hasSnippets = richer(best).some(hasSnippet);
  if (!hasSnippets || best >= Math.min(SNIPPET_KEEP_MIN, available)) {
    if (best > 0) return result(best, level);
  } else {
    // Dropping snippets is only worth it when it buys more locators.
    const bare = fitting('none');
    if (bare > best) return result(bare, 'none');
    if (best > 0) return result(best, level);
  }
  const smallest = render(1, 'none');
  return budgetTooSmall(smallest, budget, opts.format, 'one hit', setIdSlack(input, smallest));
}

/** How much evidence a page shows per hit: every line, the best line only, or none. */
export type EvidenceLevel = 'full' | 'best' | 'none';

function hasSnippet(hit: PageHit): boolean {
  return hit.snippet !== undefined;
}

/** The evidence lines a hit shows at `level` (the snippet alone when it has no evidence). */
export function evidenceLines(hit: PageHit, level: EvidenceLevel): readonly EvidenceLine[] {
  if (level === 'none') return [];
  const best = hit.snippet;
  if (best === undefined) return [];
  if (level === 'best' || hit.evidence === undefined) return [best];
  return hit.evidence.lines;
}

/** Matching lines of a hit's file the page leaves out at `level`. */
export function matchesLeft(hit: PageHit, level: EvidenceLevel): number {
  const ev = hit.evidence;
  if (ev === undefined || level === 'none') return 0;
  if (level === 'full') return ev.left;
  return ev.left + ev.lines.filter((l) => !l.context).length - 1;
}

/** The set's hits from the page's offset on (SearchPageInput.remaining). */
export function remainingOf(input: Pick<SearchPageInput, 'hits' | 'remaining'>): number {
  return input.remaining ?? input.hits.length;
}

/** The footer's words on a page that stops before the end of its set: `N of M files; stopped by -n|-b`. */
export function nextNote(input: Pick<SearchPageInput, 'offset' | 'limit'>, shown: number, remaining: number): string {
  return `(${input.offset + shown} of ${input.offset + remaining} files; stopped by ${stoppedBy(input.limit, shown)})`;
}

/** Which cap ended a page that shows `shown` hits of more: the page limit (`-n`) or the budget (`-b`). */
export function stoppedBy(limit: number, shown: number): '-n' | '-b' {
  return shown >= Math.floor(limit) ? '-n' : '-b';
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

export function shownMembers(
  input: Pick<SearchPageInput, 'members'> & { hits: readonly PageHit[] },
  count: number,
): Record<string, string> | undefined {
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

export function hitJson(hit: PageHit, level: EvidenceLevel | boolean): Record<string, unknown> {
  const shown: EvidenceLevel = level === true ? 'full' : level === false ? 'none' : level;
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
  if (hit.within !== undefined) out.within = hit.within;
  if (hit.excluded !== undefined) out.excluded = hit.excluded;
  if (hit.sources !== undefined) out.sources = hit.sources;
  if (shown !== 'none' && hit.snippet !== undefined) out.snippet = { line: hit.snippet.line, text: hit.snippet.text };
  const lines = evidenceLines(hit, shown);
  if (lines.length > 1)
    out.evidence = lines.map((l) => ({
      line: l.line,
      text: l.text,
      ...(l.context ? { context: true } : {}),
      ...(l.within !== undefined ? { within: l.within } : {}),
    }));
  const left = matchesLeft(hit, shown);
  if (left > 0) out.matches_left = left;
  if (hit.differs) out.differs = true;
  for (const [key, value] of Object.entries(hit.detail ?? {})) if (!(key in out)) out[key] = value;
  if (hit.repeats !== undefined && hit.repeats > 1) out.repeats = hit.repeats;
  return out;
}

function pageJson(input: SearchPageInput, count: number, level: EvidenceLevel): string {
  const page: Record<string, unknown> = {
    query: input.query,
    set: input.setId,
    hits: input.hits.slice(0, count).map((hit) => hitJson(hit, level)),
    coverage: input.coverage,
  };
  if (count < remainingOf(input)) {
    page.next = cursor(input, count);
    page.stopped_by = stoppedBy(input.limit, count);
  }
  if (input.truncated) page.truncated = true;
  const members = shownMembers(input, count);
  if (members !== undefined) page.members = members;
  for (const [key, value] of Object.entries(input.extra ?? {})) {
    if (!(key in page) && key !== 'next' && key !== 'stopped_by' && key !== 'truncated' && key !== 'members')
      page[key] = value;
  }
  return jsonLine(page);
}

/**
 * The compact origin marker of a hit in lines format (docs/spec/retrieval.md §4, docs/spec/per-source.md): non-code
 * origins only, in brackets (`[docs]`, `[test]`, `[config,test]`, `[git-log]`); nothing
 * for code or a file without source tags.
 */
export function sourceMarker(sources: readonly string[] | undefined): string {
  const names = (sources ?? [])
    .filter((t) => t.startsWith('source:'))
    .map((t) => t.slice('source:'.length))
    .filter((n) => n !== 'code');
  return names.length > 0 ? `[${names.join(',')}]` : '';
}

/**
 * One hit in lines format: `HANDLE  PATH:START-END  [NAME]  [origin]` (`PATH:START` for one
 * line), then its evidence
 * lines `  LINE: TEXT` (context lines `  LINE- TEXT`). Navigation rows (with `detail`:
 * refs, map) keep their tab-separated `key=value` fields.
 */
export function hitLines(hit: PageHit, level: EvidenceLevel | boolean): string {
  const shown: EvidenceLevel = level === true ? 'full' : level === false ? 'none' : level;
  const nav = hit.detail !== undefined && Object.keys(hit.detail).length > 0;
  const sep = nav ? '\t' : FIELD;
  const where = (hit.member !== undefined ? hit.member + '/' : '') + printedPath(hit.path);
  let out =
    escapeLineField(hit.handle) + sep + escapeLineField(where) + `:${printedLines(hit.start_line, hit.end_line)}`;
  if (hit.name !== undefined) out += sep + escapeLineField(hit.name);
  else if (hit.within !== undefined) out += sep + 'in ' + escapeLineField(hit.within);
  const marker = nav ? legacyMarker(hit.sources) : sourceMarker(hit.sources);
  if (marker) out += sep + escapeLineField(marker);
  if (hit.excluded !== undefined) out += sep + escapeLineField(`[excluded: ${hit.excluded}]`);
  for (const [key, value] of Object.entries(hit.detail ?? {}))
    out += '\t' + escapeLineField(`${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  if (hit.repeats !== undefined && hit.repeats > 1) out += `\t×${hit.repeats}`;
  // The workspace contract: a hit whose file changed since its index ends in `differs`.
  if (hit.differs) out += sep + 'differs';
  out += '\n';
  // A further match outside the span names its own definition, as a refs row does (`317 in check: TEXT`).
  for (const l of evidenceLines(hit, shown)) {
    const where = l.within !== undefined ? ` in ${escapeLineField(l.within)}:` : l.context ? '-' : ':';
    out += `  ${l.line}${where} ${escapeSourceLine(l.text)}\n`;
  }
  return out;
}

/** The origin marker of navigation rows (refs, map): `source:` and every tag name. */
function legacyMarker(sources: readonly string[] | undefined): string {
  const names = (sources ?? []).filter((t) => t.startsWith('source:')).map((t) => t.slice('source:'.length));
  return names.length > 0 ? `source:${names.join(',')}` : '';
}

/** Line numbers of the matching lines of a hit's file the page leaves out at `level`, in line order. */
function leftLineNumbers(hit: PageHit, level: EvidenceLevel): number[] {
  const ev = hit.evidence;
  if (ev === undefined || level === 'none') return [];
  const past = [...(ev.leftLines ?? [])];
  if (level === 'full') return past;
  const unshown = ev.lines.filter((l) => !l.context && l.line !== ev.best.line).map((l) => l.line);
  return [...unshown, ...past].sort((a, b) => a - b);
}

/**
 * The footer line naming matching lines a page left out, or ''. Narrowing with `file:`
 * shows no more lines of a file (docs/spec/retrieval.md §4: up to 5 a file), so of one file
 * the footer lists where they are (MATCHES_LEFT_LINES_NAMED numbers at most), for a
 * `show path:` read around them.
 */
export function leftLine(hits: readonly PageHit[], level: EvidenceLevel): string {
  const left = hits.map((hit) => ({ hit, n: matchesLeft(hit, level) })).filter((x) => x.n > 0);
  const lines = left.reduce((sum, x) => sum + x.n, 0);
  if (lines === 0) return '';
  const files = left.length;
  const pathOf = (hit: PageHit) => (hit.member !== undefined ? hit.member + '/' : '') + printedPath(hit.path);
  let where: string;
  let how: string;
  if (files === 1) {
    const numbers = leftLineNumbers(left[0].hit, level);
    const listed = numbers.slice(0, MATCHES_LEFT_LINES_NAMED).join(', ');
    where = ` ${escapeLineField(pathOf(left[0].hit))}${listed ? `: ${listed}${numbers.length > MATCHES_LEFT_LINES_NAMED ? ', …' : ''}` : ''}`;
    // The line numbers say where to read (`show PATH:A-B`); no hint beyond them.
    how = listed ? '' : 'show path:PATH reads the file';
  } else {
    // A few files are named, most left first; past MATCHES_LEFT_FILES_NAMED the count alone,
    // so a wide page keeps its budget for hits.
    const named =
      files > MATCHES_LEFT_FILES_NAMED
        ? []
        : [...left].sort((a, b) => b.n - a.n).map((x) => `${escapeLineField(pathOf(x.hit))} ${x.n}`);
    where = ` ${counted(files, 'file')}${named.length > 0 ? `: ${named.join(', ')}` : ''}`;
    how = 'show path:PATH reads a file';
  }
  const hints = [how, level === 'full' ? '' : 'raise -b for their text'].filter((h) => h).join(', or ');
  return `matches left: ${counted(lines, 'more matching line')} in${where}${hints ? ` (${hints})` : ''}\n`;
}

function pageLines(input: SearchPageInput, count: number, level: EvidenceLevel): string {
  let out = '';
  const shown = input.hits.slice(0, count);
  for (const hit of shown) out += hitLines(hit, level);
  const members = shownMembers(input, count);
  for (const [name, root] of Object.entries(members ?? {})) {
    out += `member: ${escapeLineField(name)}\t${escapeLineField(root)}\n`;
  }
  out += `coverage: ${escapeLineField(input.coverageLine)}\n`;
  out += leftLine(shown, level);
  if (count < remainingOf(input))
    out += `next: more ${cursor(input, count)} ${nextNote(input, count, remainingOf(input))}\n`;
  return out;
}
