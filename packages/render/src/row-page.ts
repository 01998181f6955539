// Pages of a stored set's rows (refs, map, hist, blame, since): one header, as many rows as
// the limit and the budget allow, one footer; or the explicit answer to a budget too small
// for even one row. The verbs render their own rows; the fitting is this one function.
import { escapeLineField } from './escape';
import { budgetTooSmall, largestFitting, type OutputFormat } from './fit';
import { setIdSlack, stoppedBy } from './page';
import { withinBudget } from './tokens';

/** What a page of a stored set's rows is rendered from: the set, where the page starts, its entries from there, the coverage. */
export interface SetRowsPage<Entry> {
  /** What was asked (`refs NAME`, `hist sym:refill`, `diff HEAD~3`). */
  readonly query: string;
  readonly setId: string;
  /** Offset of entries[0] in the set. */
  readonly offset: number;
  /** The set's entries from `offset` on. */
  readonly entries: readonly Entry[];
  readonly coverage: Readonly<Record<string, unknown>>;
  /** The one-line summary printed after `coverage:`. */
  readonly coverageLine: string;
  readonly truncated: boolean;
}

/**
 * The footer of a row page in lines: `coverage:`, then `next: more CURSOR [NOTE]` when rows
 * remain (`next`; `note`: rowPageNote). A capped set says `truncated` once, on the coverage line (docs/spec/retrieval.md
 * §4), unless the verb's own coverage words already say it.
 */
export function rowPageFooter(page: SetRowsPage<unknown>, next: string | undefined, note?: string): string {
  const line =
    page.truncated && !/\btruncated\b/.test(page.coverageLine) ? `${page.coverageLine}; truncated` : page.coverageLine;
  let out = `coverage: ${escapeLineField(line)}\n`;
  if (next !== undefined) out += `next: more ${next}${note ? ` ${note}` : ''}\n`;
  return out;
}

/**
 * The words after a row page's cursor, as a search page has them: `(N of M rows; stopped
 * by -n|-b)`, `shown` rows of a page that could show `max` (the limit cut to the set).
 */
export function rowPageNote(page: SetRowsPage<unknown>, shown: number, max: number): string {
  return `(${page.offset + shown} of ${page.offset + page.entries.length} rows; stopped by ${stoppedBy(max, shown)})`;
}

export interface RowPageFit {
  readonly format: OutputFormat;
  readonly budget: number;
  /** Rows this page may show (the set's remaining rows, cut by `-n`). */
  readonly max: number;
  /** The complete page with its first `rows` rows. */
  readonly render: (rows: number) => string;
  /** The set the page names, whose id a retry may render longer (setIdSlack). */
  readonly setId: string;
  /** What the retry hint says the budget is too small for: a page without rows, and one row. */
  readonly tooSmallFor: { readonly empty: string; readonly oneRow: string };
}

/**
 * The largest page that fits: every row it shows was measured within the budget; budget 0
 * prints nothing; a page that cannot fit one row (or, without rows, its header and footer)
 * answers a fitting status line and a retry hint whose budget also fits another set id.
 */
export function fitRowPage(p: RowPageFit): { stdout: string; stderr: string } {
  const budget = Math.max(0, Math.floor(p.budget));
  if (budget === 0) return { stdout: '', stderr: '' };
  const tooSmall = (smallest: string, what: string) => {
    const answer = budgetTooSmall(smallest, budget, p.format, what, setIdSlack(p, smallest));
    return { stdout: answer.stdout, stderr: answer.stderr ?? '' };
  };
  if (p.max === 0) {
    const empty = p.render(0);
    return withinBudget(empty, budget) ? { stdout: empty, stderr: '' } : tooSmall(empty, p.tooSmallFor.empty);
  }
  const n = largestFitting(p.max, (k) => withinBudget(p.render(k), budget));
  return n > 0 ? { stdout: p.render(n), stderr: '' } : tooSmall(p.render(1), p.tooSmallFor.oneRow);
}
