// Errors and plain objects (status/index verbs): one budgeted JSON line, one stderr line.

import { escapeLineField, jsonLine } from './escape';
import { budgetTooSmall, normalizeBudget, type RenderResult } from './fit';
import { withinBudget } from './tokens';

export interface RenderError {
  code: string;
  message: string;
}

/**
 * stdout `{"error":{"code","message"}}` + newline when it fits the budget (else ""), and the
 * one-line stderr message `trufflepig: CODE: message` (newline included) in every case.
 */
export function renderError(
  err: RenderError,
  opts: { budget: number },
): { stdout: string; stderr: string } {
  const budget = normalizeBudget(opts.budget);
  const json = jsonLine({ error: { code: err.code, message: err.message } });
  return {
    stdout: budget > 0 && withinBudget(json, budget) ? json : '',
    stderr: `trufflepig: ${escapeLineField(err.code)}: ${escapeLineField(err.message)}\n`,
  };
}

/** One JSON line when it fits the budget, else the budget_too_small status (or "") plus a hint. */
export function renderObject(
  value: Readonly<Record<string, unknown>>,
  opts: { budget: number },
): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const json = jsonLine(value);
  if (withinBudget(json, budget)) return { stdout: json, shown: 1 };
  return budgetTooSmall(json, budget, 'json', 'this response');
}
