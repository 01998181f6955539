import { moduleNameOf } from '@trufflepig/rank';
import type { ParsedQuery } from './parse';
import type { IndexReader } from './reader';

/**
 * A member named the way Python, JavaScript and Javadoc name it: `QuerySet.filter`,
 * `models.QuerySet.filter`, `HashMap#resize`, `java.util.HashMap#resize`.
 */
const OWNED_MEMBER = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)[.#]([A-Za-z_$][\w$]*)$/;

/** The owner and member a dotted or Javadoc name spells (its last two parts), undefined for any other text. */
export function ownedMemberOf(text: string): { readonly owner: string; readonly name: string } | undefined {
  const m = OWNED_MEMBER.exec(text);
  return m ? { owner: m[1], name: m[2] } : undefined;
}

/**
 * A definition query spelled the way Python and JavaScript name a member
 * (`sym:QuerySet.filter`, `refs QuerySet.filter`) or as Javadoc does (`HashMap#resize`)
 * asks for `QuerySet::filter`, its last two parts, and a PHP spelling for the name the
 * index gives it (phpSpelled), when no definition is named as typed: Java's package
 * `java.util` keeps its spelling. Before, such a query answered `0 hits` with no hint (an
 * agent trial on Django). The input stays as typed; only the name looked up changes.
 */
export function dottedAsOwned(
  readers: readonly Pick<IndexReader, 'definitions'>[],
  q: ParsedQuery,
  options: { readonly moduleMembers: boolean } = { moduleMembers: true },
): ParsedQuery {
  const member = ownedMemberOf(q.text);
  const asked = member ? `${member.owner}::${member.name}` : phpSpelled(q.text);
  if (asked === undefined || readers.some((r) => r.definitions(q.text).length > 0)) return q;
  if (member) return (options.moduleMembers && moduleMember(readers, q, member)) || { ...q, text: asked };
  return (options.moduleMembers && phpNamespaceFiles(readers, q, asked)) || { ...q, text: asked };
}

/**
 * A PHP name with its namespace (`Doctrine\DBAL\Driver\Connection`) is the definition of
 * its last segment in the file the namespace places it in (PSR-4: one class a file, the
 * namespace's trailing segments its directories): among the definitions of the name, the
 * ones whose directories end with the most of the namespace's trailing segments, then the
 * shallowest (`Doctrine\DBAL\Result` is src/Result.php, not src/Driver/IBMDB2/Result.php).
 * The query then asks for the name in those files. Before, the namespace was dropped and
 * `show sym:Doctrine\DBAL\Driver\Connection` read the wrapper class src/Connection.php
 * (a PHP trial on Doctrine DBAL). Undefined when the name has no namespace or one file at most defines it.
 */
function phpNamespaceFiles(
  readers: readonly Pick<IndexReader, 'definitions'>[],
  q: ParsedQuery,
  asked: string,
): ParsedQuery | undefined {
  const m = PHP_NAMESPACED.exec(q.text);
  if (!m) return undefined;
  const namespace = q.text.replace(/^\\/, '').split('\\').slice(0, -1);
  const [owner, name] = asked.includes('::') ? asked.split('::') : [undefined, asked];
  const defs = readers.flatMap((r) => r.definitions(name, owner === undefined ? {} : { container: owner }));
  const paths = [...new Set(defs.map((d) => d.file.path))];
  if (paths.length < 2) return undefined;
  const fit = (path: string) => {
    const dirs = path.split('/').slice(0, -1);
    let matched = 0;
    while (
      matched < dirs.length &&
      matched < namespace.length &&
      dirs[dirs.length - 1 - matched] === namespace[namespace.length - 1 - matched]
    )
      matched++;
    return { matched, depth: dirs.length };
  };
  const scored = paths.map((p) => ({ p, ...fit(p) }));
  const best = Math.max(...scored.map((x) => x.matched));
  const shallowest = Math.min(...scored.filter((x) => x.matched === best).map((x) => x.depth));
  const chosen = scored.filter((x) => x.matched === best && x.depth === shallowest).map((x) => x.p);
  return { ...q, text: asked, fileInclude: [...q.fileInclude, ...chosen] };
}

/**
 * A dotted name whose owner is a module, not a type: `vim.lsp.util.make_position_params`
 * is `make_position_params` of the file whose module is `util` (Lua's module table `M`,
 * a Python module's function), when no definition is owned by `util` itself. The query
 * then asks for the name in those files (as `file:` would); undefined when none defines it.
 * For definition queries only (`search sym:`, `show sym:`): `refs` looks for sites in every
 * file, and a `file:` filter would drop them (`moduleMembers: false`).
 * Before, an agent trial on the Neovim runtime got `0 hits` with no hint.
 */
function moduleMember(
  readers: readonly Pick<IndexReader, 'definitions'>[],
  q: ParsedQuery,
  member: { readonly owner: string; readonly name: string },
): ParsedQuery | undefined {
  if (readers.some((r) => r.definitions(member.name, { container: member.owner }).length > 0)) return undefined;
  const paths = new Set(
    readers.flatMap((r) =>
      r
        .definitions(member.name)
        .filter((d) => moduleNameOf(d.file.path) === member.owner)
        .map((d) => d.file.path),
    ),
  );
  if (paths.size === 0) return undefined;
  return { ...q, text: member.name, fileInclude: [...q.fileInclude, ...paths] };
}

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
