// What a type's head says of its relatives, read from its text after its name: the bases it
// derives from (`ctx` bases and subclasses, `super.b` and `this.b` up a class chain in
// `refs`) and the interfaces it implements (`ctx` implementations). The one reader of class heads.
import type { IndexedDefinition } from '@trufflepig/index';
import { MIXIN_TEXT_MAX_BYTES, TYPE_HEAD_MAX_BYTES } from './limits';

/**
 * A type's head after its name, up to TYPE_HEAD_MAX_BYTES past it: `<T> extends Base<T>
 * implements I {…`. Counted from the name, not the start: a C++ template head before it
 * (abseil's node_hash_map has 250 bytes of defaulted parameters) cut the base list short.
 */
export function typeHead(bytes: Uint8Array, d: IndexedDefinition): string {
  return Buffer.from(bytes.subarray(d.nameEnd, Math.min(d.end, d.nameEnd + TYPE_HEAD_MAX_BYTES))).toString('utf8');
}

/** Bracketed arguments left out, nested ones too (`Base<Map<K, V>>`, `Generic[T]`, `<K extends Key = Key>`). */
function withoutArguments(text: string, open: string, close: string): string {
  const inner = new RegExp(`\\${open}[^\\${open}\\${close}]*\\${close}`, 'g');
  for (let prev = ''; prev !== text;) [prev, text] = [text, text.replace(inner, '')];
  return text;
}

/** A name, possibly qualified: `Base`, `mixins.M`, `Mod::Base`, `::Model`, `\App\Model`. */
const QUALIFIED_NAME = /^(?:::|\\)?[A-Za-z_$][\w$]*(?:(?:::|[\\.])[A-Za-z_$][\w$]*)*$/;

/** Each comma-separated name of a clause as spelled; anything else (a call, a keyword argument) is none. */
function spelledNames(clause: string): string[] {
  return clause
    .split(',')
    .map((n) => n.trim())
    .filter((n) => QUALIFIED_NAME.test(n));
}

/** A name's last segment: `mixins.M` → `M`, `Mod::Base` → `Base`, `\App\Model` → `Model`. */
export function lastSegment(spelled: string): string {
  return spelled.split(/::|[\\.]/).pop()!;
}

/**
 * The bases a class head names after the class's name, as spelled: `(Base, mixins.M,
 * metaclass=Meta):` in Python (never `object`), `< Mod::Base` in Ruby, `: public Base<T>, private Other {`
 * in C++, `: Base, IThing {` in C# (interfaces too: the syntax does not tell them), `<T
 * extends K> extends Base<T> implements I {` in Java, TypeScript, JavaScript and PHP (the
 * type parameters' bounds are none).
 */
export function baseSpellings(head: string, lang: string): string[] {
  let clause: string | undefined;
  if (lang === 'python') {
    const args = /^\s*\(([^)]*)\)/.exec(withoutArguments(head, '[', ']'))?.[1];
    // `object`, every class's root, says nothing a reader needs (`class Retry(object):`).
    clause = args
      ?.split(',')
      .filter((a) => !a.includes('=') && a.trim() !== 'object')
      .join(',');
  } else if (lang === 'ruby') clause = /^[^\n]*?<\s*((?:::)?[\w:]+)/.exec(head)?.[1];
  else {
    // What an argument list left open at the cut holds is no base (`raw_hash_map<` ⏎
    // `Policy<K, V>, Hash, Eq,` listed Hash and Eq as node_hash_map's bases, an abseil trial).
    const beforeBody = withoutArguments(head.split('{')[0], '<', '>').split('<')[0];
    if (lang === 'cpp')
      clause = /(?<!:):(?!:)([^;]*)$/.exec(beforeBody)?.[1]?.replace(/\b(?:public|private|protected|virtual)\b/g, '');
    else if (lang === 'csharp') clause = /:\s*([\s\S]*?)(?:\bwhere\b|$)/.exec(beforeBody)?.[1];
    else clause = /\bextends\b([\s\S]*?)(?:\bimplements\b|$)/.exec(beforeBody)?.[1];
  }
  return clause === undefined ? [] : spelledNames(clause);
}

/** baseSpellings by last segment: the names definitions carry. */
export function baseNames(head: string, lang: string): string[] {
  return baseSpellings(head, lang).map(lastSegment);
}

/**
 * The interfaces a type head declares, as spelled: `implements I, pkg.J, Outer.K` (Java,
 * TypeScript, PHP), C#'s base list after `:` (a `where` constraint after it bounds type
 * parameters).
 */
export function implementedSpellings(head: string, lang: string): string[] {
  const beforeBody = withoutArguments(head.split('{')[0], '<', '>');
  const clause =
    lang === 'csharp'
      ? /:\s*([\s\S]*?)(?:\bwhere\b|$)/.exec(beforeBody)?.[1]
      : /\bimplements\b([\s\S]*)$/.exec(beforeBody)?.[1];
  return clause === undefined ? [] : spelledNames(clause);
}

/** `use A, B\\C;` or `use A, B { A::x insteadof B; }` at a PHP class body's start. */
const PHP_TRAIT_USE = /^\s*use\s+([^;{]+)(?:;|\{[^}]*\})/;

/**
 * The modules a class mixes in, as spelled: a PHP class's traits, the `use` statements that
 * open its body (Laravel's `Model` opens with `use Concerns\HasAttributes, …;`; statements
 * after the first member are not read); a Ruby class's `include`, `extend` and `prepend`
 * lines at its body's own indentation (Rails' `ActiveRecord::Base` holds 50 of them, none
 * of a nested class counted). Read up to MIXIN_TEXT_MAX_BYTES past the name. A mixin's
 * methods are the class's own, so mixins stand with its bases. None in other languages.
 */
export function mixinSpellings(bytes: Uint8Array, d: IndexedDefinition): string[] {
  if ((d.file.lang !== 'php' && d.file.lang !== 'ruby') || d.kind === 'interface') return [];
  const body = Buffer.from(bytes.subarray(d.nameEnd, Math.min(d.end, d.nameEnd + MIXIN_TEXT_MAX_BYTES))).toString(
    'utf8',
  );
  return d.file.lang === 'php' ? phpTraits(body) : rubyMixins(body);
}

function phpTraits(body: string): string[] {
  const open = body.indexOf('{');
  if (open < 0) return [];
  const out: string[] = [];
  let rest = body.slice(open + 1).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|#[^\n]*/g, '');
  for (let m = PHP_TRAIT_USE.exec(rest); m; m = PHP_TRAIT_USE.exec(rest)) {
    out.push(...spelledNames(m[1]));
    rest = rest.slice(m[0].length);
  }
  return out;
}

/** `include A, B::C`, `extend D`, `prepend E` alone on a line (no block, no call after). */
const RUBY_MIXIN = /^([ \t]*)(?:include|extend|prepend)[ \t]+([A-Z][\w:]*(?:[ \t]*,[ \t]*[A-Z][\w:]*)*)[ \t]*(?:#.*)?$/;

function rubyMixins(body: string): string[] {
  const lines = body.split('\n').slice(1);
  // The body's own indentation: its first line that holds code.
  const first = lines.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (first === undefined) return [];
  const indent = /^[ \t]*/.exec(first)![0];
  const out: string[] = [];
  for (const line of lines) {
    const m = RUBY_MIXIN.exec(line);
    if (m && m[1] === indent) out.push(...spelledNames(m[2]));
  }
  return out;
}

/** Python decorator lines ending where a definition starts (arguments may span lines). */
const DECORATORS_BEFORE = /(?:^[ \t]*@[\w.]+[ \t]*(?:\([^)]*\))?[ \t]*\r?\n)+[ \t]*$/m;

/**
 * The interfaces a Python class's decorators declare it implements, as spelled:
 * zope.interface's `@implementer(IProtocol, interfaces.ILoggingContext)`, read from the
 * text before the class's `class` (its span starts there, after its decorators).
 */
export function decoratorImplementedSpellings(before: string): string[] {
  const block = DECORATORS_BEFORE.exec(before)?.[0] ?? '';
  const out: string[] = [];
  for (const m of block.matchAll(/@(?:[\w.]+\.)?implementer\s*\(([^)]*)\)/g)) out.push(...spelledNames(m[1]));
  return out;
}
