// What `ctx` lists as an interface's or trait's implementations and a class's subclasses
// (docs/navigation.md, `ctx`: "Implementations", "Subclasses"): in Go the types whose methods
// satisfy an interface (go-interfaces.ts), where a clause names it the types declaring it
// (`class A implements I`, C#'s `class A : I`, Rust's `impl I for A`, `class B(A)`,
// `class B extends A`, `class B < A`, `struct B : public A`), read from the files that use the name.
import * as path from 'node:path';
import { byPath, OWNER_KINDS, readIndexedBytes, type IndexedDefinition, type IndexedFile } from '@trufflepig/index';
import { followImport, moduleMemberTrail } from './resolve';
import { nearestDefinition } from './dirs';
import { fileStanding } from '@trufflepig/rank';
import {
  baseSpellings,
  decoratorImplementedSpellings,
  implementedSpellings,
  lastSegment,
  mixinSpellings,
  typeHead,
} from './class-heads';
import { goImplementations } from './go-interfaces';
import {
  CTX_EXTENDING_INTERFACES_MAX,
  CTX_IMPLEMENTATION_FILES_MAX,
  CTX_OVERRIDE_DEPTH,
  DECORATOR_TEXT_MAX_BYTES,
} from './limits';
import type { NavTarget } from './target';
import { useRowsOf } from './uses';

/** The types found, ordered, at most the limit asked for, and how many more there were. */
export interface Implementations {
  readonly types: IndexedDefinition[];
  readonly more: number;
  /**
   * The interfaces whose heads extend the focus, one level (Java, C#, TypeScript, PHP), read
   * in the same pass: ctx's overrides read their `default` methods (the JDK's
   * `ChronoLocalDate::adjustInto` overrides `TemporalAdjuster::adjustInto`).
   */
  readonly extending: IndexedDefinition[];
}

/** Languages whose types name the interfaces they implement in their heads. */
const DECLARING_LANGS: ReadonlySet<string> = new Set(['java', 'csharp', 'typescript', 'tsx', 'php', 'rust']);

/** Languages whose types declare what they implement: DECLARING_LANGS, and Python through zope.interface. */
function declaring(lang: string): boolean {
  return DECLARING_LANGS.has(lang) || lang === 'python';
}

/**
 * A zope.interface interface: a Python class deriving from `Interface` (`class
 * IProtocol(Interface)`), or from such a class, within CTX_OVERRIDE_DEPTH levels. Its
 * implementations declare it with `@implementer(...)`: Twisted's `ctx sym:IProtocol` had
 * listed none of them (an agent trial).
 */
function isZopeInterface(t: NavTarget, focus: IndexedDefinition): boolean {
  if (focus.file.lang !== 'python' || focus.kind !== 'class') return false;
  const namesInterface = (c: IndexedDefinition): true | undefined => {
    const bytes = readIndexedBytes(t.root, c.file);
    return bytes && baseSpellings(typeHead(bytes, c), 'python').some((b) => lastSegment(b) === 'Interface')
      ? true
      : undefined;
  };
  return (namesInterface(focus) ?? upBases(t, focus, namesInterface, CTX_OVERRIDE_DEPTH - 1)) === true;
}

/** Definitions that can implement an interface: classes, structs, records, enums (not interfaces). */
const IMPLEMENTING_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'record', 'enum']);

/**
 * The implementations of `focus` when it is an interface (Go, Java, C#, TypeScript, PHP) or
 * a Rust trait; none for anything else. At most `limit`, own directory first, then code
 * before tests and build output, then by path.
 */
export function implementationsOf(t: NavTarget, focus: IndexedDefinition, limit: number): Implementations {
  const { found, extending } =
    focus.kind === 'interface' && focus.file.lang === 'go'
      ? { found: goImplementations(t.reader, focus, (d) => readIndexedBytes(t.root, d.file)), extending: [] }
      : declaredImplementations(t, focus);
  return { ...ordered(found, focus, limit), extending };
}

/** Own directory first, then code before tests and build output, then by path; at most `limit`. */
function ordered<T extends IndexedDefinition>(
  found: T[],
  focus: IndexedDefinition,
  limit: number,
): { types: T[]; more: number } {
  const home = path.posix.dirname(focus.file.path);
  found.sort(
    (a, b) =>
      Number(path.posix.dirname(a.file.path) !== home) - Number(path.posix.dirname(b.file.path) !== home) ||
      fileStanding(a.file) - fileStanding(b.file) ||
      byPath(a.file, b.file) ||
      a.start - b.start,
  );
  return { types: found.slice(0, limit), more: Math.max(0, found.length - limit) };
}

/**
 * The types whose heads name `focus`, an interface or a Rust trait, in no order; none for
 * anything else. A type implementing an interface that extends `focus` implements it too
 * (`LinkedBlockingDeque implements BlockingDeque`, which extends `BlockingQueue`: a JDK
 * trial's `ctx` of BlockingQueue missed it and LinkedTransferQueue): the extending
 * interfaces' implementations are read as well, breadth first, at most
 * CTX_EXTENDING_INTERFACES_MAX of them. The interfaces themselves are no implementations;
 * the ones extending `focus` itself are returned beside them (Implementations.extending).
 */
function declaredImplementations(
  t: NavTarget,
  focus: IndexedDefinition,
): { found: IndexedDefinition[]; extending: IndexedDefinition[] } {
  // TypeScript implements classes too: rxjs's `HotObservable extends Subject implements
  // SubscriptionLoggable` (a class) was no implementation of it in `ctx` (an agent trial).
  const contract =
    focus.kind === 'interface' ||
    (focus.kind === 'trait' && focus.file.lang === 'rust') ||
    (focus.kind === 'class' && classFamily(focus.file.lang) === 'typescript') ||
    isZopeInterface(t, focus);
  if (!contract || !declaring(focus.file.lang)) return { found: [], extending: [] };
  const found: IndexedDefinition[] = [];
  const contracts = [focus];
  const known = (list: readonly IndexedDefinition[], d: IndexedDefinition) =>
    list.some((x) => x.file.id === d.file.id && x.start === d.start);
  let extending: IndexedDefinition[] = [];
  for (let i = 0; i < contracts.length; i++) {
    const declared = declaredBy(t, contracts[i]);
    if (i === 0) extending = focus.kind === 'interface' ? declared.extending : [];
    for (const d of declared.implementing) if (!known(found, d)) found.push(d);
    for (const d of declared.extending)
      if (!known(contracts, d) && contracts.length <= CTX_EXTENDING_INTERFACES_MAX) contracts.push(d);
  }
  return { found, extending };
}

/** The types whose heads implement `focus` and, outside Rust, the interfaces whose heads extend it. */
function declaredBy(
  t: NavTarget,
  focus: IndexedDefinition,
): { implementing: IndexedDefinition[]; extending: IndexedDefinition[] } {
  const implementing: IndexedDefinition[] = [];
  const extending: IndexedDefinition[] = [];
  const files = useRowsOf(t.reader, focus.name)
    .map((u) => u.file)
    .filter((f) => declaring(f.lang) && classFamily(f.lang) === classFamily(focus.file.lang))
    .slice(0, CTX_IMPLEMENTATION_FILES_MAX);
  for (const file of files) {
    const bytes = readIndexedBytes(t.root, file);
    if (!bytes) continue;
    const defs = t.reader.fileDefinitions(file.path);
    if (file.lang === 'rust') {
      for (const type of rustImplementors(Buffer.from(bytes).toString('utf8'), focus.name)) {
        const def =
          defs.find((d) => d.name === type && OWNER_KINDS.has(d.kind)) ??
          t.reader.definitions(type).find((d) => OWNER_KINDS.has(d.kind) && d.file.lang === 'rust');
        if (def && !implementing.includes(def)) implementing.push(def);
      }
      continue;
    }
    // `use Doctrine\DBAL\Driver\Result as ResultInterface;` then `implements ResultInterface`:
    // the head names the alias (7 of Doctrine DBAL's driver Results were missing from `ctx` of
    // the interface, a PHP trial), when the import leads to `focus` or to nothing indexed.
    const aliases = new Set(
      t.reader
        .fileImports(file.path)
        .filter((i) => i.name === focus.name && i.alias !== null && i.alias !== focus.name)
        .filter((i) => {
          const to = followImport(t.reader, i, focus.name).definitions;
          return to.length === 0 || to.some((d) => d.file.id === focus.file.id && d.start === focus.start);
        })
        .map((i) => i.alias!),
    );
    const names = (spelled: readonly string[]) => spelled.some((n) => spellsContract(n, focus, aliases));
    for (const d of defs) {
      if (d.file.path === focus.file.path && d.start === focus.start) continue;
      const declared =
        file.lang === 'python'
          ? decoratorImplementedSpellings(
              Buffer.from(bytes.subarray(Math.max(0, d.start - DECORATOR_TEXT_MAX_BYTES), d.start)).toString('utf8'),
            )
          : implementedSpellings(typeHead(bytes, d), file.lang);
      if (IMPLEMENTING_KINDS.has(d.kind) && names(declared)) implementing.push(d);
      else if (
        (d.kind === 'interface' || (file.lang === 'python' && d.kind === 'class')) &&
        names(baseSpellings(typeHead(bytes, d), file.lang)) &&
        (d.kind === 'interface' || isZopeInterface(t, d))
      )
        extending.push(d);
    }
  }
  return { implementing, extending };
}

/**
 * Whether a head's spelled type names `focus`: its last segment is the name (or an import
 * alias of it), and a qualifier names the owner of a nested interface: `Stream.Builder` is
 * Stream's `Builder`, not `Node.Builder` (a JDK trial listed five other `Builder`s' classes
 * as implementations of `Stream.Builder`). A top-level interface's qualifier is its package
 * or namespace (`geo.Shape`, `\App\Cache`) and is not compared.
 */
function spellsContract(spelled: string, focus: IndexedDefinition, aliases: ReadonlySet<string>): boolean {
  const segments = spelled.split(/::|[\\.]/).filter(Boolean);
  const last = segments[segments.length - 1];
  if (segments.length === 1 && aliases.has(last)) return true;
  if (last !== focus.name) return false;
  return segments.length === 1 || focus.container === null || segments[segments.length - 2] === focus.container;
}

/** The types a Rust file implements `trait` for (`impl<T> Trait for Type<T>`, `impl fmt::Display for X`). */
function rustImplementors(text: string, trait: string): string[] {
  return rustImplHeads(text)
    .filter((h) => h.trait !== undefined && h.trait.split('::').pop() === trait)
    .map((h) => h.type.split('::').pop()!);
}

/** A Rust `impl` head: the type, the trait as written when it implements one, where it starts. */
export interface RustImplHead {
  readonly type: string;
  readonly trait?: string;
  readonly start: number;
}

const RUST_IMPL_HEAD =
  /\bimpl\b\s*(?:<[^{]*?>)?\s*((?:\w+::)*\w+)(?:<[^{]*?>)?(?:\s+for\s+&?(?:'\w+\s+)?(?:mut\s+)?((?:\w+::)*\w+))?/g;

/** Every `impl` head of a Rust file's text, in order: `impl<T> Trait for Type<T>`, `impl Type`. */
export function rustImplHeads(text: string): RustImplHead[] {
  const out: RustImplHead[] = [];
  RUST_IMPL_HEAD.lastIndex = 0;
  for (let m = RUST_IMPL_HEAD.exec(text); m; m = RUST_IMPL_HEAD.exec(text))
    out.push(m[2] !== undefined ? { type: m[2], trait: m[1], start: m.index } : { type: m[1], start: m.index });
  return out;
}

/** A subclass, `candidate` when the root defines another class of the name that its head may mean. */
export type Subclass = IndexedDefinition & { readonly resolution?: 'candidate' };

/** The subclasses found, ordered, at most the limit asked for, and how many more there were. */
export interface Subclasses {
  readonly types: Subclass[];
  readonly more: number;
}

/** Languages whose class heads name the classes they derive from (class-heads.ts baseNames). */
const SUBCLASSING_LANGS: ReadonlySet<string> = new Set([
  'python',
  'ruby',
  'java',
  'csharp',
  'php',
  'typescript',
  'tsx',
  'javascript',
  'cpp',
]);

/** Whether a definition can be a base: a class, and in C++ a struct too. */
function canBeBase(d: IndexedDefinition): boolean {
  return SUBCLASSING_LANGS.has(d.file.lang) && (d.kind === 'class' || (d.kind === 'struct' && d.file.lang === 'cpp'));
}

/**
 * Whether a type's head names the types it derives from: a class (canBeBase), and an
 * interface whose head extends others (`interface SchedulerAction<T> extends Subscription`:
 * rxjs's `ctx sym:SchedulerAction` named no base, an agent trial).
 */
function hasBases(d: IndexedDefinition): boolean {
  return canBeBase(d) || (d.kind === 'interface' && DECLARING_LANGS.has(d.file.lang) && d.file.lang !== 'rust');
}

/** Kinds that derive from a class: C++ and C# structs too. */
const DERIVING_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'record']);

/**
 * TypeScript, TSX and JavaScript are one family (a JavaScript class may extend a TypeScript
 * one; JavaScript declares no interfaces, DECLARING_LANGS leaves it out); other languages
 * stand alone.
 */
function classFamily(lang: string): string {
  return lang === 'tsx' || lang === 'javascript' ? 'typescript' : lang;
}

/**
 * The classes whose heads name `focus`, a class, as a base (none for anything else). When
 * the root defines several classes of that name in the language, a subclass outside the
 * focus's own file is a `candidate`: its head names the name, which of them it means is
 * not resolved.
 */
export function subclassesOf(
  t: NavTarget,
  focus: IndexedDefinition,
  limit: number,
  /** implementationsOf(focus), when the caller has it: its files are not read again. */
  implementations?: Implementations,
): Subclasses {
  // An interface's are the interfaces extending it (`OperatorFunction extends UnaryFunction`:
  // rxjs's `ctx sym:UnaryFunction` said nothing of it, an agent trial).
  if (focus.kind === 'interface')
    return ordered((implementations ?? declaredImplementations(t, focus)).extending, focus, limit);
  if (!canBeBase(focus) && !isMixin(focus)) return { types: [], more: 0 };
  const family = classFamily(focus.file.lang);
  const namesakeDefs = namesakesOf(t, focus, family);
  const namesakes = namesakeDefs.length;
  const found: Subclass[] = [];
  const files = useRowsOf(t.reader, focus.name)
    .map((u) => u.file)
    .filter((f) => classFamily(f.lang) === family)
    .slice(0, CTX_IMPLEMENTATION_FILES_MAX);
  for (const file of files) {
    const bytes = readIndexedBytes(t.root, file);
    if (!bytes) continue;
    // `from ..sansio.request import Request as _SansIORequest`: the head names the alias.
    const spellings = new Set([focus.name]);
    for (const i of t.reader.fileImports(file.path)) if (i.name === focus.name && i.alias) spellings.add(i.alias);
    for (const d of t.reader.fileDefinitions(file.path)) {
      if (!DERIVING_KINDS.has(d.kind) || (d.file.path === focus.file.path && d.start === focus.start)) continue;
      // A mixin's are the classes mixing it in (a Ruby module's includers, a PHP trait's users).
      const spelled = isMixin(focus) ? mixinSpellings(bytes, d) : baseSpellings(typeHead(bytes, d), file.lang);
      const named = spelled.filter((n) => spellings.has(lastSegment(n)));
      const means = named.map((n) => {
        const bound = baseBinding(t, file, n, family);
        if (bound.by !== 'name') return subclassing(bound, focus, file, namesakes);
        // By name, the spelling's scope decides among namesakes (scopedNamesakes).
        const meant = scopedNamesakes(n, d, namesakeDefs);
        if (!meant.some((m) => m.file.id === focus.file.id && m.start === focus.start)) return undefined;
        return meant.length === 1 ? ('resolved' as const) : subclassing(bound, focus, file, namesakes);
      });
      const sure = means.find((m) => m === 'resolved') ?? means.find((m) => m === 'candidate');
      if (sure) found.push(sure === 'candidate' ? { ...d, resolution: 'candidate' } : d);
    }
  }
  return ordered(found, focus, limit);
}

/**
 * Whether a head's base, bound as `bound` in `file`, means `focus`: `resolved` when its
 * binding reaches `focus` alone, `candidate` when `focus` is among what it may mean, else
 * undefined (the file's own class of the name, or an import leading elsewhere: urllib3's
 * `class InvalidChunkLength(HTTPError, httplib_IncompleteRead)` derives from `http.client`'s
 * `IncompleteRead`, not from the class of that name defined above it).
 */
function subclassing(
  bound: BaseBinding,
  focus: IndexedDefinition,
  file: IndexedFile,
  namesakes: number,
): 'resolved' | 'candidate' | undefined {
  if (bound.by === 'name') return namesakes > 1 && file.path !== focus.file.path ? 'candidate' : 'resolved';
  const isFocus = (d: IndexedDefinition) => d.file.id === focus.file.id && d.start === focus.start;
  if (!bound.classes.some(isFocus)) return undefined;
  if (bound.by === 'file') return bound.classes.length === 1 ? 'resolved' : 'candidate';
  return bound.certain ? 'resolved' : 'candidate';
}

/** A class's bases: the indexed definitions its head names, and the names the index holds none of. */
export interface Bases {
  readonly types: Subclass[];
  readonly unresolved: string[];
}

/**
 * How a file binds a base its class head spells, as `refs` resolves a use of the name:
 * - `file`: the file defines classes of the name (those);
 * - `import`: an import binds it (`from urllib3.exceptions import HTTPError as
 *   BaseHTTPError`), and its trail reaches these classes (none: a dependency's, or another
 *   member's), `certain` when the trail is;
 * - `name`: nothing in the file binds it, so any class of the name in the root may be meant.
 */
type BaseBinding =
  | { readonly by: 'file'; readonly classes: readonly IndexedDefinition[] }
  | { readonly by: 'import'; readonly classes: readonly IndexedDefinition[]; readonly certain: boolean }
  | { readonly by: 'name' };

function baseBinding(t: NavTarget, file: IndexedFile, spelled: string, family: string): BaseBinding {
  const name = lastSegment(spelled);
  const isClass = (d: IndexedDefinition) => OWNER_KINDS.has(d.kind) && classFamily(d.file.lang) === family;
  if (name !== spelled) {
    // `protocol.Factory` after `from twisted.internet import protocol`: the module's class.
    // By name alone, Twisted's SSHFactory had a test's nested `FakeTransport::Factory` as
    // its base (a trial).
    const qualifier = spelled.slice(0, spelled.length - name.length).replace(/(?:::|[\\.])$/, '');
    const trail = moduleMemberTrail(t.reader, file, t.reader.fileImports(file.path), qualifier, name);
    if (!trail) return { by: 'name' };
    const classes = trail.definitions.filter(isClass);
    return { by: 'import', classes, certain: trail.outcome === 'resolved' && classes.length === 1 };
  }
  const own = t.reader.fileDefinitions(file.path).filter((d) => d.name === name && isClass(d));
  if (own.length > 0) return { by: 'file', classes: own };
  const binding = t.reader
    .fileImports(file.path)
    .filter((i) => i.alias === name || (i.alias === null && i.name === name));
  if (binding.length === 0) return { by: 'name' };
  const classes: IndexedDefinition[] = [];
  let certain = binding.length === 1;
  for (const imp of binding) {
    const trail = followImport(t.reader, imp, imp.alias === name ? (imp.name ?? undefined) : name);
    certain &&= trail.outcome === 'resolved';
    for (const d of trail.definitions) if (isClass(d) && !classes.includes(d)) classes.push(d);
  }
  return { by: 'import', classes, certain: certain && classes.length === 1 };
}

/**
 * The bases `focus`, a class, names in its head (an interface too where the head does not
 * tell them apart, C#'s `: Base, IThing`). A base the file defines or imports is the class
 * that binding reaches; one it does not bind is the definition of that name nearest the
 * class (most shared directories, then code before build output, then path), `candidate`
 * when the root defines several. A base the index holds no class of (`esrecurse.Visitor`
 * from a dependency, `BaseHTTPError` imported from another member) is listed as spelled:
 * before, requests' `class ContentDecodingError(RequestException, BaseHTTPError)` named
 * requests' own `HTTPError` as its base (a workspace trial).
 */
export function basesOf(t: NavTarget, focus: IndexedDefinition): Bases {
  if (!hasBases(focus)) return { types: [], unresolved: [] };
  const bytes = readIndexedBytes(t.root, focus.file);
  if (!bytes) return { types: [], unresolved: [] };
  const family = classFamily(focus.file.lang);
  const types: Subclass[] = [];
  const unresolved: string[] = [];
  for (const spelled of baseAndContractSpellings(bytes, focus)) {
    const bound = baseBinding(t, focus.file, spelled, family);
    const defs = (
      bound.by === 'name'
        ? scopedNamesakes(
            spelled,
            focus,
            t.reader
              .definitions(lastSegment(spelled))
              .filter((d) => OWNER_KINDS.has(d.kind) && classFamily(d.file.lang) === family),
          )
        : bound.classes
    ).filter((d) => d.start !== focus.start || d.file.id !== focus.file.id);
    if (defs.length === 0) {
      unresolved.push(spelled);
      continue;
    }
    const best = nearestDefinition(defs, focus.file)!;
    const certain = bound.by === 'import' ? bound.certain : defs.length === 1 || best.file.id === focus.file.id;
    types.push(certain ? best : { ...best, resolution: 'candidate' });
  }
  return { types, unresolved };
}

/**
 * What a type's head and body name above it, as spelled: its bases; a class's implemented
 * interfaces in Java, TypeScript and PHP (C#'s base list holds them already); a PHP class's
 * traits. Laravel's `ctx sym:Model` named none of its 8 interfaces and 10 traits, and
 * `$this->fireModelEvent()` inside it stayed a candidate of the trait's method (a trial).
 */
function baseAndContractSpellings(bytes: Uint8Array, focus: IndexedDefinition): string[] {
  const lang = focus.file.lang;
  const head = typeHead(bytes, focus);
  const out = baseSpellings(head, lang);
  if (focus.kind !== 'interface' && IMPLEMENTING_HEAD_LANGS.has(lang)) out.push(...implementedSpellings(head, lang));
  out.push(...mixinSpellings(bytes, focus));
  return [...new Set(out)];
}

/** Languages whose class heads name implemented interfaces apart from bases (`implements`). */
const IMPLEMENTING_HEAD_LANGS: ReadonlySet<string> = new Set(['java', 'typescript', 'tsx', 'php']);

/** The classes (or mixins) of `focus`'s name and family that can be bases. */
function namesakesOf(t: NavTarget, focus: IndexedDefinition, family: string): IndexedDefinition[] {
  return t.reader
    .definitions(focus.name)
    .filter((d) => (canBeBase(d) || isMixin(d)) && classFamily(d.file.lang) === family);
}

/**
 * A module a class mixes in (class-heads.ts mixinSpellings): a Ruby module, a PHP trait.
 * `ctx sym:HasEvents` did not name Laravel's Model, nor `ctx sym:ActiveRecord::Callbacks`
 * Rails' Base, which mix them in (two trials).
 */
function isMixin(d: IndexedDefinition): boolean {
  return (d.file.lang === 'ruby' && d.kind === 'module') || (d.file.lang === 'php' && d.kind === 'trait');
}

/**
 * The namesakes a base spelled in `sub`'s head means, where owners tell them apart (Ruby
 * modules, C++ classes and namespaces, Rust modules): `ActiveJob::Base` means a `Base` owned
 * by `ActiveJob`, and none of the index's when none is (it lies outside); a bare `Base`
 * means the `Base` of `sub`'s own scope when there is one, as Ruby's and C++'s lookups do.
 * Outside SCOPED_BASE_LANGS, or where no namesake has an owner, all of them.
 * Rails' `ctx sym:ActiveRecord::Base` had listed `< ActiveJob::Base`, `<
 * AbstractController::Base` and the generators' `< Base` as its subclasses (a trial).
 */
function scopedNamesakes(
  spelled: string,
  sub: IndexedDefinition,
  namesakes: readonly IndexedDefinition[],
): IndexedDefinition[] {
  const owned = namesakes.filter((d) => d.container !== null);
  if (owned.length === 0 || !SCOPED_BASE_LANGS.has(sub.file.lang)) return [...namesakes];
  const ownedBy = (scope: string) =>
    namesakes.filter((d) => d.container !== null && lastSegment(d.container) === scope);
  const name = lastSegment(spelled);
  if (name !== spelled) {
    const qualifier = spelled.slice(0, spelled.length - name.length).replace(/(?:::|[\\.])$/, '');
    // `::Base`: the top level's.
    if (qualifier === '') return namesakes.filter((d) => d.container === null);
    return ownedBy(lastSegment(qualifier));
  }
  const scope = sub.container !== null ? ownedBy(lastSegment(sub.container)) : [];
  return scope.length > 0 ? scope : [...namesakes];
}

/**
 * Languages whose qualified base names an owner (Ruby's `A::B`, C++'s `ns::B`, `Outer::B`);
 * Python's and JavaScript's qualifier is a module binding, PHP's, Java's and C#'s a package or
 * namespace that owns nothing (docs/languages.md).
 */
const SCOPED_BASE_LANGS: ReadonlySet<string> = new Set(['ruby', 'cpp']);

/** A definition's identity across lists: its file and start. */
export function definitionKey(d: IndexedDefinition): string {
  return `${d.file.id}\0${d.start}`;
}

/**
 * Walks the bases of `cls` breadth first, `levels` levels up (basesOf at each), each base a
 * `candidate` when a link of its chain is; returns the first value `visit` gives, else
 * undefined. A base reached by a second chain is visited again (that chain may be certain)
 * but not walked past; `cls` itself is never visited. The one walk up a class hierarchy:
 * overrides, a class's inherited method, derivation and zope interfaces read through it.
 */
export function upBases<T>(
  t: NavTarget,
  cls: Subclass,
  visit: (base: Subclass) => T | undefined,
  levels: number = CTX_OVERRIDE_DEPTH,
): T | undefined {
  const start = definitionKey(cls);
  const seen = new Set<string>([start]);
  let level: Subclass[] = [cls];
  for (let depth = 0; depth < levels && level.length > 0; depth++) {
    const next: Subclass[] = [];
    for (const c of level)
      for (const b of basesOf(t, c).types) {
        const k = definitionKey(b);
        if (k === start) continue;
        const base: Subclass =
          c.resolution === 'candidate' || b.resolution === 'candidate' ? { ...b, resolution: 'candidate' } : b;
        const found = visit(base);
        if (found !== undefined) return found;
        if (seen.has(k)) continue;
        seen.add(k);
        next.push(base);
      }
    level = next;
  }
  return undefined;
}
