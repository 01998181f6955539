// Plain objects (status/index verbs): one budgeted JSON line (errors: fit-error.ts).

import { jsonLine } from './escape';
import { budgetTooSmall, normalizeBudget, type RenderResult } from './fit';
import { withinBudget } from './tokens';

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
