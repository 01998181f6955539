// The declared type of a receiver variable in Java and C#, read from the text that declares
// it: a parameter or local of the enclosing method (`Vector<String> v`, `final Map<K, V> m)`,
// `for (E e : this)`, `var m = new ConcurrentHashMap<>()`), else a field of the file
// (`private final ConcurrentHashMap<K, V> map;`). Both languages bind a call statically to
// the declared type's member, so `refs ConcurrentHashMap::size` can tell `map.size()` on a
// ConcurrentHashMap field (a site) from `v.size()` on a Vector (none); before, all 178 such
// calls in the JDK's java.util were candidates and the two real ones among them were not
// told apart (a JDK trial). Pure: text in, a type name out.

import { lastSegment } from './class-heads';

/** Languages whose declarations spell the type before the name and bind member calls statically. */
export const DECLARED_TYPE_LANGS: ReadonlySet<string> = new Set(['java', 'csharp']);

/**
 * The receivers that are the caller's own object where the language names it by a keyword
 * (Go and Lua name it otherwise: ctx reads theirs from the method's head).
 */
const OWN_OBJECT_RECEIVERS: ReadonlySet<string> = new Set(['this', '$this', 'self', 'cls', 'Self']);

/** Whether `receiver` is the caller's own object: such a keyword, or the name of its class `owner` (`A::b` or `b`'s container). */
export function namesOwnObject(receiver: string, owner: string | null): boolean {
  return OWN_OBJECT_RECEIVERS.has(receiver) || (owner !== null && receiver === lastSegment(owner));
}

/** A receiver variable before `.name` at the end of a line's text: `map.`, `this.map.`; not `a.b.`, `f().`. */
const RECEIVER = /(?:^|[^\w$.])(this\s*\.\s*)?([a-z_][\w$]*)\s*\.\s*$/;

/** The variable a member is reached through on `before` (the line's text up to the member), and whether `this.` qualified it. */
export function receiverVariable(before: string): { readonly name: string; readonly field: boolean } | undefined {
  const m = RECEIVER.exec(before);
  if (!m || m[2] === 'this' || m[2] === 'base' || m[2] === 'super') return undefined;
  return { name: m[2], field: m[1] !== undefined };
}

/** `text` matched literally inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The type the last declaration of `variable` in `text` spells, by its last segment
 * (`java.util.Map<K, V> m` → `Map`), or undefined when `text` declares none. A type is
 * capitalised, as both languages' conventions write them (a primitive has no members); `var`
 * reads the type its initializer constructs, else none.
 */
export function declaredTypeIn(text: string, variable: string): string | undefined {
  const name = escapeRegExp(variable);
  const declaration = new RegExp(
    `(?:^|[\\s(,;{<])((?:[A-Za-z_]\\w*\\.)*[A-Z]\\w*|var)\\s*(?:<[^;(){}=]*>)?\\s*(?:\\[\\s*\\]\\s*)*\\??\\s+${name}\\s*(?=[=;,):]|$)`,
    'gm',
  );
  let last: RegExpExecArray | undefined;
  for (let m = declaration.exec(text); m; m = declaration.exec(text)) last = m;
  if (!last) return undefined;
  if (last[1] !== 'var') return last[1].split('.').pop();
  const init = /^\s*=\s*new\s+((?:[A-Za-z_]\w*\.)*[A-Z]\w*)/.exec(text.slice(last.index + last[0].length));
  return init?.[1].split('.').pop();
}
