// Display escaping: repository text is data, never terminal control (spec, preamble).
//
// Escaped forms: one-byte controls (C0, DEL) and invalid UTF-8 bytes are `\xNN` (uppercase
// hex); other unsafe code points (C1 controls, U+2028/U+2029 line separators, bidi
// embedding/override/isolate controls, lone surrogates) are `\u{XXXX}`.

/** Code points unsafe in displayed text, tab excepted (tabs are ordinary code indentation). */
const UNSAFE_EXCEPT_TAB =
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const UNSAFE_IN_FIELD =
  /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

export function isUnsafeCodePoint(cp: number): boolean {
  return (
    (cp < 0x20 && cp !== 0x09) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    (cp >= 0xd800 && cp <= 0xdfff)
  );
}

export function escapeByte(byte: number): string {
  return '\\x' + byte.toString(16).toUpperCase().padStart(2, '0');
}

export function escapeCodePoint(cp: number): string {
  return cp < 0x80 ? escapeByte(cp) : '\\u{' + cp.toString(16).toUpperCase() + '}';
}

/** Whether a decoded string needs escaping for display (tab allowed). */
export function hasUnsafeText(text: string): boolean {
  return UNSAFE_EXCEPT_TAB.test(text);
}

/**
 * Escapes a single-line field of the `lines` format (names, snippets, coverage): tabs and line
 * breaks too, so no field can add a column or a line. Text that is already display-escaped
 * passes through unchanged apart from tabs.
 */
export function escapeLineField(text: string): string {
  return text.replace(UNSAFE_IN_FIELD, (ch) => escapeCodePoint(ch.codePointAt(0) ?? 0));
}

const UNSAFE_IN_SOURCE_LINE =
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/**
 * Escapes one line of source text shown in the `lines` format (evidence lines, refs and map
 * rows) as escapeLineField does, except that tabs stay tabs, as `show` rows keep them: such a
 * line is read by its prefix (`  LINE: `, `ROW LINE `), never split on tabs, and `\x09` cost
 * three tokens where a tab costs one on every aligned line of C (the kernel's `#define X\t(5 * HZ)`).
 */
export function escapeSourceLine(text: string): string {
  return text.replace(UNSAFE_IN_SOURCE_LINE, (ch) => escapeCodePoint(ch.codePointAt(0) ?? 0));
}

// Characters JSON.stringify leaves raw that a terminal or line-oriented reader may act on.
const JSON_RAW_UNSAFE = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * One JSON line: JSON.stringify (which escapes C0 controls and lone surrogates) plus `\uXXXX`
 * escapes for DEL, C1, line separators and bidi controls. Those can only occur inside JSON
 * strings, so the result parses back to the same value.
 */
export function jsonLine(value: unknown): string {
  return (
    JSON.stringify(value).replace(JSON_RAW_UNSAFE, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')) +
    '\n'
  );
}

/** Separator of the fields of a lines-format header (a search hit, a `show` header): two spaces. */
export const FIELD = '  ';
