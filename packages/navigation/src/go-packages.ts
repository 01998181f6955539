// Go packages for `refs`: a package is a directory, and an import path names one through
// the module path a `go.mod` declares (`module github.com/hashicorp/hcl/v2` in the root
// makes `github.com/hashicorp/hcl/v2/gohcl` the directory `gohcl/`). A call qualified by an
// import's name (`gohcl.DecodeBody`) is then a site of the package-level definition in that
// directory, and a bare call (`DecodeBody` inside `gohcl/`) one of its own directory's.
// Before, every such call was a candidate (an agent trial on HCL: 13 calls of a name
// defined once, all "call candidate").
import * as path from 'node:path';
import { displayPath } from '@trufflepig/base/stored-path';
import {
  byPath,
  CODE_TAG,
  goImportName,
  OWNER_KINDS,
  readIndexedBytes,
  type IndexedDefinition,
  type IndexedFile,
  type IndexedImport,
  type IndexReader,
} from '@trufflepig/index';

interface GoModule {
  /** The module path its `go.mod` declares. */
  readonly module: string;
  /** The directory holding that `go.mod`, root-relative ('' for the root). */
  readonly dir: string;
}

const MODULE_LINE = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m;

const modulesByReader = new WeakMap<IndexReader, readonly GoModule[]>();

/** The modules of a reader's `go.mod` files, read once per reader from the bytes indexed. */
function goModules(reader: IndexReader): readonly GoModule[] {
  let modules = modulesByReader.get(reader);
  if (modules === undefined) {
    const found: GoModule[] = [];
    for (const f of reader.files()) {
      const p = displayPath(f.path);
      if (f.excluded || path.posix.basename(p) !== 'go.mod') continue;
      const bytes = readIndexedBytes(reader.root, f);
      const m = bytes && MODULE_LINE.exec(bytes.toString('utf8'));
      if (m) found.push({ module: m[2], dir: path.posix.dirname(p) === '.' ? '' : path.posix.dirname(p) });
    }
    // The longest module path first: a nested module owns its own subtree.
    modules = found.sort((a, b) => b.module.length - a.module.length);
    modulesByReader.set(reader, modules);
  }
  return modules;
}

/** The module whose `go.mod` is nearest above a directory (the deepest module directory holding it). */
function moduleOfDir(modules: readonly GoModule[], dir: string): GoModule | undefined {
  let best: GoModule | undefined;
  for (const m of modules)
    if ((m.dir === '' || dir === m.dir || dir.startsWith(`${m.dir}/`)) && (!best || m.dir.length > best.dir.length))
      best = m;
  return best;
}

const directoriesByReader = new WeakMap<IndexReader, ReadonlySet<string>>();

/** The directories holding an indexed file, read once per reader. */
function indexedDirectories(reader: IndexReader): ReadonlySet<string> {
  let dirs = directoriesByReader.get(reader);
  if (dirs === undefined) {
    const found = new Set<string>();
    for (const f of reader.files()) if (!f.excluded) found.add(directoryOf(f));
    directoriesByReader.set(reader, (dirs = found));
  }
  return dirs;
}

/**
 * The root-relative directory an import path names in this index, or undefined (another
 * module's package). As the go command resolves it for a file of `from`'s module: that
 * module's `vendor/` copy of the package first (GOROOT vendors golang.org/x/net under
 * `src/vendor`), then a module whose path prefixes it, then, in a tree whose `go.mod`
 * declares `module std` (GOROOT's `src`), a standard package: an import path whose first
 * element has no dot is its directory there. An agent trial on the Go 1.19 source got 200
 * of 210 `io.ReadFull` calls "unresolved": no module path prefixes `io`.
 */
export function goImportDir(reader: IndexReader, spelled: string, from?: IndexedFile): string | undefined {
  const modules = goModules(reader);
  const own = from && moduleOfDir(modules, directoryOf(from));
  if (own) {
    const vendored = path.posix.join(own.dir, 'vendor', spelled);
    if (indexedDirectories(reader).has(vendored)) return vendored;
  }
  for (const m of modules) {
    if (spelled === m.module) return m.dir;
    if (spelled.startsWith(`${m.module}/`)) return path.posix.join(m.dir, spelled.slice(m.module.length + 1));
  }
  const std = modules.find((m) => m.module === GO_STD_MODULE);
  if (std && !spelled.split('/')[0].includes('.')) {
    const dir = path.posix.join(std.dir, spelled);
    if (indexedDirectories(reader).has(dir)) return dir;
  }
  return modules.length === 0 ? directoryNamedBy(reader, spelled) : undefined;
}

/**
 * Without any go.mod (a tree copied without it: an agent trial took a few directories of
 * Go 1.19's `src/`), the one indexed directory the whole import path names, at the root or
 * below it (`strings`, `net/textproto`); undefined when none or several do. With a go.mod,
 * a path no module maps is another module's, never a guess.
 */
function directoryNamedBy(reader: IndexReader, spelled: string): string | undefined {
  const dirs = indexedDirectories(reader);
  if (dirs.has(spelled)) return spelled;
  let found: string | undefined;
  for (const d of dirs) {
    if (!d.endsWith(`/${spelled}`)) continue;
    if (found !== undefined) return undefined;
    found = d;
  }
  return found;
}

/** The module path GOROOT's `src/go.mod` declares: the standard library's packages. */
const GO_STD_MODULE = 'std';

function directoryOf(file: IndexedFile): string {
  return goPackageDir(file.path);
}

/** A Go file's package: its directory of a stored path, '' at the root (as goImportDir names directories). */
export function goPackageDir(stored: string): string {
  const dir = path.posix.dirname(displayPath(stored));
  return dir === '.' ? '' : dir;
}

/** What the package rule says of one Go occurrence (goPackageSite). */
export type GoSite =
  | { readonly kind: 'definition'; readonly definition: IndexedDefinition }
  /** Qualified by an import of a package outside this index, or of one that defines no such name: none of `defs`. */
  | { readonly kind: 'elsewhere' }
  | undefined;

/**
 * What a Go occurrence names by how it is qualified on its line (`before`: the text of
 * the line before the name). `pkg.Name`, where `pkg` is the name one of the file's imports
 * binds, is the package-level definition in the directory that import names, or none of
 * `defs` when the import names another module's package or that package has no such
 * definition. A bare `Name` is the package-level definition in the file's own directory
 * (Go calls a method only through a value). Undefined when the rule decides nothing: a
 * method or field on a value (`x.Name`), or several definitions where one is needed.
 */
export function goPackageSite(
  reader: IndexReader,
  file: IndexedFile,
  imports: readonly IndexedImport[],
  before: string,
  defs: readonly IndexedDefinition[],
): GoSite {
  const qualified = /([A-Za-z_]\w*)\s*\.\s*$/.exec(before);
  const packageLevel = (dir: string) =>
    defs.filter((d) => d.container === null && d.kind !== 'module' && directoryOf(d.file) === dir);
  if (qualified) {
    const binding = goPackageImport(imports, before);
    if (binding === undefined) return undefined;
    const dir = goImportDir(reader, binding.spelled, file);
    if (dir === undefined) return { kind: 'elsewhere' };
    const there = packageLevel(dir);
    if (there.length === 0) return { kind: 'elsewhere' };
    return there.length === 1 ? { kind: 'definition', definition: there[0] } : undefined;
  }
  if (/(?:\.|->|::)\s*$/.test(before)) return undefined;
  const here = packageLevel(directoryOf(file));
  return here.length === 1 ? { kind: 'definition', definition: here[0] } : undefined;
}

/**
 * The one import of a Go file binding the package that qualifies an occurrence (`zapcore`
 * of `zapcore.Level`; `before`: the line's text before the name), if any: what it names is
 * that package's, never a member of a value.
 */
export function goPackageImport(imports: readonly IndexedImport[], before: string): IndexedImport | undefined {
  const qualified = /([A-Za-z_]\w*)\s*\.\s*$/.exec(before);
  if (!qualified) return undefined;
  const binding = imports.filter((i) => goImportName(i.spelled, i.alias) === qualified[1]);
  return binding.length === 1 ? binding[0] : undefined;
}

/**
 * The receiver variable a Go method declares (`s` of `func (s *summary) observe()`), read
 * from the start of its indexed bytes: inside that method, `s.name` is the method's own
 * type's member, as `self.name` is elsewhere. Undefined for anything else.
 */
export function goReceiverName(bytes: Uint8Array, method: IndexedDefinition): string | undefined {
  if (method.kind !== 'method') return undefined;
  const head = Buffer.from(bytes.subarray(method.start, Math.min(bytes.length, method.start + GO_RECEIVER_HEAD_BYTES)));
  return /^func\s*\(\s*([A-Za-z_]\w*)\s/.exec(head.toString('utf8'))?.[1];
}

/** Bytes of a method's start that hold its receiver (`func (name *Type`). */
const GO_RECEIVER_HEAD_BYTES = 200;

/**
 * The members a Go type has in the other code files of its package (its directory), by path
 * then source order: Go declares a type's methods in any file of the package, and net/http's
 * `Transport::RoundTrip` is in roundtrip.go while the type is in transport.go (an agent trial
 * read `members: more than listed (map net/http/transport.go lists them all)` as the whole
 * of them). None for another language or a definition that is no top-level type.
 */
export function goPackageMembers(reader: IndexReader, def: IndexedDefinition): IndexedDefinition[] {
  if (def.file.lang !== 'go' || !OWNER_KINDS.has(def.kind) || def.container !== null) return [];
  const dir = directoryOf(def.file);
  const out: IndexedDefinition[] = [];
  for (const f of reader.files()) {
    if (f.id === def.file.id || f.lang !== 'go' || f.excluded || !f.tags.includes(CODE_TAG)) continue;
    if (directoryOf(f) !== dir) continue;
    for (const d of reader.fileDefinitions(f.path)) if (d.container === def.name) out.push(d);
  }
  return out.sort((a, b) => byPath(a.file, b.file) || a.start - b.start);
}
