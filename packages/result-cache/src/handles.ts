import { MAX_POSITION_DIGITS } from './limits';
import { isLegacySetId, normalizeSetId } from './set-id';
import { fail, ok, type Outcome } from './types';

// Handles (SET:ORDINAL) and cursors (SET@OFFSET) are parsed strictly: no surrounding
// whitespace, no sign, no leading zeros, decimal digits only. The set id may be given
// in uppercase; it is normalized to lowercase, because ids are issued in lowercase only.

const HANDLE_FORM =
  'SET:ORDINAL (a set id of 6 or more characters of [0-9a-z], ":", then a 1-based ordinal, e.g. k3x9qa:1)';
const CURSOR_FORM =
  'SET@OFFSET (a set id of 6 or more characters of [0-9a-z], "@", then a 0-based offset, e.g. k3x9qa@20)';
const LEGACY = 'it is in the old 32-hex form, which is no longer issued: run the search again for a new one';
const BAD_ID = 'the set id must be 6 to 16 characters of [0-9a-z]';
const ORDINAL_PATTERN = new RegExp(`^[1-9][0-9]{0,${MAX_POSITION_DIGITS - 1}}$`);
const OFFSET_PATTERN = new RegExp(`^(?:0|[1-9][0-9]{0,${MAX_POSITION_DIGITS - 1}})$`);

/** Shows untrusted input inside a message: JSON-escaped (no control bytes), shortened. */
export function quoteInput(s: string): string {
  const shown = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return JSON.stringify(shown);
}

function splitOnce(s: string, separator: string): [string, string] | null {
  const at = s.indexOf(separator);
  if (at < 0 || s.indexOf(separator, at + 1) >= 0) return null;
  return [s.slice(0, at), s.slice(at + 1)];
}

export function parseHandle(s: string): Outcome<{ setId: string; ordinal: number }> {
  const bad = (why: string) =>
    fail<{ setId: string; ordinal: number }>(
      'bad_handle',
      `bad handle ${quoteInput(s)}: ${why}; expected ${HANDLE_FORM}`,
    );
  const parts = splitOnce(s, ':');
  if (!parts) return bad('it must contain exactly one ":"');
  if (isLegacySetId(parts[0])) return bad(LEGACY);
  const setId = normalizeSetId(parts[0]);
  if (!setId) return bad(BAD_ID);
  if (!ORDINAL_PATTERN.test(parts[1])) return bad('the ordinal must be a decimal number from 1 without leading zeros');
  return ok({ setId, ordinal: Number(parts[1]) });
}

export function parseCursor(s: string): Outcome<{ setId: string; offset: number }> {
  const bad = (why: string) =>
    fail<{ setId: string; offset: number }>(
      'bad_cursor',
      `bad cursor ${quoteInput(s)}: ${why}; expected ${CURSOR_FORM}`,
    );
  const parts = splitOnce(s, '@');
  // A handle where a cursor belongs: say what reads it (an MCP trial passed `more` a hit's handle).
  if (!parts && parseHandle(s).ok)
    return bad('it is a handle: `show` reads a handle, `more` takes the cursor of a `next:` line');
  if (!parts) return bad('it must contain exactly one "@"');
  if (isLegacySetId(parts[0])) return bad(LEGACY);
  const setId = normalizeSetId(parts[0]);
  if (!setId) return bad(BAD_ID);
  if (!OFFSET_PATTERN.test(parts[1])) return bad('the offset must be a decimal number from 0 without leading zeros');
  return ok({ setId, offset: Number(parts[1]) });
}

function assertSetId(setId: string): string {
  const id = normalizeSetId(setId);
  if (!id) throw new RangeError(`not a result set id (6 to 16 characters of [0-9a-z]): ${quoteInput(setId)}`);
  return id;
}

/** Formats a handle; throws RangeError on a malformed id or ordinal (a programming error). */
export function formatHandle(setId: string, ordinal: number): string {
  if (!Number.isSafeInteger(ordinal) || ordinal < 1)
    throw new RangeError(`ordinal must be an integer >= 1, got ${ordinal}`);
  return `${assertSetId(setId)}:${ordinal}`;
}

/** Formats a cursor; throws RangeError on a malformed id or offset (a programming error). */
export function formatCursor(setId: string, offset: number): string {
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new RangeError(`offset must be an integer >= 0, got ${offset}`);
  return `${assertSetId(setId)}@${offset}`;
}
