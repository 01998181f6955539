// How a path prints (docs/spec/retrieval.md §4): as itself when that is unambiguous and safe to
// paste into `sed` or `cat`, else percent-encoded from its raw bytes. Paths arrive in
// their stored form: root-relative, percent-encoded (`@trufflepig/base` percentEncode);
// both printed forms decode back to the same bytes, so either is accepted as input.

import { percentDecode } from '@trufflepig/base';
import { isUnsafeCodePoint } from './escape';

const TAB = 0x09;

/** Whether decoded path text may print as itself: no `%`, tab, line break or other control. */
export function isPlainPathText(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x25 /* % */ || cp === TAB || isUnsafeCodePoint(cp)) return false;
  }
  return true;
}

/**
 * The printed form of a stored (percent-encoded) path: the path itself when it is valid
 * UTF-8 without control characters, tabs, newlines or `%` (`@scope/pkg/index.js`,
 * `my file.ts`, `é.ts`), else the stored percent-encoding of its raw bytes (`100%25.ts`,
 * `latin%E9.rs`, `new%0Aline.ts`).
 */
export function printedPath(stored: string): string {
  // Without an escape the stored form is printable ASCII other than the encoded specials.
  if (!stored.includes('%')) return stored;
  const raw = percentDecode(stored);
  const text = raw.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(raw)) return stored; // not valid UTF-8
  return isPlainPathText(text) ? text : stored;
}
