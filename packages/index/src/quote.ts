// Quoting user-supplied text in messages: a bounded prefix, never the whole input.
import { QUOTED_INPUT_MAX_CHARS } from './limits';

/**
 * `text` when it has at most `max` characters, else its first characters (never half a
 * surrogate pair), `…` and the full length, so a 100,000-character word costs a message
 * a few dozen characters: `aaaa…(100000 characters)`.
 */
export function quoteInput(text: string, max: number = QUOTED_INPUT_MAX_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  if (/[\ud800-\udbff]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…(${text.length} characters)`;
}
