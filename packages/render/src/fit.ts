// Shared budget fitting: largest fitting count, and the explicit tiny-budget status.

import { jsonLine } from './escape';
import { countTokens, withinBudget } from './tokens';

export type OutputFormat = 'json' | 'lines';

export interface RenderResult {
  /** Complete stdout, final newline included; its o200k_base token count is <= the budget. */
  stdout: string;
  /** One complete stderr line (newline included) when the caller should print one. */
  stderr?: string;
  /** Hits (search) or rows (show) emitted on stdout. */
  shown: number;
  /** Cursor (search: `SET@OFFSET`) or continuation (show) when more remains. */
  next?: string;
  /** Set when the budget could not fit the smallest useful response. */
  status?: 'budget_too_small';
  /** With `status`: the budget the smallest useful response needs (`-b needed`). */
  needed?: number;
}

/** A budget as a usable number: non-finite or negative values are clamped. */
export function normalizeBudget(budget: number): number {
  if (Number.isNaN(budget) || budget < 0) return 0;
  return budget === Number.POSITIVE_INFINITY ? budget : Math.floor(budget);
}

/**
 * Largest count in [1, max] whose rendering fits, assuming token counts grow with the
 * count (binary search); 0 when even one does not fit. Only counts whose rendering was
 * actually measured to fit are returned, so the budget holds even if that assumption slips.
 */
export function largestFitting(max: number, fits: (count: number) => boolean): number {
  if (max <= 0) return 0;
  // Gallop up from one, then bisect: a page usually fits a handful of hits, so the
  // largest count is rarely tried, and hits beyond it are never rendered (their
  // snippets, read from disk on demand, are never read).
  let lo = 0; // known to fit (0 = nothing)
  let hi = max + 1; // known not to fit (max + 1: nothing known yet)
  for (let n = 1; n <= max; n *= 2) {
    if (!fits(n)) {
      hi = n;
      break;
    }
    lo = n;
  }
  if (hi === max + 1) {
    if (lo === max || fits(max)) return max;
    hi = max;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The explicit answer to a budget too small for `smallest`: a status line when it fits,
 * else no bytes, plus a one-line retry hint on stderr.
 */
export function budgetTooSmall(
  smallest: string,
  budget: number,
  format: OutputFormat,
  what: string,
  /** Tokens the same response may need beyond `smallest` on a retry (e.g. another set id). */
  retrySlack = 0,
): RenderResult {
  const needed = countTokens(smallest) + retrySlack;
  const status =
    format === 'json'
      ? jsonLine({ status: 'budget_too_small', needed })
      : `status: budget_too_small needed=${needed}\n`;
  return {
    stdout: withinBudget(status, budget) ? status : '',
    stderr: `trufflepig: budget of ${budget} tokens is too small for ${what}; retry with -b ${needed}\n`,
    shown: 0,
    status: 'budget_too_small',
    needed,
  };
}
