// `map PATH` (docs/spec/retrieval.md §7): a file's outline, or one row per file under a prefix.
import {
  isCallableKind,
  kindTier,
  lineStartOffsets,
  type IndexedDefinition,
  type IndexedFile,
  type IndexReader,
} from '@trufflepig/index';
import { normalizeEncodedPath, percentEncode } from '@trufflepig/base/stored-path';
import type { LiveSourceEntry } from '@trufflepig/result-cache';
import { MAP_NAMES_PER_FILE } from './limits';
import { readIndexedBytes } from '@trufflepig/index';
import { definitionEntry, spanEntry } from './entries';
import { rustImplHeads, type RustImplHead } from './implementations';
import type { NavTarget } from './target';

/** Members of a type come after the items, each group in source order. */
export const SECOND_GROUP: ReadonlySet<string> = new Set(['field', 'variant', 'property']);

export interface MapRow {
  readonly entry: LiveSourceEntry;
  readonly detail?: Readonly<Record<string, string | number | readonly string[]>>;
}

/** Keywords before a definition's name that change how it is used (`static async get`, `private`). */
const MODIFIERS: ReadonlySet<string> = new Set([
  'abstract',
  // PHP and Java: a class or method that cannot be extended or overridden.
  'final',
  // Java: an interface's method with a body; a field read without a cache, or not serialized.
  'default',
  'volatile',
  'transient',
  'static',
  'async',
  'get',
  'set',
  'private',
  'protected',
  'readonly',
  // Lua's file-private functions and values, beside the module table's (`function M.f`).
  'local',
]);
/** A Go method head whose receiver is a pointer: `func (l *Level) `, `func (*Level) `. */
const GO_POINTER_RECEIVER = /\bfunc\s*\(\s*(?:[A-Za-z_]\w*\s+)?\*/;
/** A Ruby method head on an object: `def self.`, `def Foo.` (singleton methods; `class << self` blocks: rubySingletonBlocks). */
const RUBY_SINGLETON_HEAD = /\bdef\s+(?:self|[A-Z]\w*)\s*\.\s*$/;
/** Bytes of a definition's head read for modifiers: decorators and attributes beyond it are not. */
const HEAD_MAX_BYTES = 200;

/**
 * Modifiers of a definition, read from its head in the file's current bytes (the text
 * between the definition's start and its name), in source order; `#` for a `#private` name.
 * Works for every language whose modifiers precede the name; nothing when the file changed.
 */
export function modifiersOf(bytes: Uint8Array, d: IndexedDefinition): string[] {
  const from = Math.max(d.start, d.nameStart - HEAD_MAX_BYTES);
  const raw = Buffer.from(bytes.subarray(from, Math.max(from, d.nameStart))).toString('utf8');
  const head = raw
    // Decorators and attributes (`@Input()`, `#[inline]`) are not modifiers, nor the
    // properties of a member chain (`req.get = req.header = function`: `get` is a name).
    .replace(/@[\w.]+(\([^)]*\))?|#\[[^\]]*\]/g, ' ')
    .replace(/[\w$]*(?:\.[\w$]*)+/g, ' ');
  const out = (head.match(/[A-Za-z_]+/g) ?? []).filter((w, i, all) => MODIFIERS.has(w) && all.indexOf(w) === i);
  if (bytes[d.nameStart] === 0x23) out.push('#');
  // Go: a method on `*T` is in the method set of `*T` only (`flag.Value`'s `Set` needs one),
  // which an agent trial on zap could learn only from a `re:` search.
  if (d.file.lang === 'go' && d.kind === 'method' && GO_POINTER_RECEIVER.test(head)) out.unshift('pointer');
  // Ruby: `def self.parse` is the class's own method, `def parse` its instances' (an
  // ActiveSupport trial's map printed the two alike, `method parse` twice); so is a method
  // inside `class << self`.
  if (
    d.file.lang === 'ruby' &&
    (RUBY_SINGLETON_HEAD.test(raw) ||
      (d.kind === 'method' && rubySingletonBlocks(bytes).some(([from, to]) => d.start > from && d.start < to)))
  )
    out.unshift('static');
  return out;
}

/** A file's outline; `read` reads its indexed bytes (for the modifiers), so a caller can tell a changed file. */
export function outline(
  t: NavTarget,
  file: IndexedFile,
  read: (root: string, f: IndexedFile) => Uint8Array | undefined = readIndexedBytes,
): MapRow[] {
  const defs = t.reader.fileDefinitions(file.path);
  const bySource = (a: IndexedDefinition, b: IndexedDefinition) => a.start - b.start || b.end - a.end;
  const items = defs.filter((d) => !SECOND_GROUP.has(d.kind)).sort(bySource);
  const members = defs.filter((d) => SECOND_GROUP.has(d.kind)).sort(bySource);
  const bytes = read(t.root, file);
  const traitOf = bytes && file.lang === 'rust' ? rustTraitOf(Buffer.from(bytes).toString('latin1')) : undefined;
  return [...items, ...members].map((d) => {
    const modifiers = bytes ? modifiersOf(bytes, d) : [];
    const trait = traitOf?.(d);
    if (trait !== undefined) modifiers.unshift(`impl ${trait}`);
    return { entry: { ...definitionEntry(t, d), ...(modifiers.length ? { modifiers } : {}) } };
  });
}

/** `class << self` alone on its line, and its indentation. */
const RUBY_SINGLETON_OPEN = /^([ \t]*)class[ \t]*<<[ \t]*self[ \t]*(?:#.*)?$/;

/** rubySingletonBlocks of each file's bytes, read once for all of its definitions. */
const singletonBlocksOf = new WeakMap<Uint8Array, [number, number][]>();

/**
 * The byte spans of a Ruby file's `class << self` blocks, each from its line to the `end` at
 * its own indentation (the layout every Ruby formatter keeps): the methods inside are the
 * class's own, as `def self.x` are. Rails' `map core_ext/time/zones.rb` printed `method zone`
 * for `Time.zone`, beside core Ruby's instance method `Time#zone` (a trial). Lines are read as
 * latin1, one character a byte, so their offsets are the bytes'.
 */
function rubySingletonBlocks(bytes: Uint8Array): [number, number][] {
  const known = singletonBlocksOf.get(bytes);
  if (known) return known;
  const out: [number, number][] = [];
  const lines = Buffer.from(bytes).toString('latin1').split('\n');
  const starts = lineStartOffsets(bytes);
  for (let i = 0; i < lines.length; i++) {
    const open = RUBY_SINGLETON_OPEN.exec(lines[i].replace(/\r$/, ''));
    if (!open) continue;
    const close = new RegExp(`^${open[1]}end\\b`);
    for (let j = i + 1; j < lines.length; j++)
      if (close.test(lines[j])) {
        out.push([starts[i], starts[j]]);
        break;
      }
  }
  singletonBlocksOf.set(bytes, out);
  return out;
}

/**
 * The trait a Rust method implements, as its `impl` head writes it (`Drop` for `fn drop` in
 * `impl<T: Poolable> Drop for Pooled<T>`): the nearest head before the method, when it is
 * for the method's own type. hyper's pool.rs outlined `method drop` like an inherent method,
 * and Pooled's Drop is where a connection goes back to the pool (a Rust trial).
 * Offsets are the bytes' (read as latin1, one character a byte).
 */
function rustTraitOf(text: string): (d: IndexedDefinition) => string | undefined {
  const heads = rustImplHeads(text);
  return (d) => {
    if (d.kind !== 'method' || d.container === null) return undefined;
    let head: RustImplHead | undefined;
    for (const h of heads) {
      if (h.start >= d.start) break;
      head = h;
    }
    const own = head !== undefined && head.type.split('::').pop() === d.container.split('::').pop();
    return own ? head!.trait : undefined;
  };
}

/**
 * The stored (percent-encoded) paths a user's PATH may mean, most likely first: the path
 * as search prints it (`a%20b.ts`, decoded then re-encoded, so `café` and `caf%C3%A9`
 * agree), then the raw name typed as it is (`50%25.ts` naming a file called that).
 * Both are canonical encodings, so they compare exactly with stored paths, byte for byte,
 * non-UTF-8 names included.
 */
export function pathReadings(wanted: string): string[] {
  const typed = wanted.replace(/^\.\//, '');
  const printed = normalizeEncodedPath(typed);
  const raw = percentEncode(typed);
  return printed === raw ? [printed] : [printed, raw];
}

/** Indexed files under a directory prefix (`src/` or `src`, encoded), or whose path starts with it. */
export function filesUnder(reader: IndexReader, prefix: string): IndexedFile[] {
  const p = prefix;
  const dir = p === '' || p === '.' ? '' : p.endsWith('/') ? p : `${p}/`;
  const files = reader.files().filter((f) => !f.excluded);
  const under = files.filter((f) => f.path.startsWith(dir));
  return under.length > 0 ? under : files.filter((f) => f.path.startsWith(p));
}

/** A Lua module or class is a table held by a file-level variable. */
export const LUA_TABLE_KINDS: ReadonlySet<string> = new Set(['module', 'variable', 'constant']);

/**
 * A Lua file's items as its directory's map names them: its module table's functions and
 * its own functions, not the file-level values (`local find = string.find`): Penlight's
 * List.lua was summarised as `tinsert tremove concat tsort setmetatable …`, none a List
 * method (an agent trial).
 */
function luaTopLevel(defs: readonly IndexedDefinition[]): (d: IndexedDefinition) => boolean {
  const tables = new Set(defs.filter((d) => d.container === null && LUA_TABLE_KINDS.has(d.kind)).map((d) => d.name));
  return (d) =>
    isCallableKind(d.kind) && (d.container === null || tables.has(d.container)) && !SECOND_GROUP.has(d.kind);
}

/**
 * A Go file's items as its directory's map names them: its types, functions and package
 * declarations, and the methods of types declared in another file of the package, which
 * are what such a file is for: net/http's roundtrip.go was named `http` alone, and its
 * `Transport::RoundTrip` nowhere (an agent trial). Methods of its own types stay under them.
 */
function goTopLevel(defs: readonly IndexedDefinition[]): (d: IndexedDefinition) => boolean {
  const own = new Set(defs.filter((d) => d.container === null).map((d) => d.name));
  return (d) => (d.container === null && !SECOND_GROUP.has(d.kind)) || (d.kind === 'method' && !own.has(d.container!));
}

/** Languages whose namespaces wrap a file's items (`namespace Eigen { … }`) without being one of them. */
const NAMESPACED_LANGS: ReadonlySet<string> = new Set(['c', 'cpp', 'csharp']);

/**
 * A C++ or C# file's items as its directory's map names them: those at file level or inside
 * its namespaces (nested ones too), not the namespaces. Every file of Eigen's map was named
 * `Eigen` and nothing else (an agent trial). A file of namespaces alone keeps them.
 */
function namespacedTopLevel(defs: readonly IndexedDefinition[]): (d: IndexedDefinition) => boolean {
  // A member of a nested namespace may name it alone or qualified (`internal`, `Eigen::internal`).
  const namespaces = new Set(
    defs
      .filter((d) => d.kind === 'module')
      .flatMap((d) => (d.container === null ? [d.name] : [d.name, `${d.container}::${d.name}`])),
  );
  const inside = (d: IndexedDefinition) =>
    d.kind !== 'module' && !SECOND_GROUP.has(d.kind) && (d.container === null || namespaces.has(d.container));
  if (!defs.some(inside)) return (d) => d.container === null && !SECOND_GROUP.has(d.kind);
  return inside;
}

/** One `kind: "file"` row per file, naming its top-level items (`+N` when cut). */
/** A directory row names types first, then functions, then modules, constants and variables. */
const valueRank = (d: IndexedDefinition): number => Math.min(kindTier(d.kind), 2);

export function fileRows(t: NavTarget, files: readonly IndexedFile[]): MapRow[] {
  return files.map((f) => {
    // Each name once (overloads of `bufferTime` are one item to a reader of the directory),
    // and items only: a field of a type literal inside a function is no top-level item.
    const defs = t.reader.fileDefinitions(f.path);
    const items = defs.filter(
      f.lang === 'luau'
        ? luaTopLevel(defs)
        : NAMESPACED_LANGS.has(f.lang)
          ? namespacedTopLevel(defs)
          : f.lang === 'go'
            ? goTopLevel(defs)
            : (d) => d.container === null && !SECOND_GROUP.has(d.kind),
    );
    const top = [
      ...new Set(
        items
          // A PHP file's `namespace` restates its directory (Symfony: a sixth of a map page),
          // as a Go file's `package` does unless it is all the file holds.
          .filter((d) => !(d.kind === 'module' && (f.lang === 'php' || (f.lang === 'go' && items.length > 1))))
          // Types, then functions, then the rest, each in source order: Django's csrf.py
          // row named `logger REASON_NO_REFERER …` and 10 more constants, then `+13`, and
          // never `CsrfViewMiddleware`, the class the file is for (an agent trial).
          .sort((a, b) => valueRank(a) - valueRank(b) || a.start - b.start)
          // A Go method of another file's type is named with its receiver's type.
          .map((d) => (f.lang === 'go' && d.container !== null ? `${d.container}::${d.name}` : d.name)),
      ),
    ];
    const names = top.slice(0, MAP_NAMES_PER_FILE);
    if (top.length > MAP_NAMES_PER_FILE) names.push(`+${top.length - MAP_NAMES_PER_FILE}`);
    const lines = Math.max(1, f.lines - (f.size > 0 ? 1 : 0));
    return {
      entry: spanEntry(t, f, { start: 0, end: f.size, startLine: 1, endLine: lines }, { kind: 'file' }),
      detail: { names },
    };
  });
}
