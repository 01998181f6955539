// Evidence lines of a search hit (docs/spec/retrieval.md §4): the best line (most distinct query terms; code
// beats comment), then for `re:` and `"literal"` every further matching line of the file
// up to EVIDENCE_MATCHES_MAX, and with `-C N` N lines of context around each.

import { EVIDENCE_MATCHES_MAX, MATCH_CONTINUATION_LINES_MAX } from './limits';
import { indentColumns, rowsOfLines, splitRows, type SourceRow } from './rows';
import { commentaryRows, cutSnippet, pickSnippet, type Snippet } from './snippet';

/** How a hit's lines are matched: by query terms (ranked search), or line by line (`re:`, `"literal"`). */
export type EvidenceMatch =
  | {
      readonly kind: 'terms';
      readonly terms: readonly string[];
      /** A document (docs origin): no line of it is a comment (pickSnippet). */
      readonly prose?: boolean;
      /** The word as the query spells it, whose rows come first (SnippetOptions.spelled). */
      readonly spelled?: string;
      /**
       * A definition hit's further matching definitions in its file, by first line: shown
       * after the best line up to the cap, the rest counted, as `re:` shows further matches.
       * Present (even empty) on a definition hit: without query words its best line is the
       * line that names the definition.
       */
      readonly also?: readonly number[];
    }
  | {
      readonly kind: 'lines';
      /**
       * UTF-16 index of the first match in a row's display text, or -1. `line` is the row's:
       * a `re:` match may start on a row and run on past it, which the row alone cannot show.
       */
      readonly matchAt: (text: string, line: number) => number;
      /**
       * The last line of the match starting on `line`, when it runs past that line (a `re:`
       * of `\s` across a line break): its further lines are shown as context lines, at most
       * MATCH_CONTINUATION_LINES_MAX of them.
       */
      readonly matchThrough?: (line: number) => number | undefined;
      /** The line the search itself matched (the hit's own line), preferred as the best line. */
      readonly anchorLine: number;
      /**
       * Whether a matching line spells the pattern exactly (an all-lower-case `"literal"`
       * matches in any case): such lines come first, `def send_file_max_age_default`
       * before `"SEND_FILE_MAX_AGE_DEFAULT": None` for `"send_file_max_age_default"`.
       */
      readonly exact?: (text: string) => boolean;
      /** A document (docs origin): no line of it is a comment. */
      readonly prose?: boolean;
      /**
       * Lines (ascending) outside which `matchAt` finds nothing, when the matcher knows
       * them: lineMatchRows then decodes only those and their neighbours.
       */
      readonly candidateLines?: readonly number[];
    };

export interface EvidenceLine {
  readonly line: number;
  readonly text: string;
  /** A `-C` context line, not a match. */
  readonly context?: true;
  /**
   * A further match outside the hit's span (`re:`, `"literal"`): the definition holding it,
   * so it is not read as part of the definition the hit names.
   */
  readonly within?: string;
}

/** The name of the innermost definition holding a line, when one does (pickEvidence). */
export type LineOwner = (line: number) => string | undefined;

export interface Evidence {
  /** The best line: the snippet of the hit. */
  readonly best: Snippet;
  /** Every evidence line in line order (the best line, further matches, context). */
  readonly lines: readonly EvidenceLine[];
  /** Matching lines of the file left out (past `cap`). */
  readonly left: number;
  /** Line numbers of those left out, in line order (the footer's `show path:` range). */
  readonly leftLines?: readonly number[];
  /** Matching lines a hit shows at most (EVIDENCE_MATCHES_MAX unless a caller passes another). */
  readonly cap: number;
}

function lineText(row: SourceRow, at: number): string {
  const text = row.text.trim();
  if (at < 0) return cutSnippet(text, []);
  // Anchor the cut on the match: its first characters as the term to keep in view.
  const shift = row.text.length - row.text.trimStart().length;
  const term = text.slice(Math.max(0, at - shift), Math.max(0, at - shift) + 16).toLowerCase();
  return cutSnippet(text, term ? [term] : []);
}

/** Lines a definition may start with before the line that names it: annotations, attributes, doc comments. */
const LEADING_DECORATION = /^(?:@|#\[|\/\/|\/\*|\*)/;
/** How far a definition's naming line may sit below its first. */
const DECORATION_LINES_MAX = 8;

/**
 * The line that shows a definition starting at `line`: its first line, or the first below
 * it that is not an annotation, attribute or doc comment (`@SuppressWarnings("unused")`
 * above `enum FontVariantLigatures {` says nothing of the enum).
 */
function headLine(byLine: ReadonlyMap<number, SourceRow>, line: number): number {
  for (let l = line; l < line + DECORATION_LINES_MAX; l++) {
    const row = byLine.get(l);
    if (!row) break;
    const text = row.text.trim();
    if (text !== '' && !LEADING_DECORATION.test(text)) return l;
  }
  return line;
}

/**
 * Evidence of a hit spanning lines [span.startLine, span.endLine], from `rows` (contiguous
 * rows of the file covering the span, the whole file for line matching, plus `context`
 * rows either side when available); undefined when no row of the span matches.
 */
export function pickEvidence(
  rows: readonly SourceRow[],
  span: { readonly startLine: number; readonly endLine: number },
  match: EvidenceMatch,
  context = 0,
  cap = EVIDENCE_MATCHES_MAX,
  /** Line matching: names the definition of each further match outside the span (EvidenceLine.within). */
  ownerOf?: LineOwner,
): Evidence | undefined {
  const inSpan = rows.filter((r) => r.line >= span.startLine && r.line <= span.endLine);
  const primary: { row: SourceRow; text: string }[] = [];
  let best: Snippet | undefined;
  let left = 0;
  let leftLines: number[] = [];
  if (match.kind === 'terms') {
    best = pickSnippet(inSpan, match.terms, { prose: match.prose === true, spelled: match.spelled });
    if (!best && match.also !== undefined) {
      const spanRows = new Map(inSpan.map((r) => [r.line, r]));
      const head = spanRows.get(headLine(spanRows, span.startLine));
      if (head) best = { line: head.line, text: cutSnippet(head.text.trim(), []) };
    }
    const row = best && rows.find((r) => r.line === best!.line);
    if (best && row) primary.push({ row, text: best.text });
    if (best && match.also?.length) {
      const byLine = new Map(rows.map((r) => [r.line, r]));
      const further = [
        ...new Set(
          match.also
            .map((l) => headLine(byLine, l))
            .filter((l) => l !== best!.line && (l < span.startLine || l > span.endLine)),
        ),
      ];
      const shown = further.filter((l) => byLine.has(l)).slice(0, cap - 1);
      for (const l of shown) primary.push({ row: byLine.get(l)!, text: cutSnippet(byLine.get(l)!.text.trim(), []) });
      leftLines = further.filter((l) => !shown.includes(l));
      left = leftLines.length;
    }
  } else {
    // Which lines a capped hit shows first: exact spellings, and code before comments and
    // docstrings (docs/spec/retrieval.md §4's rule for the best line), each group in line order.
    const commentary = match.prose ? undefined : commentaryRows(rows);
    const matching: { row: SourceRow; at: number; rank: number }[] = [];
    rows.forEach((row, index) => {
      const at = match.matchAt(row.text, row.line);
      if (at >= 0)
        matching.push({
          row,
          at,
          rank: (match.exact === undefined || match.exact(row.text) ? 0 : 2) + (commentary?.[index] ? 1 : 0),
        });
    });
    const ordered = [...matching].sort((a, b) => a.rank - b.rank || a.row.line - b.row.line);
    const anchor = matching.find((m) => m.row.line === match.anchorLine);
    // The hit's own line when it is such a line, else the first of them in the span.
    const first =
      (anchor?.rank === 0 ? anchor : undefined) ??
      ordered.find((m) => m.row.line >= span.startLine && m.row.line <= span.endLine) ??
      anchor ??
      matching[0];
    if (first) {
      best = { line: first.row.line, text: lineText(first.row, first.at) };
      primary.push({ row: first.row, text: best.text });
      // All are shown in line order below.
      const others = ordered.filter((m) => m !== first);
      for (const m of others.slice(0, cap - 1)) primary.push({ row: m.row, text: lineText(m.row, m.at) });
      left = Math.max(0, others.length - (cap - 1));
      leftLines = others
        .slice(cap - 1)
        .map((m) => m.row.line)
        .sort((a, b) => a - b);
    }
  }
  if (!best) return undefined;
  const byLine = new Map<number, EvidenceLine>();
  const outside = (line: number) => line < span.startLine || line > span.endLine;
  for (const p of primary) {
    const within = match.kind === 'lines' && ownerOf && outside(p.row.line) ? ownerOf(p.row.line) : undefined;
    byLine.set(p.row.line, { line: p.row.line, text: p.text, ...(within !== undefined ? { within } : {}) });
  }
  // A match running past its first line: the rest of it, as context (`  865- return -ENOMEM;`).
  if (match.kind === 'lines' && match.matchThrough) {
    const rowOf = new Map(rows.map((r) => [r.line, r]));
    for (const p of primary) {
      const last = Math.min(match.matchThrough(p.row.line) ?? p.row.line, p.row.line + MATCH_CONTINUATION_LINES_MAX);
      for (let l = p.row.line + 1; l <= last; l++) {
        const r = rowOf.get(l);
        if (r && !byLine.has(l)) byLine.set(l, { line: l, text: cutSnippet(r.text.trim(), []), context: true });
      }
    }
  }
  if (context > 0) {
    // By line number, not position: lineMatchRows' rows have gaps between matches.
    const rowOf = new Map(rows.map((r) => [r.line, r]));
    for (const p of primary) {
      for (let l = p.row.line - context; l <= p.row.line + context; l++) {
        const r = rowOf.get(l);
        if (r && !byLine.has(l)) byLine.set(l, { line: l, text: cutSnippet(r.text.trim(), []), context: true });
      }
    }
  }
  const sorted = [...byLine.values()].sort((a, b) => a.line - b.line);
  const lines = context > 0 ? withRelativeIndent(sorted, new Map(rows.map((r) => [r.line, r.text]))) : sorted;
  return { best, lines, left, ...(leftLines.length > 0 ? { leftLines } : {}), cap };
}

/**
 * The rows pickEvidence needs of a file matched line by line (`starts`: lineStarts(buf)):
 * when the match names its candidate lines, those with `context` lines either side and
 * the MATCH_CONTINUATION_LINES_MAX a match may run on to; else, or when the file holds a
 * triple quote (commentaryRows follows such strings from row to row), every row. The
 * evidence is the same either way; a kernel file of 11,000 lines cost ~3 ms to split
 * whole and judge for comments, for the five lines a page shows of it.
 */
export function lineMatchRows(
  buf: Uint8Array,
  starts: readonly number[],
  match: Extract<EvidenceMatch, { kind: 'lines' }>,
  context: number,
): SourceRow[] {
  const candidates = match.candidateLines;
  if (candidates === undefined || holdsTripleQuote(buf)) return splitRows(buf, 0, buf.length, 1);
  const after = Math.max(context, match.matchThrough ? MATCH_CONTINUATION_LINES_MAX : 0);
  const lines: number[] = [];
  for (const c of candidates) {
    const from = Math.max(c - context, lines.length > 0 ? lines[lines.length - 1] + 1 : 1);
    for (let l = from; l <= Math.min(c + after, starts.length); l++) lines.push(l);
  }
  return rowsOfLines(buf, starts, lines);
}

const QUOTE_BYTES = [0x22, 0x27] as const;

/** Whether `buf` holds `"""` or `'''`. */
function holdsTripleQuote(buf: Uint8Array): boolean {
  for (const q of QUOTE_BYTES)
    for (let at = buf.indexOf(q); at >= 0 && at + 2 < buf.length; at = buf.indexOf(q, at + 1))
      if (buf[at + 1] === q && buf[at + 2] === q) return true;
  return false;
}

/**
 * `-C` evidence keeps the code's shape: each run of consecutive lines is indented by its
 * lines' indentation less the run's smallest (blank lines aside), in spaces. Every
 * evidence line is trimmed otherwise, and an agent trial on tokio read a `-C 3` block of a
 * `select!` branch, twenty columns deep, as flat statements.
 */
function withRelativeIndent(lines: readonly EvidenceLine[], textOf: ReadonlyMap<number, string>): EvidenceLine[] {
  const out: EvidenceLine[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && lines[j].line === lines[j - 1].line + 1) j++;
    const run = lines.slice(i, j);
    const widths = run.map((l) => indentColumns(textOf.get(l.line) ?? ''));
    const base = Math.min(...widths.filter((w): w is number => w !== undefined));
    run.forEach((l, k) => {
      const extra = widths[k] === undefined ? 0 : widths[k]! - base;
      out.push(extra > 0 ? { ...l, text: ' '.repeat(extra) + l.text } : l);
    });
    i = j;
  }
  return out;
}
