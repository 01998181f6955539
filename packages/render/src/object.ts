// Plain objects (status/index verbs): one budgeted JSON line, or in lines format one
// `key: value` line per field (errors: fit-error.ts).

import { escapeLineField, jsonLine } from './escape';
import { budgetTooSmall, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
import { withinBudget } from './tokens';

/**
 * One JSON line when it fits the budget, else the budget_too_small status (or "") plus a
 * hint. In lines format `lines` renders the object when given (a verb whose answer has a
 * shape of its own: `ws status`'s one row per member), else objectLines.
 */
export function renderObject<T extends Readonly<Record<string, unknown>>>(
  value: T,
  opts: { budget: number; format?: OutputFormat; lines?: (value: T) => string },
): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const format = opts.format ?? 'json';
  const text = format === 'json' ? jsonLine(value) : (opts.lines ?? objectLines)(value);
  if (withinBudget(text, budget)) return { stdout: text, shown: 1 };
  return budgetTooSmall(text, budget, format, 'this response');
}

/** An empty list or record. */
function isEmpty(v: unknown): boolean {
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * Lines format of a plain object: `key: value` per field; a nested object prints one line
 * per field as `key.sub: value` (`key: none` when it has none), lists and deeper values as
 * compact JSON.
 */
export function objectLines(value: Readonly<Record<string, unknown>>): string {
  let out = '';
  // An empty list or record nested one level down reads `none` too (`coverage.excluded: none`).
  const scalar = (v: unknown): string => (typeof v === 'string' ? v : isEmpty(v) ? 'none' : jsonLine(v).slice(0, -1));
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const entries = Object.entries(v as Record<string, unknown>);
      // An empty record reads as what it says (`excluded: none`), not as JSON beside `key.sub:` lines.
      if (entries.length === 0) out += `${escapeLineField(key)}: none\n`;
      for (const [sub, w] of entries)
        if (w !== undefined) out += `${escapeLineField(`${key}.${sub}`)}: ${escapeLineField(scalar(w))}\n`;
    } else out += `${escapeLineField(key)}: ${escapeLineField(scalar(v))}\n`;
  }
  return out;
}
