// Errors fitted to a budget: the one place that decides what an error prints.

import { escapeLineField, jsonLine } from './escape';
import { largestFitting, normalizeBudget } from './fit';
import { ERROR_MESSAGE_MAX_CHARS } from './limits';
import { withinBudget } from './tokens';

export interface RenderError {
  code: string;
  message: string;
}

export interface FittedError {
  /** "" or one `{"error":{"code","message"}}` line, newline included, within the budget. */
  stdout: string;
  /** `trufflepig: CODE: MESSAGE` and a newline: one line, escaped, bounded. */
  stderr: string;
}

const CUT = '…';

/**
 * `text` when it has at most `max` UTF-16 code units, else its longest prefix that leaves
 * room for `…` and does not end inside a surrogate pair, then `…`.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - CUT.length);
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end--;
  return text.slice(0, end) + CUT;
}

/** An error message as printed anywhere: at most ERROR_MESSAGE_MAX_CHARS characters. */
export function boundedMessage(message: string): string {
  return cutText(message, ERROR_MESSAGE_MAX_CHARS);
}

/** The stderr line of an error: code and bounded message, escaped so it stays one line. */
export function errorLine(code: string, message: string): string {
  return `trufflepig: ${escapeLineField(code)}: ${escapeLineField(boundedMessage(message))}\n`;
}

function errorJson(code: string, message: string): string {
  return jsonLine({ error: { code, message } });
}

/**
 * Fit one error to a budget of o200k_base tokens. Guarantees, for every input:
 * - `stdout` has at most `budget` tokens: it is "" when the budget is 0 (or below the
 *   smallest error, about a dozen tokens), else one JSON line
 *   `{"error":{"code","message"}}`;
 * - the code is never cut: only the message is, to its longest prefix that fits, marked
 *   with a final `…` (a prefix of whole characters, never half a surrogate pair);
 * - no message longer than ERROR_MESSAGE_MAX_CHARS is ever printed, on stdout or stderr;
 * - `stderr` is always the whole coded line (`trufflepig: CODE: MESSAGE`, escaped, one
 *   line), whatever the budget, so a cut or missing stdout still leaves the reason.
 * Exit codes are the caller's: fitting never changes them.
 */
export function fitError(err: RenderError, budget: number): FittedError {
  const b = normalizeBudget(budget);
  const message = boundedMessage(err.message);
  const stderr = errorLine(err.code, message);
  if (b === 0) return { stdout: '', stderr };
  const whole = errorJson(err.code, message);
  if (withinBudget(whole, b)) return { stdout: whole, stderr };
  const chars = Array.from(message);
  const cutAt = (n: number) => errorJson(err.code, chars.slice(0, n).join('') + CUT);
  const keep = largestFitting(chars.length, (n) => withinBudget(cutAt(n), b));
  if (keep > 0) return { stdout: cutAt(keep), stderr };
  const smallest = cutAt(0);
  return { stdout: withinBudget(smallest, b) ? smallest : '', stderr };
}

/** What an unexpected exception tells a user: one coded line, never a stack. */
const INTERNAL_HINT = ' (an internal error: please report it with the command that caused it)';

/**
 * An exception as a coded error: `internal_error` and the first line of its message,
 * bounded. The stack is never part of it.
 */
export function internalErrorOf(err: unknown): RenderError {
  let text: string;
  try {
    text = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  } catch {
    text = 'an exception that cannot be described';
  }
  const first = text.split(/\r?\n/)[0].trim() || 'unknown error';
  return {
    code: 'internal_error',
    message: cutText(first, ERROR_MESSAGE_MAX_CHARS - INTERNAL_HINT.length) + INTERNAL_HINT,
  };
}
