// Following imports to definitions inside one member's index (docs/spec/retrieval.md §6–7,
// issue 4): at most NAV_IMPORT_HOPS hops through re-exports, by the spelling rules of
// each language. Member-local only: no edge ever crosses into another repository.
import * as path from 'node:path';
import {
  declarationRank,
  definitionsParsedCleanly,
  type IndexedDefinition,
  type IndexedFile,
  type IndexedImport,
  type IndexReader,
} from '@trufflepig/index';
import { displayPath, percentEncode } from '@trufflepig/base/stored-path';
import { NAV_IMPORT_HOPS } from './limits';
import { readIndexedBytes } from '@trufflepig/index';
import { filesEndingWith, includeFiles } from './include';
import { nodePackagePaths } from './node-packages';

export type Resolution = 'resolved' | 'candidate' | 'unresolved';

/** Per reader, per file id: the starts of its definitions that parsed without an error. */
const cleanDefinitions = new WeakMap<IndexReader, Map<number, ReadonlySet<number>>>();

/**
 * Whether a definition is certain: its file parsed without errors, or, in a file that
 * parsed partially, its name lies in no part the grammar could not read
 * (definitionsParsedCleanly: one parse per file, read once per reader). A kernel header is partial on its macros while its prototypes parse
 * whole: every call of `ext4_read_block_bitmap` through `#include "ext4.h"` was a
 * candidate (the C trial, 12 of 14 rows).
 */
export function isCertain(reader: IndexReader, d: IndexedDefinition): boolean {
  if (d.file.parse !== 'partial') return true;
  let byFile = cleanDefinitions.get(reader);
  if (!byFile) cleanDefinitions.set(reader, (byFile = new Map()));
  let clean = byFile.get(d.file.id);
  if (!clean) {
    const bytes = readIndexedBytes(reader.root, d.file);
    const defs = reader.fileDefinitions(d.file.path);
    // The name decides what a definition is: an error in a function's body leaves it whole.
    const names = defs.map((x) => ({ start: x.nameStart, end: x.nameEnd }));
    const ok = bytes ? definitionsParsedCleanly(d.file.lang, bytes, names) : defs.map(() => false);
    clean = new Set(defs.filter((_, i) => ok[i]).map((x) => x.start));
    byFile.set(d.file.id, clean);
  }
  return clean.has(d.start);
}

/** One import statement a trail passed through, as its file spells it. */
export interface ImportStep {
  readonly path: string;
  readonly line: number;
  readonly spelled: string;
  readonly name: string | null;
  readonly alias: string | null;
}

export interface ImportTrail {
  /** The import statements passed through, first the one in the asking file. */
  readonly via: readonly ImportStep[];
  /** Hops followed (re-exports after the first import). */
  readonly followed: number;
  readonly outcome: Resolution;
  /** Definitions reached: one when resolved, several when the spelling allows more. */
  readonly definitions: readonly IndexedDefinition[];
}

const TS_EXTENSIONS = [
  '',
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.d.ts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '/index.ts',
  '/index.tsx',
  '/index.js',
  '/index.mjs',
];

function existing(reader: IndexReader, candidates: readonly string[]): IndexedFile[] {
  const out: IndexedFile[] = [];
  for (const c of candidates) {
    const normalized = path.posix.normalize(c);
    if (normalized.startsWith('..')) continue;
    const f = reader.fileByPath(percentEncode(normalized));
    if (f && !out.includes(f)) out.push(f);
  }
  return out;
}

/** The directory holding the Rust crate root (lib.rs or main.rs) of a file. */
function rustCrateDir(reader: IndexReader, file: string): string | undefined {
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const prefix = dir === '.' ? '' : `${dir}/`;
    if (existing(reader, [`${prefix}lib.rs`, `${prefix}main.rs`]).length) return dir;
    if (dir === '.' || dir === '/') return undefined;
  }
}

/** `<package>/src` when `crateName` is the name of the Cargo package containing `file`. */
function rustPackageSrc(reader: IndexReader, file: string, crateName: string): string | undefined {
  if (!crateName) return undefined;
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const manifest = `${dir === '.' ? '' : `${dir}/`}Cargo.toml`;
    const f = reader.fileByPath(percentEncode(manifest));
    const bytes = f ? readIndexedBytes(reader.root, f) : undefined;
    if (bytes) {
      const name = /^\s*name\s*=\s*"([^"]+)"/m.exec(bytes.toString('utf8'))?.[1];
      return name !== undefined && name.replace(/-/g, '_') === crateName ? path.posix.join(dir, 'src') : undefined;
    }
    if (dir === '.' || dir === '/') return undefined;
  }
}

/** The directory of a Rust file's own module (children live there). */
function rustModuleDir(file: string): string {
  const base = path.posix.basename(file);
  const dir = path.posix.dirname(file);
  return ['mod.rs', 'lib.rs', 'main.rs'].includes(base) ? dir : path.posix.join(dir, base.replace(/\.rs$/, ''));
}

function rustModuleFiles(reader: IndexReader, dir: string, segments: readonly string[]): IndexedFile[] {
  const at = path.posix.join(dir, ...segments);
  // No segment left: the module of `dir` itself (its mod.rs, the crate root, or dir.rs).
  if (segments.length === 0) return existing(reader, [`${at}/mod.rs`, `${at}/lib.rs`, `${at}/main.rs`, `${at}.rs`]);
  return existing(reader, [`${at}.rs`, `${at}/mod.rs`]);
}

/** Files an import's module part may name, by the rules of the importing file's language. */
export function moduleFiles(
  reader: IndexReader,
  imp: IndexedImport,
): { files: readonly IndexedFile[]; symbol: string | undefined; pairs?: readonly IndexedFile[] } {
  const from = displayPath(imp.file.path);
  const lang = imp.file.lang;
  const spelled = imp.spelled;
  if (lang === 'typescript' || lang === 'tsx' || lang === 'javascript') {
    if (!spelled.startsWith('.')) {
      // A package in a committed node_modules/ (node-packages.ts); TypeScript, `.mjs` and
      // `.mts` files import, so an exports map's `import` conditions apply to them.
      const esm = lang !== 'javascript' || /\.m[jt]s$/.test(from);
      const candidates = nodePackagePaths(reader, from, spelled, esm);
      return {
        files: existing(
          reader,
          candidates.flatMap((c) => TS_EXTENSIONS.map((e) => c + e)),
        ).slice(0, 1),
        symbol: imp.name ?? undefined,
      };
    }
    const base = path.posix.join(path.posix.dirname(from), spelled);
    const stripped = base.replace(/\.(m|c)?js$/, '');
    return {
      files: existing(reader, [...TS_EXTENSIONS.map((e) => base + e), ...TS_EXTENSIONS.map((e) => stripped + e)]),
      symbol: imp.name ?? undefined,
    };
  }
  if (lang === 'rust') {
    const segments = spelled.split('::').filter(Boolean);
    const symbol = imp.name && imp.name !== '*' ? imp.name : segments[segments.length - 1];
    const modulePath = imp.name === '*' ? segments : segments.slice(0, -1);
    const crate = rustCrateDir(reader, from);
    const here = rustModuleDir(from);
    let base: string | undefined;
    let rest = modulePath;
    if (rest[0] === 'crate') [base, rest] = [crate, rest.slice(1)];
    else if (rest[0] === 'self') [base, rest] = [here, rest.slice(1)];
    else if (rest[0] === 'super') {
      base = here;
      while (rest[0] === 'super') [base, rest] = [path.posix.dirname(base), rest.slice(1)];
    }
    if (base !== undefined) return { files: rustModuleFiles(reader, base, rest), symbol };
    // 2018 paths: a child module of this one, else of the crate root, else this package's
    // own crate by name (tests/ and examples/ import it as `name::...`), else another crate.
    const local = rustModuleFiles(reader, here, rest);
    if (local.length) return { files: local, symbol };
    const fromRoot = crate === undefined ? [] : rustModuleFiles(reader, crate, rest);
    if (fromRoot.length) return { files: fromRoot, symbol };
    const own = rustPackageSrc(reader, from, rest[0] ?? '');
    return { files: own === undefined ? [] : rustModuleFiles(reader, own, rest.slice(1)), symbol };
  }
  if (lang === 'python') {
    const dots = /^\.*/.exec(spelled)![0].length;
    const parts = spelled.slice(dots).split('.').filter(Boolean);
    let dir = dots > 0 ? path.posix.dirname(from) : '';
    for (let i = 1; i < dots; i++) dir = path.posix.dirname(dir);
    const at = path.posix.join(dir, ...parts);
    const files = existing(reader, [`${at}.py`, `${at}/__init__.py`]);
    const symbol = imp.name ?? undefined;
    if (files.length > 0 || dots > 0 || parts.length === 0) return { files, symbol };
    return { files: pythonPackageFiles(reader, parts), symbol };
  }
  if (lang === 'luau') {
    // `require('vim.lsp.util')` is a module on the package path: `vim/lsp/util.lua` or
    // `vim/lsp/util/init.lua` under a search root (Neovim's `lua/`, a rock's `src/`), so a
    // path suffix; several matches are candidates, as for the path-style spellings below.
    const at = spelled.split('.').filter(Boolean).join('/');
    const files = [`${at}.lua`, `${at}.luau`, `${at}/init.lua`, `${at}/init.luau`]
      .flatMap((x) => filesEndingWith(reader, x))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, symbol: imp.name ?? undefined };
  }
  if (lang === 'ruby') {
    // `require_relative` (spelled `./a/b`) is beside the file; `require 'a/b'` is on the load
    // path, a `lib/` of this repository or a gem's: the files ending in `a/b.rb`, several
    // of them candidates. Either makes every name of the file visible (a glob).
    const file = spelled.endsWith('.rb') ? spelled : `${spelled}.rb`;
    const files = spelled.startsWith('.')
      ? existing(reader, [path.posix.join(path.posix.dirname(from), file)])
      : filesEndingWith(reader, file).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, symbol: imp.name && imp.name !== '*' ? imp.name : undefined };
  }
  if (lang === 'c' || lang === 'cpp') {
    // `#include` makes every name of the header visible (a glob), and its includes' names too;
    // a paired source defines what the header declares but exports none of its own includes.
    return { ...includeFiles(reader, from, spelled), symbol: undefined };
  }
  if (lang === 'csharp') {
    // `using A.B;` opens a namespace: the files declaring it; `using X = A.B.C;` names C.
    const dotted = spelled.split('.');
    const namespace = imp.name === null && imp.alias === null ? spelled : dotted.slice(0, -1).join('.');
    const files = reader
      .definitions(namespace)
      .filter((d) => d.kind === 'module')
      .map((d) => d.file);
    return {
      files: [...new Set(files)],
      symbol: imp.name === null && imp.alias === null ? undefined : dotted[dotted.length - 1],
    };
  }
  // Path-style spellings (PHP `App\Models\User`, Java `a.b.C`): the file is
  // found by its path suffix, which makes several matches candidates rather than certain.
  const parts = spelled.split(/\\|\.|::|\//).filter(Boolean);
  const symbol = imp.name && imp.name !== '*' ? imp.name : parts[parts.length - 1];
  const ext = path.posix.extname(from);
  const suffix = `${parts.join('/')}${ext}`;
  const files = filesEndingWith(reader, suffix);
  if (files.length > 0 || !NAMESPACED.has(lang)) return { files, symbol };
  // Java's `import static a.b.C.NAME;` names a member of the class C: its file is a/b/C.java
  // (the JDK trial's `import static java.time.temporal.ChronoUnit.DAYS` was unresolved).
  if (lang === 'java' && imp.name !== '*' && parts.length > 1) {
    const owner = `${parts.slice(0, -1).join('/')}${ext}`;
    const owners = filesEndingWith(reader, owner);
    if (owners.length > 0) return { files: owners, symbol };
  }
  // Paths that do not spell the namespace (Composer's PSR-4 puts `Symfony\Component\Console\`
  // at `src/`; a tree rooted inside a Java source set): the files that declare the namespace
  // and define the name at top level. An agent trial on Symfony Console found 40 of 44 uses
  // of `InputInterface` unresolved.
  const glob = imp.name === '*';
  const namespace = (glob ? parts : parts.slice(0, -1)).join(lang === 'php' ? '\\' : '.');
  return { files: namespaceFiles(reader, namespace, glob ? undefined : symbol), symbol };
}

/**
 * An absolute Python module path that does not start at the root: the root is the package
 * itself (a tree rooted at `django/`, whose files import `django.db.models`: a Django trial
 * found every absolute import unresolved, and `ctx` without callers or subclasses), or the
 * package sits below it (`src/pkg/`, several projects in one tree). There the module's file
 * must be under a top-level package: a directory without `__init__.py` holds its first
 * segment, so `import json` never means a package's `serializers/json.py`.
 */
function pythonPackageFiles(reader: IndexReader, parts: readonly string[]): IndexedFile[] {
  const rest = parts.slice(1);
  if (parts[0] === path.basename(reader.root) && existing(reader, ['__init__.py']).length > 0) {
    const at = rest.join('/');
    return existing(reader, rest.length === 0 ? ['__init__.py'] : [`${at}.py`, `${at}/__init__.py`]);
  }
  const at = parts.join('/');
  return [`${at}.py`, `${at}/__init__.py`].flatMap((suffix) =>
    filesEndingWith(reader, suffix).filter((f) => {
      const p = displayPath(f.path);
      const packageDir = p.slice(0, p.length - suffix.length).replace(/\/$/, '');
      // The directory holding the first segment: not a package itself.
      return existing(reader, [packageDir === '' ? '__init__.py' : `${packageDir}/__init__.py`]).length === 0;
    }),
  );
}

/** Languages whose files declare the namespace they belong to (`namespace A\B;`, `package a.b;`). */
const NAMESPACED: ReadonlySet<string> = new Set(['php', 'java']);

/**
 * Files declaring `namespace` (their `module` definition), those defining `symbol` at top
 * level when it is given.
 */
function namespaceFiles(reader: IndexReader, namespace: string, symbol: string | undefined): IndexedFile[] {
  if (namespace === '') return [];
  const files = new Set(
    reader
      .definitions(namespace)
      .filter((d) => d.kind === 'module')
      .map((d) => d.file),
  );
  return [...files].filter(
    (f) =>
      symbol === undefined || reader.fileDefinitions(f.path).some((d) => d.name === symbol && d.container === null),
  );
}

/**
 * The definition of `name` a PHP, Java or C# file reaches without importing it: a top-level
 * item of another file of its own namespace (`RandomAccess` in `java.util.ArrayList`, a
 * class of the same `namespace` in PHP). C# looks outward too: from `A.B.C`, the items of
 * `A.B`, then of `A` (newtonsoft-json's `DefaultContractResolver : IContractResolver`, one
 * namespace, stayed a candidate, an agent trial). The nearest namespace holding the name
 * decides; undefined unless exactly one file there holds one.
 */
export function sameNamespaceDefinition(
  reader: IndexReader,
  file: IndexedFile,
  name: string,
): IndexedDefinition | undefined {
  if (!NAMESPACED.has(file.lang) && file.lang !== 'csharp') return undefined;
  const own = reader.fileDefinitions(file.path).find((d) => d.kind === 'module');
  if (own === undefined) return undefined;
  const levels = file.lang === 'csharp' ? enclosingNamespaces(own.name) : [own.name];
  for (const namespace of levels) {
    const defs = namespaceFiles(reader, namespace, name)
      .filter((f) => f.id !== file.id)
      .flatMap((f) => reader.fileDefinitions(f.path).filter((d) => d.name === name && d.container === null));
    if (defs.length > 0) return defs.length === 1 ? defs[0] : undefined;
  }
  return undefined;
}

/** `A.B.C`, `A.B`, `A`: a C# namespace and those around it, innermost first. */
function enclosingNamespaces(namespace: string): string[] {
  const parts = namespace.split('.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('.'));
}

/**
 * The definition a JavaScript or TypeScript module exports as `default` (what `import x
 * from './m'` binds): `export default function name` / `class name` in front of a
 * definition, else the definition named by `export default name;`. None when the module
 * exports an expression.
 */
function defaultExport(reader: IndexReader, f: IndexedFile): IndexedDefinition[] {
  const bytes = readIndexedBytes(reader.root, f);
  if (!bytes) return [];
  const text = bytes.toString('latin1');
  const defs = reader.fileDefinitions(f.path).filter((d) => d.container === null);
  const inFront = defs.find((d) =>
    /export\s+default\s+(?:async\s+)?(?:function\s*\*?|class)\s*$/.test(
      text.slice(Math.max(0, d.nameStart - 64), d.nameStart),
    ),
  );
  if (inFront) return [inFront];
  const named = /export\s+default\s+([A-Za-z_$][\w$]*)\s*;?\s*$/m.exec(text)?.[1];
  return named === undefined ? [] : defs.filter((d) => d.name === named).slice(0, 1);
}

/**
 * Trails already followed, by what decides them: the files and paired sources the first
 * import names and the symbol sought. Every step after the first depends on nothing else,
 * so two files that include the same header for the same name share the walk through
 * it: `refs kmalloc` followed each kernel source's 20 to 40 `#include`s up to four hops
 * through the headers they include, again in every file (1.8 s of 3.7 s). One memo
 * serves one reader (one generation) and is dropped with its answer.
 */
export interface ImportTrailMemo {
  readonly trails: Map<string, Omit<ImportTrail, 'via'> & { readonly after: ImportTrail['via'] }>;
  /** The definitions of each symbol sought, by file id (namedIn). */
  readonly named: Map<string, Map<number, IndexedDefinition[]>>;
}

export function importTrailMemo(): ImportTrailMemo {
  return { trails: new Map(), named: new Map() };
}

/**
 * Every definition named `symbol`, by file id: one lookup of the name, kept in the memo,
 * not every definition of every header a trail passes through (a kernel header holds
 * thousands; the trails of one `refs` read hundreds of headers).
 */
function definitionsByFile(
  reader: IndexReader,
  named: ImportTrailMemo['named'],
  symbol: string,
): ReadonlyMap<number, IndexedDefinition[]> {
  let byFile = named.get(symbol);
  if (byFile === undefined) {
    byFile = new Map();
    for (const d of reader.definitions(symbol)) {
      const list = byFile.get(d.file.id);
      if (list) list.push(d);
      else byFile.set(d.file.id, [d]);
    }
    named.set(symbol, byFile);
  }
  return byFile;
}

/** A file's definitions named `symbol`, in source order (a copy the caller may sort). */
function namedIn(
  reader: IndexReader,
  named: ImportTrailMemo['named'],
  f: IndexedFile,
  symbol: string,
): IndexedDefinition[] {
  return [...(definitionsByFile(reader, named, symbol).get(f.id) ?? [])];
}

function stepOf(imp: IndexedImport): ImportStep {
  return { path: imp.file.path, line: imp.line, spelled: imp.spelled, name: imp.name, alias: imp.alias };
}

function symbolOf(
  imp: IndexedImport,
  wanted: string | undefined,
  spelledSymbol: string | undefined,
): string | undefined {
  return imp.name === '*' ? (wanted ?? spelledSymbol) : (spelledSymbol ?? wanted);
}

/**
 * Follow one import to the definition of the symbol it binds: the module files it names,
 * then their definitions of the symbol, else their re-exports of it, up to NAV_IMPORT_HOPS.
 * With `memo`, a trail through files already followed for the same symbol is reused
 * (ImportTrailMemo): the same answer, its first step the asking file's own import.
 */
export function followImport(
  reader: IndexReader,
  imp: IndexedImport,
  wanted?: string,
  memo?: ImportTrailMemo,
): ImportTrail {
  const first = moduleFiles(reader, imp);
  const own = stepOf(imp);
  const symbol = symbolOf(imp, wanted, first.symbol);
  const key =
    memo && symbol
      ? `${symbol}\0${first.files.map((f) => f.id).join(',')}\0${(first.pairs ?? []).map((f) => f.id).join(',')}`
      : undefined;
  const known = key === undefined ? undefined : memo!.trails.get(key);
  if (known) {
    const { after, ...trail } = known;
    return { ...trail, via: [own, ...after] };
  }
  const trail = walkImports(reader, imp, wanted, first, (memo ?? importTrailMemo()).named);
  if (key !== undefined) {
    const { via, ...rest } = trail;
    memo!.trails.set(key, { ...rest, after: via.slice(1) });
  }
  return trail;
}

const C_FAMILY: ReadonlySet<string> = new Set(['c', 'cpp']);
/**
 * What a declaration declares: a prototype a function, or a method defined out of its class
 * (`Point::norm() {}`); an `extern` variable the variable (or constant) another file defines.
 */
const LINKED_KINDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['prototype', new Set(['function', 'method'])],
  ['extern', new Set(['variable', 'constant'])],
]);

/**
 * The one C or C++ definition that `declarations` (all of one kind, name and owner) declare,
 * when the index holds exactly one; undefined otherwise (none, or several the build chooses
 * among: the kernel's arch/x86/boot `kstrtoull` beside lib/kstrtox.c's).
 */
function linkedDefinition(
  reader: IndexReader,
  named: ImportTrailMemo['named'],
  declarations: readonly IndexedDefinition[],
): IndexedDefinition | undefined {
  const first = declarations[0];
  const linked = LINKED_KINDS.get(first.kind);
  if (
    !linked ||
    !declarations.every((d) => d.kind === first.kind && d.name === first.name && d.container === first.container)
  )
    return undefined;
  const definitions = [...definitionsByFile(reader, named, first.name).values()]
    .flat()
    .filter((d) => linked.has(d.kind) && d.container === first.container && C_FAMILY.has(d.file.lang));
  return definitions.length === 1 ? definitions[0] : undefined;
}

function walkImports(
  reader: IndexReader,
  imp: IndexedImport,
  wanted: string | undefined,
  firstFiles: ReturnType<typeof moduleFiles>,
  named: ImportTrailMemo['named'],
): ImportTrail {
  const via: ImportStep[] = [];
  let frontier: { imp: IndexedImport; symbol: string | undefined }[] = [{ imp, symbol: wanted }];
  const seen = new Set<string>();
  for (let hop = 0; hop <= NAV_IMPORT_HOPS && frontier.length > 0; hop++) {
    const found: IndexedDefinition[] = [];
    const next: { imp: IndexedImport; symbol: string | undefined }[] = [];
    for (const step of frontier) {
      via.push(stepOf(step.imp));
      const {
        files,
        symbol: spelledSymbol,
        pairs = [],
      } = step.imp === imp ? firstFiles : moduleFiles(reader, step.imp);
      const symbol = symbolOf(step.imp, step.symbol, spelledSymbol);
      if (!symbol) continue;
      for (const f of [...files, ...pairs]) {
        const key = `${f.path}|${symbol}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // What an import names is a module-level item: `budget` of `context::budget` is the
        // function, not a struct's field declared above it.
        let defs = namedIn(reader, named, f, symbol).sort(
          (a, b) =>
            Number(a.container !== null) - Number(b.container !== null) ||
            declarationRank(a.kind) - declarationRank(b.kind),
        );
        if (defs.length === 0 && symbol === 'default') defs = defaultExport(reader, f);
        if (defs.length) {
          found.push(defs[0]);
          continue;
        }
        if (pairs.includes(f)) continue;
        for (const re of reader.fileImports(f.path)) {
          if (
            re.alias === symbol ||
            re.name === symbol ||
            re.name === '*' ||
            (re.name === null && re.spelled.endsWith(symbol))
          )
            next.push({ imp: re, symbol: re.alias === symbol ? (re.name ?? symbol) : symbol });
        }
      }
    }
    // A C header's prototype and the definition in its paired source: the definition.
    if (found.some((d) => declarationRank(d.kind, d.file.path) === 0))
      found.splice(0, found.length, ...found.filter((d) => declarationRank(d.kind, d.file.path) === 0));
    // A C or C++ prototype (or `extern` variable) and nothing else: what the linker binds it to, when the
    // tree defines exactly one of that name and owner (an agent trial on the kernel read
    // `refs out_of_memory → include/linux/oom.h:103`, while show sym: reads mm/oom_kill.c).
    const linked = found.length > 0 ? linkedDefinition(reader, named, found) : undefined;
    if (linked) found.splice(0, found.length, linked);
    // A definition recovered with errors around it is never certain.
    if (found.length)
      return {
        via,
        followed: hop,
        outcome: found.length === 1 && isCertain(reader, found[0]) ? 'resolved' : 'candidate',
        definitions: found,
      };
    frontier = next;
  }
  return {
    via,
    followed: Math.min(NAV_IMPORT_HOPS, Math.max(0, via.length - 1)),
    outcome: 'unresolved',
    definitions: [],
  };
}

const JS_LANGS: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx']);

/** The identifier qualifying an occurrence (`Q` of `Q.name`; `before`: its line's text before the name), if any. */
export function dotQualifier(before: string): string | undefined {
  return /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*$/.exec(before)?.[1];
}

/**
 * `Q.name` in JavaScript or TypeScript where Q (`dotQualifier`) binds a module as a whole
 * (`const Q = require('m')`, `import * as Q from 'm'`, `import Q from 'm'` of a CommonJS
 * module), in Python (`import Q`, `import m as Q`; SQLAlchemy's `time.time()` was a
 * candidate call of a test suite's `time` method), or in Lua (`local util =
 * require('vim.lsp.util')`: the module's table): the
 * definitions of `name` that module holds, through its re-exports, and whether the trail is
 * certain. Undefined in another language or when no single import binds the qualifier.
 * Before, npm's `checks.checkEngine(...)` after `const checks = require('npm-install-checks')`
 * was a candidate like any other call of a name defined once, and Neovim's
 * `util.apply_text_edits(...)` a candidate of every `apply_text_edits` (agent trials).
 */
export function moduleMemberTrail(
  reader: IndexReader,
  file: IndexedFile,
  imports: readonly IndexedImport[],
  qualifier: string,
  name: string,
): ImportTrail | undefined {
  if (!JS_LANGS.has(file.lang) && file.lang !== 'luau' && file.lang !== 'python') return undefined;
  if (file.lang === 'python') {
    const submodule = pythonSubmoduleBinding(reader, imports, qualifier);
    if (submodule) return followImport(reader, submodule, name);
  }
  // Lua: `local util = require('vim.lsp.util')` binds the module's table to the local.
  // Python: `import time` binds `time`, `import numpy as np` binds `np` (a dotted `import
  // os.path` binds `os`, whose `os.path.join` qualifier is `path`: not followed).
  const binding = imports.filter((i) =>
    file.lang === 'luau'
      ? i.alias === qualifier && i.name === null
      : file.lang === 'python'
        ? i.name === null && (i.alias ?? i.spelled) === qualifier
        : ((i.name === '*' || i.name === 'default') && i.alias === qualifier) ||
          (i.alias === null && i.name === qualifier),
  );
  if (binding.length !== 1) return undefined;
  return followImport(reader, { ...binding[0], name: '*', alias: null }, name);
}

/**
 * `from pkg import util` (or `from .. import util as u`) binding a submodule of the package,
 * not a name its `__init__.py` defines: the import of that submodule as a whole, when
 * exactly one import binds `qualifier` and the submodule is an indexed file. In the
 * SQLAlchemy trial `util.warn(...)` after `from .. import util` was a candidate call of
 * `FromLinter::warn`; `util/__init__.py` re-exports `warn` from `langhelpers.py`.
 */
function pythonSubmoduleBinding(
  reader: IndexReader,
  imports: readonly IndexedImport[],
  qualifier: string,
): IndexedImport | undefined {
  const binding = imports.filter((i) => i.name !== null && i.name !== '*' && (i.alias ?? i.name) === qualifier);
  if (binding.length !== 1) return undefined;
  const from = binding[0];
  const spelled = /^\.*$/.test(from.spelled) ? from.spelled + from.name : `${from.spelled}.${from.name}`;
  const whole: IndexedImport = { ...from, spelled, name: '*', alias: null };
  return moduleFiles(reader, whole).files.length > 0 ? whole : undefined;
}

/**
 * The module path a Lua global table chain spells before a name (`vim.lsp.util.` →
 * `vim.lsp.util`): two segments or more, not itself after a `.` or `:`; undefined otherwise.
 */
export function luaModulePath(before: string): string | undefined {
  return /(?<![\w.:])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)+)\s*\.\s*$/.exec(before)?.[1].replace(/\s+/g, '');
}

/**
 * `vim.lsp.util.f()` in Lua: Neovim's modules are reachable as global tables named by their
 * `require` path, so the chain is read as `require('vim.lsp.util')` from `file` would be
 * (moduleFiles: `vim/lsp/util.lua`, `vim/lsp/util/init.lua`). The Neovim trial left these
 * calls candidates of every `f`. Undefined outside Lua or when no module file is found.
 */
export function luaModulePathTrail(
  reader: IndexReader,
  file: IndexedFile,
  modulePath: string,
  name: string,
): ImportTrail | undefined {
  if (file.lang !== 'luau') return undefined;
  const imp: IndexedImport = {
    file,
    spelled: modulePath,
    name: '*',
    alias: null,
    reexport: false,
    start: 0,
    end: 0,
    line: 0,
  };
  return moduleFiles(reader, imp).files.length > 0 ? followImport(reader, imp, name) : undefined;
}

/** The `a::b::` path qualifying an occurrence (`before`: its line's text before the name), as segments; undefined when none. */
export function pathQualifier(before: string): string[] | undefined {
  const m = /(?<![\w:>])((?:[A-Za-z_]\w*\s*::\s*)+)$/.exec(before);
  return m
    ? m[1]
        .split('::')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
}

/**
 * Where a Rust module path leads for `name` (`context::budget`, `crate::runtime::coop::budget`,
 * `super::task::spawn`): the path read as a `use` of the file would be, its first segment
 * replaced by what the file's own `use` binds under that name (`use crate::runtime::context;`
 * makes `context::budget` `crate::runtime::context::budget`). Undefined in another language,
 * or when the path ends in a type (`Handle::current`: a member, decided by its container).
 * Before, a file's own definition took every occurrence of its name: coop.rs's eight calls
 * of `context::budget(...)` were resolved sites of coop.rs's own `budget` (an agent trial on
 * tokio).
 */
export function rustPathTrail(
  reader: IndexReader,
  file: IndexedFile,
  imports: readonly IndexedImport[],
  segments: readonly string[],
  name: string,
  at: { readonly start: number; readonly end: number; readonly line: number },
): ImportTrail | undefined {
  if (file.lang !== 'rust' || segments.length === 0) return undefined;
  const [head, ...rest] = segments;
  if (/^[A-Z]/.test(segments[segments.length - 1])) return undefined;
  let prefix: readonly string[] = segments;
  if (!['crate', 'self', 'super'].includes(head)) {
    const binding = imports.filter((i) => i.name !== '*' && (i.alias ?? i.name) === head);
    if (binding.length === 1) prefix = [binding[0].spelled, ...rest];
  }
  const spelled = [...prefix, name].join('::');
  return followImport(reader, { file, spelled, name, alias: null, reexport: false, ...at }, name);
}
