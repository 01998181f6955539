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
  // Javadoc's `HashMap#resize` names the member as `HashMap.resize` does.
  const javadoc = JAVADOC_MEMBER.exec(q.text);
  if (javadoc && !readers.some((r) => r.definitions(q.text).length > 0))
    return { ...q, text: `${javadoc[1]}::${javadoc[2]}` };
  const php = phpSpelled(q.text);
  if (php !== undefined && !readers.some((r) => r.definitions(q.text).length > 0)) return { ...q, text: php };
  if (!DOTTED_NAME.test(q.text) || readers.some((r) => r.definitions(q.text).length > 0)) return q;
  const parts = q.text.split('.');
  const owned = `${parts[parts.length - 2]}::${parts[parts.length - 1]}`;
  return { ...q, text: owned };
}

/** A Javadoc member reference: `HashMap#resize`, `java.util.HashMap#resize`. */
const JAVADOC_MEMBER = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)#([A-Za-z_$][\w$]*)$/;

/** A PHP name with a namespace (`Symfony\Component\HttpFoundation\Request`, `\Foo\Bar::baz`). */
const PHP_NAMESPACED = /^\\?(?:[A-Za-z_][\w]*\\)+([A-Za-z_]\w*(?:::\$?[A-Za-z_]\w*)?)$/;
/** A PHP static property spelled with its sigil: `Request::$trustedProxies`. */
const PHP_SIGIL_MEMBER = /^([A-Za-z_]\w*)::\$([A-Za-z_]\w*)$/;

/**
 * The name a PHP spelling asks for, as the index names it, undefined when `text` is not
 * one: a namespaced name is its last segment (`use` lines and stack traces spell it so)
 * and a property loses its `$` (definitions are named without it). An agent trial on
 * Symfony got `no_definition` for both, with no hint.
 */
function phpSpelled(text: string): string | undefined {
  const namespaced = PHP_NAMESPACED.exec(text);
  const local = namespaced ? namespaced[1] : text;
  const sigil = PHP_SIGIL_MEMBER.exec(local);
  const name = sigil ? `${sigil[1]}::${sigil[2]}` : local;
  return name === text ? undefined : name;
}
