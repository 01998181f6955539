import type { ParsedQuery } from './parse';
import type { IndexReader } from './reader';

/** A name spelled with dots: `QuerySet.filter`, `models.QuerySet.filter`. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * A definition query spelled the way Python and JavaScript name a member
 * (`sym:QuerySet.filter`, `refs QuerySet.filter`) asks for `QuerySet::filter`, its last two
 * parts, when no definition is named with the dots themselves: Java's package `java.util`
 * keeps its spelling. Before, such a query answered `0 hits` with no hint (an agent trial
 * on Django). The input stays as typed; only the name looked up changes.
 */
export function dottedAsOwned(readers: readonly Pick<IndexReader, 'definitions'>[], q: ParsedQuery): ParsedQuery {
  if (!DOTTED_NAME.test(q.text) || readers.some((r) => r.definitions(q.text).length > 0)) return q;
  const parts = q.text.split('.');
  const owned = `${parts[parts.length - 2]}::${parts[parts.length - 1]}`;
  return { ...q, text: owned };
}
