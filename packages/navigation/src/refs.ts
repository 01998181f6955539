// `refs NAME [filters]` (docs/spec/retrieval.md §7): every occurrence site of a name, re-read from
// the files the index names, each with how it resolves inside its own member, its line's
// text and the definition that encloses it.
import * as path from 'node:path';
import { cutSnippet, displayText, printedPath } from '@trufflepig/render';
import {
  declarationRank,
  definitionKinds,
  codeFamilyOf,
  dottedAsOwned,
  extractOccurrences,
  FUNCTION_KINDS,
  isCallableKind,
  enclosingDefinitions,
  lineAt,
  lineStartOffsets,
  OWNER_KINDS,
  type IndexedImport,
  type IndexedDefinition,
  type IndexedFile,
  type IndexReader,
  type Occurrence,
  symbolQuery,
  tooLargeCodeMentioning,
  unparsedCodeMentioning,
  type ParsedQuery,
} from '@trufflepig/index';
import { fileStanding, isExamplePath } from '@trufflepig/rank';
import { baseNames, implementedSpellings, lastSegment, mixinSpellings, typeHead } from './class-heads';
import { DECLARED_TYPE_LANGS, namesOwnObject, declaredTypeIn, escapeRegExp, receiverVariable } from './declared-types';
import { argumentCount, parameterCount, textAfter } from './signatures';
import { nearestDefinition } from './dirs';
import { literalKeyType } from './struct-literals';
import { goPackageImport, goPackageSite, goReceiverName } from './go-packages';
import {
  CTX_CALLER_CANDIDATES_READ,
  CTX_CALLERS_DEADLINE_MS,
  NAV_TEXT_MAX_CHARS,
  REFS_DEADLINE_MS,
  REFS_MAX_FILES,
  REFS_MAX_SITES,
} from './limits';
import { byPath, readIndexedBytes } from '@trufflepig/index';
import { qualifiedName } from './entries';
import { fileFilter } from './filter';
import type { NavTarget } from './target';
import {
  dotQualifier,
  luaModulePath,
  luaModulePathTrail,
  followImport,
  importTrailMemo,
  type ImportTrailMemo,
  isCertain,
  moduleMemberTrail,
  pathQualifier,
  rustPathTrail,
  sameNamespaceDefinition,
  type ImportTrail,
  type Resolution,
} from './resolve';
import { unindexedMentions, useRowsOf } from './uses';

export interface RefSite {
  readonly target: NavTarget;
  readonly file: IndexedFile;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly role: string;
  readonly resolution: Resolution;
  /** Where it resolves (`path:line`), when resolved or a single candidate. */
  readonly definition?: string;
  /** The innermost definition enclosing the site (`Owner::name`), other than the one it declares. */
  readonly within?: string;
  /** The site's line, display-escaped, without its indentation. */
  readonly text: string;
  /** Occurrences of the name collapsed into this row (its line, its band of the order). */
  readonly repeats: number;
  /** Every role of those occurrences, when they differ (`self.x = x`: member and reference). */
  readonly roles?: readonly string[];
}

export interface RefsOutcome {
  readonly sites: RefSite[];
  /** Sites before same-line collapsing. */
  readonly siteCount: number;
  readonly files: number;
  readonly truncated: boolean;
  /** Files whose bytes changed since indexing: not examined. */
  readonly stale: number;
  /** Files holding the name that a bound left unread (their sites are not in `sites`). */
  readonly unread: number;
  /** With `kind:`, the sites left out as another kind's definition's (declared or resolved). */
  readonly otherKinds: number;
}

/** Line starts of definition files, read once per refs call (a definition's name line may follow its attributes). */
type LineCache = Map<string, readonly number[] | null>;

/** `path:line` of a definition's name. */
/**
 * `PATH:LINE` of a definition's name, as a hit prints it: a workspace member's prefixed
 * `MEMBER/PATH:LINE` (an agent trial read `refs resolve_redirects → requests/sessions.py:159`
 * as member requests' sessions.py; the file is requests/requests/sessions.py).
 */
function locatorIn(t: NavTarget, cache: LineCache): (d: IndexedDefinition) => string {
  const root = t.root;
  const prefix = t.member !== undefined ? `${t.member}/` : '';
  return (d) => {
    let starts = cache.get(d.file.path);
    if (starts === undefined) {
      const bytes = readIndexedBytes(root, d.file);
      starts = bytes ? lineStartOffsets(bytes) : null;
      cache.set(d.file.path, starts);
    }
    return `${prefix}${printedPath(d.file.path)}:${starts ? lineAt(starts, d.nameStart) : d.startLine}`;
  };
}

type SiteResolution = { resolution: Resolution; definition?: string };

/**
 * What a qualified occurrence's trail says of it among `defs`: resolved to the one it
 * reaches, a candidate when it reaches several, none of them (`unresolved`) when it reaches
 * none (`std::mem::take`, another module's `f`); undefined without a trail (the rule does
 * not apply).
 */
function trailSite(
  trail: ImportTrail | undefined,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
): SiteResolution | undefined {
  if (trail === undefined) return undefined;
  const hit = trail.definitions.filter((d) => defs.some((x) => x.file.id === d.file.id && x.start === d.start));
  if (hit.length === 1)
    return { resolution: trail.outcome === 'resolved' ? 'resolved' : 'candidate', definition: locator(hit[0]) };
  return { resolution: hit.length > 1 ? 'candidate' : 'unresolved' };
}

/**
 * Where `imp` leads for `name` among `defs`: resolved when the trail is certain and reaches
 * one of them. Memoised per import record (pass one file's `fileImports` array to both
 * users): a file's resolution and its import sites follow the same statements.
 */
function throughImport(
  reader: IndexReader,
  imp: IndexedImport,
  name: string,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
  memo: Map<IndexedImport, SiteResolution>,
  trails: ImportTrailMemo,
): SiteResolution {
  const known = memo.get(imp);
  if (known) return known;
  const trail = followImport(reader, imp, imp.alias === name ? (imp.name ?? undefined) : name, trails);
  const hit = trail.definitions.filter((d) => defs.some((x) => x.file.id === d.file.id && x.start === d.start));
  const out: SiteResolution =
    trail.outcome === 'resolved' && hit.length === 1
      ? { resolution: 'resolved', definition: locator(hit[0]) }
      : hit.length > 0
        ? { resolution: 'candidate', definition: locator(hit[0]) }
        : { resolution: 'unresolved' };
  memo.set(imp, out);
  return out;
}

/** Where the import statement holding byte `at` leads for `name`, when one is recorded there. */
function importAt(
  imports: readonly IndexedImport[],
  at: number,
  name: string,
  follow: (imp: IndexedImport) => SiteResolution,
): SiteResolution | undefined {
  const imp = imports.find((i) => (i.name === name || i.alias === name) && i.start <= at && at < i.end);
  return imp ? follow(imp) : undefined;
}

/** How the name resolves in one file: its own definition, an import it follows, or another file's definition. */
function resolveIn(
  reader: IndexReader,
  file: IndexedFile,
  imports: readonly IndexedImport[],
  name: string,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
  follow: (imp: IndexedImport) => SiteResolution,
  trails: ImportTrailMemo,
): SiteResolution {
  // A file's own definition; a C file's function before its own forward prototype. When
  // the file defines the name more than once (the `MaxItems` fields of three Go spec
  // structs, or of two local structs both called `content`), which one an occurrence
  // means takes its receiver's type: a candidate, never the first of them resolved (an
  // agent trial's refs gave every `s.MaxItems` to one).
  const owns = defs
    .filter((d) => d.file.id === file.id)
    .sort((a, b) => declarationRank(a.kind) - declarationRank(b.kind));
  if (owns.length > 0) {
    const best = declarationRank(owns[0].kind);
    if (owns.filter((d) => declarationRank(d.kind) === best).length > 1) return { resolution: 'candidate' };
    return { resolution: 'resolved', definition: locator(owns[0]) };
  }
  // The name an import binds in this file is its alias when it has one: `from urllib3
  // import SSLError as _SSLError` binds _SSLError, not the SSLError used below it.
  const binds = (imp: IndexedImport) =>
    imp.alias === name ||
    (imp.alias === null && imp.name === name) ||
    (imp.name === null && imp.alias === null && imp.spelled.split(/::|\\|\.|\//).pop() === name);
  const binding = imports.filter(binds);
  let candidate: SiteResolution | undefined;
  const resolved: SiteResolution[] = [];
  for (const imp of binding) {
    const through = follow(imp);
    if (through.resolution === 'resolved') resolved.push(through);
    if (through.resolution === 'candidate') candidate ??= through;
  }
  // Two imports of the name leading to different definitions (tokio's `#[cfg(test)] use
  // super::mocks::spawn_blocking;` beside `#[cfg(not(test))] use crate::blocking::spawn_blocking;`):
  // which one a use means is the build's choice, not the file's.
  const targets = new Set(resolved.map((r) => r.definition));
  if (targets.size === 1) return resolved[0];
  if (targets.size > 1) return { resolution: 'candidate' };
  if (candidate) return candidate;
  if (binding.length > 0) return { resolution: 'unresolved' };
  // Imports that open a scope (a glob, a C# namespace) bind the name only if it is there.
  for (const imp of imports.filter(
    (i) => i.name === '*' || (file.lang === 'csharp' && i.name === null && i.alias === null),
  )) {
    const trail = followImport(reader, imp, name, trails);
    const hit = trail.definitions.filter(
      (d) => d.name === name && defs.some((x) => x.file.id === d.file.id && x.start === d.start),
    );
    if (hit.length === 1 && trail.outcome === 'resolved')
      return { resolution: 'resolved', definition: locator(hit[0]) };
  }
  // PHP and Java reach their own namespace's items unimported.
  const sibling = sameNamespaceDefinition(reader, file, name);
  if (sibling && defs.some((d) => d.file.id === sibling.file.id && d.start === sibling.start))
    return { resolution: 'resolved', definition: locator(sibling) };
  // A Rust `macro_rules!` macro is in scope by its crate's text, never imported: the only
  // definition of the name, a macro, is what `name!` calls (tokio's 13 `cfg_rt_multi_thread!`
  // blocks were candidates of the one macro, an agent trial).
  if (file.lang === 'rust' && defs.length === 1 && defs[0].kind === 'macro' && defs[0].file.lang === 'rust')
    return { resolution: 'resolved', definition: locator(defs[0]) };
  if (defs.length === 1) return { resolution: 'candidate', definition: locator(defs[0]) };
  return defs.length > 1 ? { resolution: 'candidate' } : { resolution: 'unresolved' };
}

/**
 * Call and use sites in code first (what an agent asks refs for), then the declaration,
 * imports and bindings (`const x = require(...)`), then sites in example programs and tests,
 * then build output (a bundle's copies of the code); then path and position. A line that declares or
 * imports the name is a declaration line whole (`exports.f = function f`: its member
 * occurrence is not a use), so its occurrences make one row, not one per band.
 */
const RESOLUTION_ORDER: Readonly<Record<Resolution, number>> = { resolved: 0, candidate: 1, unresolved: 2 };

function bandOf(s: RefSite, declaring: ReadonlySet<string>): number {
  const standing = fileStanding(s.file);
  if (standing === 2) return 3;
  if (standing === 1 || isExamplePath(s.file.path)) return 2;
  return isDeclaring(s) || declaring.has(lineKey(s)) ? 1 : 0;
}

function isDeclaring(s: RefSite): boolean {
  return s.role === 'declaration' || s.role === 'import';
}

function lineKey(s: RefSite): string {
  return `${s.target.member ?? ''}\0${s.file.path}\0${s.line}`;
}

/** The innermost definition holding `at`, skipping the one whose name starts there. */
function enclosingDef(defs: readonly IndexedDefinition[], at: number): IndexedDefinition | undefined {
  let best: IndexedDefinition | undefined;
  for (const d of defs) {
    if (d.start <= at && at < d.end && d.nameStart !== at && (!best || d.end - d.start < best.end - best.start))
      best = d;
  }
  return best;
}

/** The owners of a name by their lowercase spelling, which a receiver word without its underscores is compared with. */
function receiverKeys(owners: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
  const keys = new Map<string, string[]>();
  for (const o of new Set([...owners].map(lastSegment))) {
    const key = o.toLowerCase();
    keys.set(key, [...(keys.get(key) ?? []), o]);
  }
  return keys;
}

/**
 * The type among the owners of the name asked for (receiverKeys) that a lowercase receiver
 * word spells, ignoring case and underscores (`dependant` → `Dependant`, `http_connection`
 * → `HTTPConnection`), when exactly one does; undefined otherwise.
 */
function receiverNamedType(before: string, owners: ReadonlyMap<string, readonly string[]>): string | undefined {
  const m = /(?:^|[^\w$.])([a-z_][a-z0-9_]*)\s*(?:\.|->)\s*$/.exec(before);
  if (!m || SELF_RECEIVERS.has(m[1])) return undefined;
  const found = owners.get(m[1].replace(/_/g, ''));
  return found?.length === 1 ? found[0] : undefined;
}

/**
 * The definition whose owner a site's `self`/`this` is: `holder` itself, or for a function
 * nested in a method (`async def openapi(req)` inside `FastAPI::setup`), the method it is
 * nested in, up to the type. `self.openapi()` there is FastAPI's, and `refs FastAPI::openapi`
 * had dropped that one real call (a Python trial).
 */
function typeHolder(
  fileDefs: readonly IndexedDefinition[],
  holder: IndexedDefinition | undefined,
): IndexedDefinition | undefined {
  let d = holder;
  for (let hops = 0; d && !OWNER_KINDS.has(d.kind) && d.container !== null && hops < 8; hops++) {
    const inner: IndexedDefinition = d;
    const outer = enclosingDef(
      fileDefs.filter((e) => e.name === lastSegment(inner.container!) && e !== inner),
      inner.start,
    );
    if (!outer || OWNER_KINDS.has(outer.kind)) break;
    d = outer;
  }
  return d;
}

/** Languages whose members are reached only through a receiver (`self.x`, `this.x`, `v.x`), never by a bare name. */
export const RECEIVER_ONLY_MEMBERS: ReadonlySet<string> = new Set([
  'python',
  'rust',
  'go',
  'javascript',
  'typescript',
  'tsx',
  'luau',
]);

/**
 * Lua's standard library tables: `table.sort`, `os.execute`, `string.find` are theirs, never
 * a site of a repository's `tablex.sort` or `compat.execute` (an agent trial on Penlight got
 * six `table.sort` calls as its callers, and `os.execute` inside `compat.execute` as a call of it).
 */
const LUA_LIBRARY_TABLES: ReadonlySet<string> = new Set([
  'table',
  'string',
  'os',
  'io',
  'math',
  'coroutine',
  'debug',
  'utf8',
  'package',
  'bit32',
  'buffer',
  'task',
]);

/** What ends the text before a qualified occurrence (`x.`, `A::`, `p->`; Lua's `t.` and `t:`): a bare name has none of it. */
const QUALIFIED_BEFORE = /(?:\.|::|->)\s*$/;
const LUA_QUALIFIED_BEFORE = /(?:\.|:)\s*$/;

/**
 * Languages where a bare name inside a type is its own member (an implicit `this`):
 * `resize()` and `TREEIFY_THRESHOLD` inside `HashMap`, which defines both, are HashMap's,
 * unless a local or parameter of the name shadows it (localScopes).
 */
const IMPLICIT_THIS: ReadonlySet<string> = new Set(['java', 'csharp', 'cpp', 'ruby']);

/**
 * Go: the definition `v.name` reaches when `v` is the receiver of the method holding it
 * (`func (lvl AtomicLevel) ServeHTTP` calling `lvl.Level()`): the member of the receiver's
 * type, declared in the same package (directory). zap's `lvl.Level()` had resolved to the
 * field of a struct declared inside that method, the file's only `Level` (an agent trial).
 */
function goReceiverMember(
  bytes: Uint8Array,
  holder: IndexedDefinition | undefined,
  qualifier: string | undefined,
  defs: readonly IndexedDefinition[],
  file: IndexedFile,
): IndexedDefinition | undefined {
  if (holder?.kind !== 'method' || holder.container === null || qualifier === undefined) return undefined;
  if (goReceiverName(bytes, holder) !== qualifier) return undefined;
  const dir = path.posix.dirname(file.path);
  const members = defs.filter(
    (d) => d.container === holder.container && d.file.lang === 'go' && path.posix.dirname(d.file.path) === dir,
  );
  return members.length === 1 ? members[0] : undefined;
}

/** The definition a site resolved to, when it resolved to one of `defs`. */
function resolvedTarget(
  site: SiteResolution,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
): IndexedDefinition | undefined {
  if (site.resolution !== 'resolved' || site.definition === undefined) return undefined;
  return defs.find((d) => locator(d) === site.definition);
}

/**
 * Whether a Go call site resolved to a field while the name also has callable definitions:
 * a call is far more often a method's than a function-typed field's, so it is a candidate.
 */
function calledField(
  site: SiteResolution,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
): boolean {
  return resolvedTarget(site, defs, locator)?.kind === 'field' && defs.some((d) => isCallableKind(d.kind));
}

/**
 * Languages where a bare name never means a member, even inside its type's own methods:
 * Go reaches one only through a value (`v.x`), Rust through `self.`/`Self::`. Not Python
 * (a class body reads its own attributes bare), nor JavaScript, TypeScript and Lua, whose
 * bindings (`const { f } = obj`, `local f = t.f`) make a member's bare calls.
 */
const BARE_NEVER_MEMBER: ReadonlySet<string> = new Set(['go', 'rust']);
/**
 * Whether a name behind `qualifier` (`werkzeug.utils.send_file`, `res.send`) cannot be its own
 * file's top-level function: Python and JavaScript reach one bare or through its module's
 * binding (which moduleMemberTrail reads first), CommonJS's `exports.f` aside. Not Lua,
 * whose module table names its own functions (`M.f = f`), nor Go and Rust, whose package
 * and path rules decide first. refs and ctx both ask it.
 */
export function qualifierSkipsOwnFunction(lang: string, qualifier: string | undefined): boolean {
  return QUALIFIED_NEVER_OWN_FUNCTION.has(lang) && qualifier !== 'exports';
}

const QUALIFIED_NEVER_OWN_FUNCTION: ReadonlySet<string> = new Set(['python', 'javascript', 'typescript', 'tsx']);

/** Members a glob import brings in bare (Rust's `use Color::*` then `Red`): BARE_NEVER_MEMBER leaves them alone. */
const GLOB_IMPORTED_KINDS: ReadonlySet<string> = new Set(['variant', 'constant']);

/** Languages where a method is never read without being called (fields and methods do not share a name's uses). */
const CALLED_ONLY: ReadonlySet<string> = new Set(['java', 'php']);

/** Receivers that name the enclosing type's own instance or the type itself (PHP's `$this->`, `static::`). */
const SELF_RECEIVERS: ReadonlySet<string> = new Set(['self', 'this', 'Self', 'cls', '$this', 'static']);

/** Qualifiers naming the enclosing type's parent (`parent::__construct`, Java's `super.run()`): parentRelation reads which type that is. */
const PARENT_RECEIVERS: ReadonlySet<string> = new Set(['parent', 'super']);

/**
 * What the ancestors of a class are to `refs A::b`: `is` when A is one before any of them
 * defines b, `not` when one of them defines b first or the chain ends without A (at a
 * class outside the index, or one that extends nothing), `unknown` when it cannot be read.
 */
export type ParentRelation = 'is' | 'not' | 'unknown';

/**
 * What the modules the class `type` of a file mixes in (class-heads.ts mixinSpellings) say of
 * `refs A::b`: `is` when A is one of them, `not` when one of them defines b, else undefined.
 */
function mixinRelation(
  fileDefs: readonly IndexedDefinition[],
  bytes: Uint8Array,
  type: string,
  definers: ReadonlySet<string>,
  container: string,
): ParentRelation | undefined {
  const def = fileDefs.find((d) => d.name === type && OWNER_KINDS.has(d.kind));
  const mixins = def === undefined ? [] : mixinSpellings(bytes, def).map(lastSegment);
  if (mixins.includes(container)) return 'is';
  return mixins.some((x) => definers.has(x)) ? 'not' : undefined;
}

/** The class `type` of a file derives from first (class-heads.ts baseNames), by its last name segment. */
function parentOfType(fileDefs: readonly IndexedDefinition[], bytes: Uint8Array, type: string): string | undefined {
  const def = fileDefs.find((d) => d.name === type && OWNER_KINDS.has(d.kind));
  return def === undefined ? undefined : baseNames(typeHead(bytes, def), def.file.lang)[0];
}

/**
 * The declared type of the variable a member is reached through at `at` (declared-types.ts):
 * a parameter or local of the enclosing definition, else a field the file declares.
 */
export function receiverDeclaredType(
  fileDefs: readonly IndexedDefinition[],
  bytes: Uint8Array,
  starts: readonly number[],
  holder: IndexedDefinition | undefined,
  at: number,
  before: string,
): string | undefined {
  const receiver = receiverVariable(before);
  if (!receiver) return undefined;
  const text = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('utf8');
  const local = !receiver.field && holder ? declaredTypeIn(text(holder.start, at), receiver.name) : undefined;
  if (local !== undefined) return local;
  // The enclosing type's own field first (Collections.java declares a `c` in eight classes).
  const fields = fileDefs.filter((d) => d.name === receiver.name && d.container !== null && FIELD_KINDS.has(d.kind));
  const owner = typeHolder(fileDefs, holder);
  const ownerName = owner && (OWNER_KINDS.has(owner.kind) ? owner.name : owner.container);
  const field = fields.find((d) => d.container === ownerName) ?? fields[0];
  // From its first line to its last: an annotation or comment may open the definition.
  return (
    field && declaredTypeIn(text(starts[field.startLine - 1], lineEndAt(bytes, starts, field.endLine)), receiver.name)
  );
}

const FIELD_KINDS: ReadonlySet<string> = new Set(['field', 'property', 'constant', 'variable']);

/** Whether the name at [start, end) is a keyword argument: after `(` or `,`, before a lone `=`. */
function keywordArgumentAt(bytes: Uint8Array, start: number, end: number): boolean {
  const blank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
  let b = start - 1;
  while (b >= 0 && blank(bytes[b])) b--;
  let a = end;
  while (a < bytes.length && blank(bytes[a])) a++;
  return (bytes[b] === 0x28 || bytes[b] === 0x2c) && bytes[a] === 0x3d && bytes[a + 1] !== 0x3d;
}

/** Whether the occurrence at `start` is a Ruby symbol (`:where`, not `A::where`). */
function rubySymbolAt(lang: IndexedFile['lang'], bytes: Uint8Array, start: number): boolean {
  return lang === 'ruby' && start > 0 && bytes[start - 1] === 0x3a && (start < 2 || bytes[start - 2] !== 0x3a);
}

/** A member access right after a `new` expression: `(new PhpHandler)->`, `new Foo(x).`, `new \\App\\Job()->`. */
const NEW_RECEIVER =
  /\bnew\s+([A-Za-z_$\\][\w$\\.]*)\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*\)?\s*(?:\?->|->|\.)\s*$/;

/** The class (last name segment) a receiver made by `new` right before the occurrence has, if it is one. */
export function newReceiverType(before: string): string | undefined {
  const m = NEW_RECEIVER.exec(before);
  return m ? lastSegment(m[1]) : undefined;
}

/**
 * What a receiver's declared type makes of a call of `container::b` through it: `resolved`
 * when it is the container, or a class whose `extends` chain reaches the container before a
 * class defining b; none when the type defines b itself (the call binds to its own), lies
 * outside the index (it cannot derive from the container) or extends a chain that never
 * reaches it; otherwise (a type parameter, an interface the chain does not read, no
 * declaration found) what the line says (undefined, or `candidate`).
 */
function declaredSite(
  t: NavTarget,
  declared: string | undefined,
  container: string,
  definers: ReadonlySet<string>,
  lang: IndexedFile['lang'],
): Resolution | 'not_a_site' | undefined {
  if (declared === undefined || TYPE_PARAMETER.test(declared)) return undefined;
  if (declared === lastSegment(container)) return 'resolved';
  if ([...definers].some((d) => lastSegment(d) === declared)) return 'not_a_site';
  const family = codeFamilyOf(lang);
  const def = t.reader
    .definitions(declared)
    .find((d) => OWNER_KINDS.has(d.kind) && codeFamilyOf(d.file.lang) === family);
  if (!def) return 'not_a_site';
  const bytes = readIndexedBytes(t.root, def.file);
  if (!bytes) return 'candidate';
  const relation = parentRelation(t, t.reader.fileDefinitions(def.file.path), bytes, declared, definers, container);
  if (relation === 'is') return 'resolved';
  if (relation !== 'not') return 'candidate';
  // An abstract class implementing an interface A inherits A's b without naming it.
  const contract = t.reader.definitions(lastSegment(container)).some((d) => d.kind === 'interface');
  return contract && implementedSpellings(typeHead(bytes, def), def.file.lang).length > 0 ? 'candidate' : 'not_a_site';
}

/**
 * A bare call of b inside a top-level Java or C# class that does not define b calls the b
 * its `extends` chain reaches first: A's (`resolved`) or another class's (none: the JDK's
 * AbstractList calls its own `size()` inherited from AbstractCollection, one of 44 candidate
 * sites of `refs ConcurrentHashMap::size`). A nested class may call its outer instance's b,
 * and an interface A may bring a default b through an `implements` clause: those, and a
 * chain the index does not read, stay candidates.
 */
function inheritedBareCall(
  t: NavTarget,
  fileDefs: readonly IndexedDefinition[],
  bytes: Uint8Array,
  enclosing: IndexedDefinition | undefined,
  definers: ReadonlySet<string>,
  container: string,
): Resolution | 'not_a_site' {
  const type = enclosing === undefined ? undefined : OWNER_KINDS.has(enclosing.kind) ? enclosing : undefined;
  const typeName = type?.name ?? enclosing?.container ?? undefined;
  const typeDef = type ?? fileDefs.find((d) => d.name === typeName && OWNER_KINDS.has(d.kind));
  if (typeName === undefined || !typeDef || typeDef.container !== null) return 'candidate';
  const relation = parentRelation(t, fileDefs, bytes, typeName, definers, container);
  if (relation === 'is') return 'resolved';
  if (relation !== 'not') return 'candidate';
  const contract = t.reader.definitions(lastSegment(container)).some((d) => d.kind === 'interface');
  return contract && implementedSpellings(typeHead(bytes, typeDef), typeDef.file.lang).length > 0
    ? 'candidate'
    : 'not_a_site';
}

/** Ancestors of a class followed for `parent::b` / `super.b`, at most (a file read each). */
const PARENT_CHAIN_MAX = 4;

/**
 * Whose `b` a `parent::b` inside `type` calls, walking `extends` up to PARENT_CHAIN_MAX
 * classes through the index (`definers`: the types that define `b`): Symfony's `UnicodeString::split` calls
 * `parent::split` of AbstractUnicodeString, which extends AbstractString, which defines
 * `split`: no site of `HeaderUtils::split` (an agent trial listed three such candidates).
 */
function parentRelation(
  t: NavTarget,
  fileDefs: readonly IndexedDefinition[],
  bytes: Uint8Array,
  type: string,
  definers: ReadonlySet<string>,
  container: string,
): ParentRelation {
  // A class's mixins (PHP traits, Ruby modules) are its own members: `$this->fireModelEvent()`
  // inside Laravel's Model is its trait HasEvents's method (23 such calls were candidates, a trial).
  const mixed = mixinRelation(fileDefs, bytes, type, definers, container);
  if (mixed !== undefined) return mixed;
  // A class that extends nothing: `parent::` is a trait's, whose user is not known here.
  let parent = parentOfType(fileDefs, bytes, type);
  if (parent === undefined) return 'unknown';
  // A class extending its own name extends another namespace's (Symfony's
  // `InvalidArgumentException extends \\InvalidArgumentException`): outside the index.
  const seen = new Set([type]);
  for (let depth = 0; depth < PARENT_CHAIN_MAX; depth++) {
    if (parent === container) return 'is';
    if (definers.has(parent) || seen.has(parent)) return 'not';
    seen.add(parent);
    // A parent outside the index (PHP's `\RuntimeException`) extends no class of it.
    const def = t.reader.definitions(parent).find((d) => OWNER_KINDS.has(d.kind));
    if (!def) return 'not';
    const parentBytes = readIndexedBytes(t.root, def.file);
    if (!parentBytes) return 'unknown';
    const parentDefs = t.reader.fileDefinitions(def.file.path);
    const inherited = mixinRelation(parentDefs, parentBytes, parent, definers, container);
    if (inherited !== undefined) return inherited;
    parent = parentOfType(parentDefs, parentBytes, parent);
    if (parent === undefined) return 'not';
  }
  return 'unknown';
}

/**
 * Whether an occurrence of `name` is a site of `container::name` (`refs A::b`), read from
 * what qualifies it on its line: `A::b`/`A.b` is; `self.b`/`this.b`/`Self::b` is inside
 * A's own members, a candidate inside a type that does not define b itself (it may inherit
 * it) and not one inside a type that does; `X::b` or `X.b` for another type or module path
 * is not; a call on any other receiver (`x.b`, `f().b`) is a candidate, and one on the
 * parent (`parent::b`, `super.b`) is what `parentOf` says of the enclosing type's
 * ancestors (resolved when A is one, none when another defines b first or the chain
 * leaves the index, else a candidate); a bare `b` is a
 * candidate only inside A (an implicit `this`), resolved when it is a call in a language of
 * implicit `this` and A defines b, and there a candidate inside another type that does not
 * define b (it may inherit it). Before this, every `new` of a file that
 * defines `PrettyFormatter::new` was a resolved site of it (`Vec::new`, `itoa::Buffer::new`:
 * 17 "resolved" of which 2 were, an agent trial on serde_json).
 */
export function memberSite(
  before: string,
  container: string,
  enclosing: IndexedDefinition | undefined,
  definesName: (type: string) => boolean,
  receiver?: string,
  implicitThis?: { readonly call: boolean },
  parentOf?: (type: string) => ParentRelation,
): Resolution | 'not_a_site' {
  const type =
    enclosing === undefined
      ? undefined
      : OWNER_KINDS.has(enclosing.kind)
        ? enclosing.name
        : (enclosing.container ?? undefined);
  // Python's `super().b` is on the parent, as `super.b` and `parent::b` are. A C++ path
  // through template arguments (`TransformTupleValuesHelper<Tuple, Func, OutIter>::Run`) is
  // its type's: googletest's was a candidate site of every `Run` (a C++ trial).
  const q = /([A-Za-z_$][\w$]*)?\s*(::|\.|->)\s*$/.exec(
    withoutTemplateArguments(before).replace(/\bsuper\(\s*\)(\s*\.\s*)$/, 'super$1'),
  );
  if (!q) {
    // Inside A, which defines b, a bare b is A's own (a local of the name is no site: the
    // caller drops the occurrences its local scopes shadow). JDK's bare `TREEIFY_THRESHOLD`
    // in `HashMap::putVal` was a candidate (an agent trial).
    if (type === container) return implicitThis && definesName(container) ? 'resolved' : 'candidate';
    // Another type that does not define b may inherit A's: `setPlayConfigDetails (…)` inside
    // a JUCE AudioProcessor subclass (an agent trial found 3 of 8 calls dropped).
    return implicitThis && type !== undefined && !definesName(type) ? 'candidate' : 'not_a_site';
  }
  const [, qualifier, separator] = q;
  // A string literal is of the language's string type, never of A unless A is it:
  // `"http://hyper.rs".parse()` made 26 of `refs Buffered::parse`'s 34 rows (a Rust trial),
  // while Ruby's `"a b".squish` is String's.
  if (STRING_LITERAL_RECEIVER.test(before) && !STRING_TYPES.has(lastSegment(container))) return 'not_a_site';
  if (qualifier !== undefined && PARENT_RECEIVERS.has(qualifier)) {
    // The parents the enclosing class declares (`class ByteString extends AbstractString`):
    // A's own b when A is one of them (parentRelation).
    const relation = type === undefined ? 'unknown' : (parentOf?.(type) ?? 'unknown');
    return relation === 'is' ? 'resolved' : relation === 'not' ? 'not_a_site' : 'candidate';
  }
  if (qualifier === undefined) return 'candidate';
  if (qualifier === container) return 'resolved';
  if (SELF_RECEIVERS.has(qualifier) || qualifier === receiver) {
    if (type === container) return 'resolved';
    if (type === undefined) return 'candidate';
    if (definesName(type)) return 'not_a_site';
    // Inherited: `this.scheduleGc()` inside `class Query<…> extends Removable` is Removable's
    // when the chain reaches A before a class defining b (query-core's five callers of
    // `Removable::scheduleGc` were candidates, a workspace trial). Anything else stays a
    // candidate: a mixin or a second base may bring b.
    return parentOf?.(type) === 'is' ? 'resolved' : 'candidate';
  }
  // A type parameter (`T::should_read_first()` in `impl<T: Http1Transaction>`) is any type
  // its bounds allow, A among them: `refs Http1Transaction::should_read_first` had found
  // none of hyper's six such calls and said 1 site, complete (a Rust trial).
  if (TYPE_PARAMETER.test(qualifier) && qualifier !== lastSegment(container)) return 'candidate';
  // A path through another type or module (`Vec::new`, `itoa::Buffer::new`, `Other.b`).
  if (separator === '::' || /^[A-Z]/.test(qualifier)) return 'not_a_site';
  return 'candidate';
}

/** A generic type parameter as written by convention: one capital letter, maybe a digit (`T`, `B`, `S2`). */
export const TYPE_PARAMETER = /^[A-Z]\d?$/;
/** A receiver that is a string literal: the text before the member ends `"…".` or `'…'.`. */
const STRING_LITERAL_RECEIVER = /["'`]\s*(?:\.|->)\s*$/;
/** Types whose values a string literal is, by language (`str`, `String`, `string`, `std::string`). */
const STRING_TYPES: ReadonlySet<string> = new Set(['str', 'String', 'string', 'Str', 'CharSequence', 'basic_string']);

/**
 * The definitions among `defs` owned by the namespace or type a C++ path names before the
 * name (`cord_internal::kMaxInline`, `Helper<T>::Run`): those whose owner's last segment is
 * the path's last. Undefined when there is no path or it names none of their owners (a
 * namespace the index does not know owns nothing here).
 */
function cppQualifiedSite(before: string, defs: readonly IndexedDefinition[]): IndexedDefinition[] | undefined {
  const q = /([A-Za-z_]\w*)\s*::\s*$/.exec(withoutTemplateArguments(before));
  if (!q) return undefined;
  const owned = defs.filter((d) => d.container !== null && lastSegment(d.container) === q[1]);
  return owned.length > 0 ? owned : undefined;
}

/** Template arguments written between a type and the `::` that ends `before`, left out: `A<T, U>::` reads `A::`. */
function withoutTemplateArguments(before: string): string {
  const m = />\s*::\s*$/.exec(before);
  if (!m) return before;
  let depth = 0;
  for (let i = m.index; i >= 0; i--) {
    const c = before[i];
    if (c === '>') depth++;
    else if (c === '<' && --depth === 0) return before.slice(0, i) + before.slice(m.index + 1);
    else if (c === ';' || c === '{' || c === '}' || c === '(' || c === ')') break;
  }
  return before;
}

/**
 * Whether a Lua file binds `name` to `container`'s function of that name at file level
 * (`local assert_arg = utils.assert_arg`), read from the variable definition's line.
 */
function luaAliasOf(
  fileDefs: readonly IndexedDefinition[],
  bytes: Uint8Array,
  starts: readonly number[],
  name: string,
  container: string,
): boolean {
  const binding = new RegExp(`=\\s*${escapeRegExp(container)}\\s*[.:]\\s*${escapeRegExp(name)}\\s*(?:$|[;,-])`);
  return fileDefs.some(
    (d) =>
      d.name === name &&
      d.container === null &&
      d.kind === 'variable' &&
      binding.test(Buffer.from(bytes.subarray(d.start, lineEndAt(bytes, starts, d.startLine))).toString('utf8')),
  );
}

/** A Ruby heredoc opener before a call: `<<~SQL.`, `<<-MSG.`, `<<EOS.` (a quoted one has no word before its dot). */
const RUBY_HEREDOC_RECEIVER = /(<<[-~]?[A-Za-z_]\w*)(\s*\.\s*)$/;

/**
 * The text before an occurrence with its language's member separators spelled as
 * memberSite reads them: PHP's static property `self::$b` as `self::b`, Lua's method call
 * `self:b(` as `self.b(` (it read `obj:b` as a bare `b`: `refs LanguageTree::parse` kept
 * the C parser's `parser:parse` as resolved and dropped `self.tree:parse()`, an agent trial
 * on the Neovim runtime), and Ruby's heredoc opener `<<~MSG.squish` as no qualifier
 * (its MSG read as a constant dropped all five `<<-MSG.squish` calls from `refs
 * String::squish`, an agent trial on ActiveSupport).
 */
function memberQualifierText(lang: string, before: string): string {
  if (lang === 'php') return before.replace(/::\s*\$$/, '::');
  if (lang === 'luau') return before.replace(/(^|[^:]):\s*$/, '$1.');
  // A Ruby heredoc's opener is a string's, not a constant's: `<<~MSG.squish` as `<<~MSG).squish`.
  if (lang === 'ruby') return before.replace(RUBY_HEREDOC_RECEIVER, '$1)$2');
  // Go: `p.Header.Get(` calls Get on the field Header, whose type decides, not on a type
  // named Header: the chain reads as a call on an expression. An agent trial read mime/
  // multipart's `p.Header.Get` (a textproto.MIMEHeader) as http.Header's, resolved, and
  // dropped textproto's `r.R.ReadLine()` from bufio's `refs Reader::ReadLine`.
  if (lang === 'go') return before.replace(GO_FIELD_CHAIN, ').');
  return before;
}

/** A Go selector chain's last field before a name: `.Header.` of `p.Header.Get(`. */
const GO_FIELD_CHAIN = /\.\s*[A-Za-z_]\w*\s*\.\s*$/;

/**
 * A Ruby receiver that is a constant path, the module or class a call names (`Inflector.`,
 * `ActiveSupport::Inflector.`, `Foo::`): its last segment; undefined for any other receiver.
 * Read through memberQualifierText, so a heredoc's opener (`<<~MSG.squish` calls squish on
 * a string, not on a constant MSG) is none.
 */
const RUBY_CONSTANT_RECEIVER = /(?<![\w@$:])(?:::)?(?:[A-Z]\w*::)*([A-Z]\w*)\s*(?:\.|::)\s*$/;

function rubyConstantReceiver(before: string): string | undefined {
  return RUBY_CONSTANT_RECEIVER.exec(memberQualifierText('ruby', before))?.[1];
}

/**
 * Where a Ruby call on a constant (`ActiveSupport::Inflector.constantize(x)`) leads among
 * `defs`: the method of the module or class it names, whatever the file's own definitions
 * or required files hold (`refs constantize` gave six `Inflector.constantize` calls to
 * Dependencies', String's or ZeitwerkIntegration's constantize as resolved, an agent trial
 * on ActiveSupport). The one definition owned by that module resolves (or the one of them
 * the file's requires lead to); several (a method
 * defined twice under an `if`) or none (one it inherits or extends) make a candidate; a
 * constant the index never defines (`File.join`, `JSON.parse`) is a library's: unresolved.
 * A constant holding a value (`Reference = ClassCache.new`) says nothing: undefined.
 */
function rubyConstantSite(
  reader: IndexReader,
  receiver: string,
  defs: readonly IndexedDefinition[],
  locator: (d: IndexedDefinition) => string,
  current: SiteResolution,
): SiteResolution | undefined {
  const owned = defs.filter((d) => d.container === receiver && d.file.lang === 'ruby');
  // What the file's requires already lead to, when it is that module's (a reopened class's
  // home, `Shop::Cart` through `require_relative "shop/cart"`), stays.
  if (current.definition !== undefined && owned.some((d) => locator(d) === current.definition)) return current;
  if (owned.length === 1) return { resolution: 'resolved', definition: locator(owned[0]) };
  if (owned.length > 1) return { resolution: 'candidate' };
  const named = reader.definitions(receiver).filter((d) => d.file.lang === 'ruby');
  if (named.some((d) => OWNER_KINDS.has(d.kind))) return { resolution: 'candidate' };
  return named.length === 0 ? { resolution: 'unresolved' } : undefined;
}

/** The byte where 1-based `line` ends (before its newline). */
function lineEndAt(bytes: Uint8Array, starts: readonly number[], line: number): number {
  return line < starts.length ? starts[line] - 1 : bytes.length;
}

/** A line's display text, leading indentation dropped. */
/**
 * A site's line, indentation dropped; a long one cut around the first spelling of `name`
 * as a search's evidence is (rxjs' minified bundles held the name 511 characters into the
 * line, and the row's first 160 never showed it: an agent trial).
 */
function lineText(bytes: Uint8Array, starts: readonly number[], line: number, name: string): string {
  let end = lineEndAt(bytes, starts, line);
  if (end > starts[line - 1] && bytes[end - 1] === 0x0d) end--;
  const text = displayText(bytes.subarray(starts[line - 1], Math.max(starts[line - 1], end))).text.trimStart();
  return text.length <= NAV_TEXT_MAX_CHARS ? text : cutSnippet(text, [name.toLowerCase()]);
}

/** How long `referenceSites` reads files, and its clock (values, so a test can pass its own). */
export interface RefsBounds {
  readonly deadlineMs: number;
  readonly now: () => number;
  /** Asked after each file read: true stops the reading there (the outcome is truncated). */
  readonly enough?: (sites: readonly RefSite[]) => boolean;
}

/**
 * Sites of `name` under another name in the files that import it renamed (`import {
 * refCount as higherOrderRefCount }`, Python's `import x as y`, Rust's `use a::b as c`):
 * every use of the local name there, resolved as its import is. The import itself is
 * already a site of `name`. rxjs: `refs refCount` listed that import and none of the
 * calls it binds (an agent trial).
 */
function renamedImportSites(
  t: NavTarget,
  name: string,
  eligible: (f: IndexedFile) => boolean,
  follow: (imp: IndexedImport) => SiteResolution,
): { readonly sites: RefSite[]; readonly stale: number } {
  const byFile = new Map<number, IndexedImport[]>();
  for (const imp of t.reader.importsOf(name)) {
    if (imp.name !== name || imp.alias === null || imp.alias === name || imp.reexport || !eligible(imp.file)) continue;
    byFile.set(imp.file.id, [...(byFile.get(imp.file.id) ?? []), imp]);
  }
  const sites: RefSite[] = [];
  let stale = 0;
  for (const imports of byFile.values()) {
    const file = imports[0].file;
    const bytes = readIndexedBytes(t.root, file);
    if (!bytes) {
      stale++;
      continue;
    }
    const starts = lineStartOffsets(bytes);
    const fileDefs = t.reader.fileDefinitions(file.path);
    const enclosingDefs = enclosingDefinitions(fileDefs);
    const enclosing = new Set(enclosingDefs);
    for (const imp of imports) {
      const through = follow(imp);
      const site: SiteResolution =
        file.parse === 'partial' && through.resolution === 'resolved'
          ? { ...through, resolution: 'candidate' }
          : through;
      for (const o of extractOccurrences(file.lang, bytes, imp.alias!)) {
        if (o.role === 'import' || o.role === 'declaration') continue;
        const holder = enclosingDef(fileDefs, o.start);
        const shownIn = holder && enclosing.has(holder) ? holder : enclosingDef(enclosingDefs, o.start);
        sites.push({
          target: t,
          file,
          start: o.start,
          end: o.end,
          line: o.line,
          role: o.role,
          ...site,
          ...(shownIn ? { within: qualifiedName(shownIn) } : {}),
          text: lineText(bytes, starts, o.line, o.name),
          repeats: 1,
        });
      }
    }
  }
  return { sites, stale };
}

/**
 * The functions in which a file binds the name as a local (a parameter, a variable): the
 * innermost callable definition around each `local` occurrence. Scopes are functions only:
 * a block-scoped `let` shadows its whole function here, which errs toward fewer sites.
 */
function localScopes(occurrences: readonly Occurrence[], fileDefs: readonly IndexedDefinition[]): IndexedDefinition[] {
  const scopes: IndexedDefinition[] = [];
  for (const o of occurrences) {
    if (o.role !== 'local') continue;
    let inner: IndexedDefinition | undefined;
    for (const d of fileDefs)
      if (isCallableKind(d.kind) && d.start <= o.start && o.start < d.end && (!inner || d.start >= inner.start))
        inner = d;
    if (inner && !scopes.includes(inner)) scopes.push(inner);
  }
  return scopes;
}

/** Whether `name` is what `lang` calls the constructor of a class `container`. */
function isConstructorName(lang: string, name: string, container: string): boolean {
  switch (lang) {
    case 'php':
      return name === '__construct';
    case 'javascript':
    case 'typescript':
    case 'tsx':
      return name === 'constructor';
    case 'python':
      return name === '__init__';
    case 'java':
    case 'csharp':
    case 'cpp':
      return name === container;
    default:
      return false;
  }
}

/**
 * `refs A::__construct` (`A::constructor`, `A::__init__`, Java's `A::A`): the calls that
 * construct an A (`new A(...)`, Python's `A(...)`), read as `refs A`'s call sites of A's
 * language family, each resolved to the constructor where it resolves to the class. Empty
 * when `name` is no constructor of a class A. An agent trial on Symfony: `refs
 * Cookie::__construct` listed none of the `new Cookie(...)` that `refs Cookie` finds.
 */
function constructionSites(
  targets: readonly NavTarget[],
  q: ParsedQuery,
  name: string,
  container: string,
  bounds: RefsBounds,
): { sites: RefSite[]; truncated: boolean } {
  const constructors = constructorsOf(targets, name, container);
  if (constructors.length === 0) return { sites: [], truncated: false };
  const families = new Set(constructors.map(({ ctor }) => codeFamilyOf(ctor.file.lang)));
  const constructorAt = new Map<string, string>();
  for (const { t, ctor, type } of constructors) {
    const locator = locatorIn(t, new Map());
    if (type) constructorAt.set(locator(type), locator(ctor));
  }
  const made = referenceSites(targets, { ...q, text: container }, bounds);
  const sites = made.sites
    .filter((s) => s.role === 'call' && families.has(codeFamilyOf(s.file.lang)))
    .map((s) => {
      const ctor = s.definition === undefined ? undefined : constructorAt.get(s.definition);
      return ctor === undefined ? s : { ...s, definition: ctor };
    });
  return { sites: [...sites, ...constructors.flatMap(selfConstructions)], truncated: made.truncated };
}

/** A constructor of `container`, and the class definition holding it (when the index has it). */
interface Constructor {
  readonly t: NavTarget;
  readonly ctor: IndexedDefinition;
  readonly type: IndexedDefinition | undefined;
}

/** The definitions of `container::name` that are constructors of a class `container`, each with its class. */
function constructorsOf(targets: readonly NavTarget[], name: string, container: string): Constructor[] {
  return targets.flatMap((t) =>
    t.reader
      .definitions(name, { container })
      .filter((ctor) => isConstructorName(ctor.file.lang, name, container))
      .map((ctor) => ({
        t,
        ctor,
        type: t.reader
          .definitions(container)
          .find(
            (d) => OWNER_KINDS.has(d.kind) && d.file.id === ctor.file.id && d.start <= ctor.start && ctor.end <= d.end,
          ),
      })),
  );
}

/** PHP's `new self(...)` and `new static(...)`: constructions of the class they are written in. */
const NEW_SELF = /\bnew\s+(?:self|static)\s*\(/g;

/**
 * The `new self(...)`/`new static(...)` inside a PHP class whose constructor is `ctor`, as
 * resolved calls of it (Symfony's `Cookie::create` returns `new self($name, ...)`).
 */
function selfConstructions({ t, ctor, type }: Constructor): RefSite[] {
  if (ctor.file.lang !== 'php' || !type) return [];
  const bytes = readIndexedBytes(t.root, type.file);
  if (!bytes) return [];
  const locator = locatorIn(t, new Map());
  const starts = lineStartOffsets(bytes);
  const fileDefs = enclosingDefinitions(t.reader.fileDefinitions(type.file.path));
  const text = Buffer.from(bytes.subarray(type.start, type.end)).toString('latin1');
  return [...text.matchAll(NEW_SELF)].map((m) => {
    const start = type.start + (m.index ?? 0);
    const line = lineAt(starts, start);
    const holder = enclosingDef(fileDefs, start);
    return {
      target: t,
      file: type.file,
      start,
      end: start + m[0].length,
      line,
      role: 'call',
      resolution: type.file.parse === 'partial' ? 'candidate' : 'resolved',
      definition: locator(ctor),
      ...(holder ? { within: qualifiedName(holder) } : {}),
      text: lineText(bytes, starts, line, 'new'),
      repeats: 1,
    };
  });
}

const DEFAULT_REFS_BOUNDS: RefsBounds = { deadlineMs: REFS_DEADLINE_MS, now: Date.now };

/**
 * Every site of the name, file by file: code files first, then build output and tests
 * (the order rows print in), each in path order. A name used in hundreds of files (a
 * kernel's `kfree`) is cut at `bounds.deadlineMs`: every file is parsed for its sites,
 * and an answer must not take minutes; the outcome counts the files left unread.
 */
export function referenceSites(
  targets: readonly NavTarget[],
  asked: ParsedQuery,
  bounds: RefsBounds = DEFAULT_REFS_BOUNDS,
): RefsOutcome {
  // `refs QuerySet.filter` is `refs QuerySet::filter` where nothing is named with the dots.
  const q = dottedAsOwned(
    targets.map((t) => t.reader),
    asked,
    { moduleMembers: false },
  );
  const parts = q.text.split('::');
  const name = parts[parts.length - 1];
  const container = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const raw: RefSite[] = [];
  let read = 0;
  let truncated = false;
  let stale = 0;
  let unread = 0;
  const started = bounds.now();
  const kinds = definitionKinds(q);
  let otherKinds = 0;
  for (const t of targets) {
    const fromTarget = raw.length;
    const ok = fileFilter(t.reader, q);
    const defs = t.reader.definitions(name, container === undefined ? {} : { container });
    const locator = locatorIn(t, new Map());
    const memo = new Map<IndexedImport, SiteResolution>();
    const trails = importTrailMemo();
    const follow = (imp: IndexedImport) => throughImport(t.reader, imp, name, defs, locator, memo, trails);
    // Qualified occurrences, memoised per file and qualifier: a Rust module path (resolve.ts
    // rustPathTrail), `Q.name` through a module Q binds (moduleMemberTrail).
    const qualifiedMemo = new Map<string, SiteResolution | undefined>();
    const qualified = (key: string, trail: () => ImportTrail | undefined): SiteResolution | undefined => {
      if (!qualifiedMemo.has(key)) qualifiedMemo.set(key, trailSite(trail(), defs, locator));
      return qualifiedMemo.get(key);
    };
    const rustPath = (
      file: IndexedFile,
      imports: readonly IndexedImport[],
      before: string,
      at: { start: number; end: number; line: number },
    ): SiteResolution | undefined => {
      const segments = file.lang === 'rust' ? pathQualifier(before) : undefined;
      return segments === undefined
        ? undefined
        : qualified(`rust\0${file.id}\0${segments.join('::')}`, () =>
            rustPathTrail(t.reader, file, imports, segments, name, at),
          );
    };
    const moduleMember = (file: IndexedFile, imports: readonly IndexedImport[], before: string) => {
      const qualifier = dotQualifier(before);
      if (qualifier !== undefined)
        return qualified(`module\0${file.id}\0${qualifier}`, () =>
          moduleMemberTrail(t.reader, file, imports, qualifier, name),
        );
      // `vim.lsp.util.f()`: a Lua module reached through its global table chain.
      const modulePath = file.lang === 'luau' ? luaModulePath(before) : undefined;
      return modulePath === undefined
        ? undefined
        : qualified(`luapath\0${file.id}\0${modulePath}`, () => luaModulePathTrail(t.reader, file, modulePath, name));
    };
    // `mod::Type::name` for `refs Type::name`: the definitions among `defs` in the files that
    // define the Type the module path names; undefined when the path names none it finds.
    const typeMembers = (
      file: IndexedFile,
      imports: readonly IndexedImport[],
      before: string,
      at: { start: number; end: number; line: number },
    ): IndexedDefinition[] | undefined => {
      const segments = file.lang === 'rust' ? pathQualifier(before) : undefined;
      if (segments === undefined || segments.length < 2 || segments[segments.length - 1] !== container)
        return undefined;
      const types = rustPathTrail(t.reader, file, imports, segments.slice(0, -1), container!, at)?.definitions ?? [];
      if (types.length === 0) return undefined;
      const typeFiles = new Set(types.map((d) => d.file.id));
      return defs.filter((d) => typeFiles.has(d.file.id));
    };
    // Code of another language family names none of `defs` (codeFamilyOf): never a site of
    // `A::b`, and an unresolved one of a bare name.
    const families = new Set(defs.map((d) => codeFamilyOf(d.file.lang)));
    const foreign = (f: IndexedFile) => families.size > 0 && !families.has(codeFamilyOf(f.lang));
    // Whether every definition asked for is a function or method (the rules below that keep
    // only calls ask it of each occurrence; `defs` does not change).
    const callableOnly = defs.length > 0 && defs.every((d) => isCallableKind(d.kind));
    // `parent::b` read once per class of a file (a file's 30 `parent::__construct` calls walk one chain).
    const parents = new Map<string, ParentRelation>();
    // What a declared type makes of a site (declaredSite), per type: the same for every site.
    const declaredVerdicts = new Map<string, Resolution | 'not_a_site' | undefined>();
    let definers: ReadonlySet<string> | undefined;
    let definerKeys: ReadonlyMap<string, readonly string[]> | undefined;
    let goFieldNamed: boolean | undefined;
    const eligible = (f: IndexedFile) => ok(f) && !(container !== undefined && foreign(f));
    const rows = useRowsOf(t.reader, name).filter((u) => eligible(u.file));
    // Files whose rows may lack the name (over the fact limit, a failed parse) are read for it too.
    const hidden = unindexedMentions(t.reader, t.root, name, eligible, new Set(rows.map((u) => u.file.id)));
    if (hidden.unread > 0) {
      truncated = true;
      unread += hidden.unread;
    }
    const uses = [...rows, ...hidden.mentions].sort(
      (a, b) => fileStanding(a.file) - fileStanding(b.file) || (a.file.path < b.file.path ? -1 : 1),
    );
    for (const [i, use] of uses.entries()) {
      // At least one file is read, so a page is never empty for want of time.
      if (
        read >= REFS_MAX_FILES ||
        raw.length >= REFS_MAX_SITES ||
        (read > 0 && bounds.now() - started > bounds.deadlineMs) ||
        bounds.enough?.(raw) === true
      ) {
        truncated = true;
        unread += uses.length - i;
        break;
      }
      const bytes = readIndexedBytes(t.root, use.file);
      if (!bytes) {
        stale++;
        continue;
      }
      read++;
      const fileImports = t.reader.fileImports(use.file.path);
      const resolved = resolveIn(t.reader, use.file, fileImports, name, defs, locator, follow, trails);
      // How a bare occurrence resolves when the file's own definition of the name is a member,
      // and whether a Lua file binds the name to `container`'s (each once per file, when needed).
      let bare: SiteResolution | undefined;
      let qualified: SiteResolution | undefined;
      let luaAlias: boolean | undefined;
      // Facts recovered from a file that did not parse cleanly never make a site certain,
      // except in C and C++, where the uncertainty is where the grammar failed, not the
      // whole file: an occurrence outside the unread parts, resolved through an `#include`
      // (preprocessor lines, read whole wherever the code around them errs: redis's
      // server.c, an agent trial) or to a definition of its own file that parsed whole, is
      // certain (a quarter of the kernel's files parse partially; `refs _kstrtoull` gave
      // `call candidate` for a call of the one definition beside it, the C trial). Other
      // languages keep the whole file uncertain: an import lost in an unread part could
      // change what any name means.
      const cFamily = use.file.lang === 'c' || use.file.lang === 'cpp';
      const ownTarget =
        resolved.definition === undefined
          ? undefined
          : defs.find((d) => d.file.id === use.file.id && locator(d) === resolved.definition);
      const uncertainAt = (o: Occurrence): boolean =>
        use.file.parse === 'partial' &&
        (!cFamily || o.inError === true || (ownTarget !== undefined && !isCertain(t.reader, ownTarget)));
      const resolutionAt = (o: Occurrence): Resolution =>
        resolved.resolution === 'resolved' && uncertainAt(o) ? 'candidate' : resolved.resolution;
      const definition = resolved.definition;
      const starts = lineStartOffsets(bytes);
      const fileDefs = t.reader.fileDefinitions(use.file.path);
      const enclosingDefs = enclosingDefinitions(fileDefs);
      const enclosing = new Set(enclosingDefs);
      const occurrences = extractOccurrences(use.file.lang, bytes, name);
      const shadowed = localScopes(occurrences, fileDefs);
      for (const o of occurrences) {
        const resolution = resolutionAt(o);
        // A site a rule below makes certain stays a candidate where the file is uncertain.
        const partialCapped = (s: SiteResolution): SiteResolution =>
          uncertainAt(o) && s.resolution === 'resolved' ? { ...s, resolution: 'candidate' } : s;
        const own =
          o.role === 'declaration' ? defs.find((d) => d.file.id === use.file.id && d.nameStart === o.start) : undefined;
        // An import names where its own name comes from, whatever the file's other uses
        // resolve to (`from urllib3 import SSLError as _SSLError` beside `from .exceptions import SSLError`).
        const imported = o.role === 'import' ? importAt(fileImports, o.start, name, follow) : undefined;
        let site: SiteResolution = own
          ? { resolution: isCertain(t.reader, own) ? ('resolved' as const) : resolution, definition: locator(own) }
          : (imported ?? { resolution, ...(definition ? { definition } : {}) });
        const holder = enclosingDef(fileDefs, o.start);
        // The line's text before the occurrence, read once and only when a rule asks for it.
        let beforeText: string | undefined;
        const before = () =>
          (beforeText ??= Buffer.from(
            bytes.subarray(Math.max(starts[o.line - 1], o.start - NAV_TEXT_MAX_CHARS), o.start),
          ).toString('utf8'));
        // Lua: `table.sort`, `os.execute` are the standard library's (LUA_LIBRARY_TABLES).
        if (use.file.lang === 'luau' && !own && !imported) {
          const library = dotQualifier(before());
          if (library !== undefined && LUA_LIBRARY_TABLES.has(library) && !defs.some((d) => d.container === library)) {
            if (container !== undefined) continue;
            site = { resolution: 'unresolved' };
          }
        }
        // Go: `pkg.Name` through the import binding pkg, a bare `Name` in its own package (go-packages.ts).
        // It decides before the file's own definitions: `dec.Decode` in a file with a method Decode is dec's.
        if (use.file.lang === 'go' && container === undefined && !own && !imported) {
          const go = goPackageSite(t.reader, use.file, fileImports, before(), defs);
          if (go?.kind === 'definition')
            site = partialCapped({ resolution: 'resolved', definition: locator(go.definition) });
          else if (go?.kind === 'elsewhere') site = { resolution: 'unresolved' };
          else {
            const member = goReceiverMember(bytes, holder, dotQualifier(before()), defs, use.file);
            if (member) site = partialCapped({ resolution: 'resolved', definition: locator(member) });
            else if (o.role === 'call' && calledField(site, defs, locator)) site = { resolution: 'candidate' };
            else if (/\.\s*$/.test(before()) && resolvedTarget(site, defs, locator)?.container != null)
              // A value's member (`r.R.ReadLine()`): its type decides, and the index does not
              // know it, so the file's own member is a guess; textproto's own ReadLine had
              // been this bufio call's, resolved (an agent trial).
              site = { resolution: 'candidate', definition: site.definition };
          }
        }
        // A qualified name is its qualifier's, whatever the file's other uses resolve to: a Rust
        // module path (`context::budget` names its module's definition, not the file's own), or
        // in JavaScript and TypeScript `Q.name` where Q binds a whole module (resolve.ts). Each
        // rule answers only in its own languages.
        // C++ `ns::name` or `Type::name`: the definition owned by what the path's last
        // segment names, when one is (abseil's `cord_internal::kMaxInline` was `InlineRep`'s
        // `kMaxInline`, resolved, in `refs kMaxInline`; an abseil trial).
        const cppOwned =
          cFamily && container === undefined && !own && !imported ? cppQualifiedSite(before(), defs) : undefined;
        if (cppOwned)
          site = partialCapped({
            resolution: cppOwned.length === 1 ? 'resolved' : 'candidate',
            definition: locator(cppOwned[0]),
          });
        else if (container === undefined && !own && !imported) {
          const via = rustPath(use.file, fileImports, before(), o) ?? moduleMember(use.file, fileImports, before());
          if (via) site = partialCapped(via);
          // No rule read the qualifier: through one (`werkzeug.utils.send_file(`, `obj.send(`)
          // a name is never its own file's top-level function where a function is reached
          // bare or through its module. Flask's `send_file` calling werkzeug's was a resolved
          // call of itself (a workspace trial): the recursion was not there.
          else if (
            QUALIFIED_BEFORE.test(before()) &&
            qualifierSkipsOwnFunction(use.file.lang, dotQualifier(before())) &&
            site.definition !== undefined &&
            defs.some((d) => d.container === null && d.file.id === use.file.id && locator(d) === site.definition)
          ) {
            qualified ??= resolveIn(
              t.reader,
              use.file,
              fileImports,
              name,
              defs.filter((d) => !(d.container === null && d.file.id === use.file.id)),
              locator,
              follow,
              trails,
            );
            site = partialCapped(qualified);
          }
        }
        // Ruby: a call on a constant is the method of the module or class it names (rubyConstantSite).
        if (use.file.lang === 'ruby' && container === undefined && !own && !imported) {
          const receiver = rubyConstantReceiver(before());
          const via = receiver === undefined ? undefined : rubyConstantSite(t.reader, receiver, defs, locator, site);
          if (via) site = partialCapped(via);
        }
        // A bare name never means a member where members are reached only through a receiver
        // (`self.`, `this.`, a value, Lua's `t:m`): rich's `cell_len(self.plain)` inside
        // `Text.cell_len` calls the `cell_len` text.py imports from cells.py, not the property,
        // and Lua's built-in `error(msg)` is not Penlight's `lapp.error` (agent trials).
        if (
          RECEIVER_ONLY_MEMBERS.has(use.file.lang) &&
          container === undefined &&
          !own &&
          !imported &&
          !(use.file.lang === 'luau' ? LUA_QUALIFIED_BEFORE : QUALIFIED_BEFORE).test(before()) &&
          (site.definition === undefined
            ? site.resolution === 'candidate' && defs.some((d) => d.container !== null)
            : defs.some((d) => d.container !== null && locator(d) === site.definition))
        ) {
          bare ??= resolveIn(
            t.reader,
            use.file,
            fileImports,
            name,
            defs.filter((d) => d.container === null),
            locator,
            follow,
            trails,
          );
          site = partialCapped(bare);
        }
        // PHP: `$name` is a variable (a parameter, a local), never the property, method or
        // function of that name (`setAutoExit(bool $autoExit)` was a resolved site of the
        // property `$autoExit`, an agent trial on Symfony Console); `self::$name` is a static property.
        // With an owner asked for (`refs Cookie::sameSite`), such a variable is no site at all:
        // 12 of the property's 17 rows were `$sameSite` parameters and their uses (the same trial).
        if (use.file.lang === 'php' && !own && !imported && /(?<!::)\$$/.test(before())) {
          if (container !== undefined) continue;
          site = { resolution: 'unresolved' };
        }
        // Rust: `x.name(...)` calls a method, never a free function; the file's own
        // `fn name` (a test named after what it tests) is not what it calls.
        if (
          use.file.lang === 'rust' &&
          !own &&
          !imported &&
          site.definition !== undefined &&
          /\.\s*$/.test(before()) &&
          defs.some((d) => d.container === null && d.file.id === use.file.id && locator(d) === site.definition)
        ) {
          const methods = defs.filter((d) => d.container !== null);
          site = { resolution: 'candidate', ...(methods.length === 1 ? { definition: locator(methods[0]) } : {}) };
        }
        // `form.full_clean()` through a receiver that is not the own object: its type decides,
        // so the file's own method of the name is a guess. Django's `form = ManagementForm(...);
        // form.full_clean()` inside BaseFormSet was BaseFormSet's full_clean, resolved (a
        // Django trial). Go's receivers are read above, Lua's `t:m` is no `.`.
        if (
          container === undefined &&
          !own &&
          !imported &&
          use.file.lang !== 'go' &&
          site.resolution === 'resolved' &&
          /\.\s*$/.test(before())
        ) {
          const target = resolvedTarget(site, defs, locator);
          const receiver = dotQualifier(before());
          if (
            target?.container != null &&
            target.file.id === use.file.id &&
            !(receiver !== undefined && namesOwnObject(receiver, target.container))
          )
            site = { resolution: 'candidate', definition: site.definition };
        }
        // A key of a struct literal (`pool::Config { idle_timeout: x }`, Go's `Config{Timeout: x}`)
        // is the field of the type the literal names (struct-literals.ts).
        const keyType =
          !own && !imported && o.role !== 'declaration'
            ? literalKeyType(bytes, o.start, o.end, use.file.lang)
            : undefined;
        if (keyType !== undefined) {
          if (container !== undefined && keyType !== lastSegment(container)) continue;
          const fields = defs.filter((d) => d.container !== null && lastSegment(d.container) === keyType);
          if (fields.length === 1) site = partialCapped({ resolution: 'resolved', definition: locator(fields[0]) });
          else if (fields.length > 1) site = { resolution: 'candidate' };
        }
        // `refs A::b`: an occurrence of b is a site of A::b by what qualifies it, not by the
        // file it is in; another type's declaration of b is none.
        if (container !== undefined && !own && !imported && keyType === undefined) {
          if (o.role === 'declaration') continue;
          // A segment of an imported module's path (`from fastapi.openapi.models import
          // OAuth2`) is no site of a member: 11 such rows were candidates of
          // `refs FastAPI::openapi` (a Python trial).
          if (o.role === 'import') continue;
          // Java and PHP read a method only by calling it (`x.hash()`, a method reference
          // `A::hash`): `e.hash` is a field. `refs HashMap::hash` had 104 candidates, most
          // of them `first.hash == hash` reads of Node's field (an agent trial on the JDK).
          if (CALLED_ONLY.has(use.file.lang) && o.role !== 'call' && callableOnly && !/::\s*$/.test(before())) continue;
          // A type position never names a function or method: `zapcore.Level` in parameter
          // lists made 93 of `refs AtomicLevel::Level`'s 100 sites candidates (an agent trial on zap).
          if (o.role === 'type' && callableOnly) continue;
          // Where a member is reached only through a receiver or `Self::`, a bare name is
          // never one: zap's `payload{Level: lvl.Level()}` key inside an AtomicLevel method
          // was a candidate site of `AtomicLevel::Level`.
          // Go: a method value (`f := v.Level`) is rare and a field read common: where a type
          // has a field of the name, a read that is no call is a field's (zap's 29 `ent.Level`
          // reads were candidate sites of `AtomicLevel::Level`).
          if (
            use.file.lang === 'go' &&
            o.role !== 'call' &&
            callableOnly &&
            (goFieldNamed ??= t.reader.definitions(name).some((d) => d.kind === 'field'))
          )
            continue;
          // Go: `pkg.Name` through an import is the package's (`zapcore.Level(x)` converts to the type).
          if (use.file.lang === 'go' && goPackageImport(fileImports, before()) !== undefined) continue;
          if (
            BARE_NEVER_MEMBER.has(use.file.lang) &&
            !QUALIFIED_BEFORE.test(before()) &&
            defs.every((d) => !GLOB_IMPORTED_KINDS.has(d.kind))
          )
            continue;
          // A constructor is called, never read: `this.constructor.name` is the class's property.
          if (o.role !== 'call' && isConstructorName(use.file.lang, name, container)) continue;
          // `Q.b` where Q binds a module that holds none of A::b's definitions (`time.time()`
          // after `import time`) is that module's b, no site of A::b.
          if (moduleMember(use.file, fileImports, before())?.resolution === 'unresolved') continue;
          // `dependant.path_params`: a receiver named like another type that defines b (its
          // snake_case or lowercase spelling) is that type's value, no site of A::b: 7 of
          // `refs HTTPConnection::path_params`'s rows were `dependant.path_params` reads of
          // `Dependant`'s field (a Python trial).
          definers ??= new Set(t.reader.definitions(name).flatMap((d) => (d.container === null ? [] : [d.container])));
          definerKeys ??= receiverKeys(definers);
          // Java and C# bind `x.b()` to x's declared type (declared-types.ts), which the
          // receiver's name then need not guess: `map.size()` on a ConcurrentHashMap field is
          // no call of `Map::size`.
          // A receiver made by `new` has its class in every language: `(new PhpHandler)->handle()`
          // was a candidate caller of `VerifyCsrfToken::handle` (a Laravel trial).
          const declaredType =
            newReceiverType(before()) ??
            (DECLARED_TYPE_LANGS.has(use.file.lang)
              ? receiverDeclaredType(fileDefs, bytes, starts, holder, o.start, before())
              : undefined);
          let declared: Resolution | 'not_a_site' | undefined;
          if (declaredType !== undefined) {
            if (!declaredVerdicts.has(declaredType))
              declaredVerdicts.set(declaredType, declaredSite(t, declaredType, container, definers, use.file.lang));
            declared = declaredVerdicts.get(declaredType);
          }
          if (declared === 'not_a_site') continue;
          const named = declared === undefined ? receiverNamedType(before(), definerKeys) : undefined;
          if (named !== undefined && named !== lastSegment(container)) continue;
          const qualifiedMember = memberSite(
            memberQualifierText(use.file.lang, before()),
            container,
            typeHolder(fileDefs, holder),
            (type) => fileDefs.some((d) => d.name === name && d.container === type),
            use.file.lang === 'go' && holder ? goReceiverName(bytes, holder) : undefined,
            IMPLICIT_THIS.has(use.file.lang) ? { call: o.role === 'call' } : undefined,
            (type) => {
              const key = `${use.file.id}\0${type}`;
              let relation = parents.get(key);
              if (relation === undefined) {
                definers ??= new Set(
                  t.reader.definitions(name).flatMap((d) => (d.container === null ? [] : [d.container])),
                );
                relation = parentRelation(t, fileDefs, bytes, type, definers, container);
                parents.set(key, relation);
              }
              return relation;
            },
          );
          // Lua binds a module's function to a local (`local assert_arg = utils.assert_arg`)
          // and calls it bare: those calls are `utils::assert_arg`'s (Penlight's 14 files did
          // so; `refs utils::assert_arg` had found 20 of 111 sites, an agent trial).
          let member =
            qualifiedMember === 'not_a_site' &&
            use.file.lang === 'luau' &&
            !LUA_QUALIFIED_BEFORE.test(before()) &&
            (luaAlias ??= luaAliasOf(fileDefs, bytes, starts, name, container))
              ? 'resolved'
              : qualifiedMember;
          if (member === 'not_a_site') continue;
          if (declared === 'resolved') member = 'resolved';
          else if (
            member === 'candidate' &&
            DECLARED_TYPE_LANGS.has(use.file.lang) &&
            !QUALIFIED_BEFORE.test(before())
          ) {
            const inherited = inheritedBareCall(t, fileDefs, bytes, typeHolder(fileDefs, holder), definers, container);
            if (inherited === 'not_a_site') continue;
            member = inherited;
          }
          // A bare name the file imports from A (Java's `import static ...ChronoUnit.DAYS;`)
          // is A's, as the import resolved it.
          const imports =
            member === 'candidate' &&
            site.resolution === 'resolved' &&
            !QUALIFIED_BEFORE.test(before()) &&
            fileImports.some((i) => (i.alias ?? i.name) === name) &&
            defs.some((d) => locator(d) === site.definition);
          if (!imports) {
            // `scheduler::Handle::current`: the Handle of the module the path names, when it is found.
            const ofType = member === 'resolved' ? typeMembers(use.file, fileImports, before(), o) : undefined;
            // Resolved: to that Type's one definition when the path names it, else the one of
            // `defs` nearest the site (dirs.ts): the first by path had been
            // `build/legacy/removable.js`'s copy of query-core's `Removable::scheduleGc` for
            // the calls in `src/`, so `ctx` of the source's method found none of its callers.
            const target =
              member !== 'resolved'
                ? undefined
                : ofType === undefined
                  ? nearestDefinition(defs, use.file)
                  : ofType.length === 1
                    ? ofType[0]
                    : undefined;
            site = target
              ? partialCapped({ resolution: 'resolved', definition: locator(target) })
              : {
                  resolution: 'candidate',
                  ...(member !== 'resolved' && defs.length === 1 ? { definition: locator(defs[0]) } : {}),
                };
          }
        }
        // A local of the name (a parameter, a `let` in a function) is another variable: its
        // bare uses there are none of the definition's (rxjs' share.ts `let refCount = 0`
        // and its 4 uses were candidates of the refCount operator, an agent trial), and none
        // of a member's at all when an owner is asked for (`refs A::b`).
        if (
          !own &&
          !imported &&
          shadowed.some((d) => d.start <= o.start && o.start < d.end) &&
          !QUALIFIED_BEFORE.test(before())
        ) {
          if (container !== undefined) continue;
          site = { resolution: 'unresolved' };
        }
        if (!own && foreign(use.file)) site = { resolution: 'unresolved' };
        // A keyword argument (`sorted(xs, reverse=True)`) names a parameter of the callee,
        // never a function or method of the name: `refs reverse` had listed such rows as
        // candidates of a class's `reverse` (a Twisted trial).
        if (
          use.file.lang === 'python' &&
          o.role === 'member' &&
          callableOnly &&
          keywordArgumentAt(bytes, o.start, o.end)
        )
          continue;
        // A Ruby symbol names a method as often as data does (`delegate :where`, `send(:where)`
        // beside `Set.new([:where, …])`, `key != :where`): a candidate at most, never certain
        // (8 of `refs QueryMethods::where`'s rows were resolved data, a Rails trial).
        if (site.resolution === 'resolved' && !own && rubySymbolAt(use.file.lang, bytes, o.start))
          site = { ...site, resolution: 'candidate' };
        const shownIn = holder && enclosing.has(holder) ? holder : enclosingDef(enclosingDefs, o.start);
        const within = shownIn ? qualifiedName(shownIn) : undefined;
        raw.push({
          target: t,
          file: use.file,
          start: o.start,
          end: o.end,
          line: o.line,
          role: o.role,
          ...site,
          ...(within ? { within } : {}),
          text: lineText(bytes, starts, o.line, o.name),
          repeats: 1,
        });
      }
    }
    if (container === undefined && !truncated) {
      const renamed = renamedImportSites(t, name, ok, follow);
      raw.push(...renamed.sites);
      stale += renamed.stale;
    }
    // `kind:K`: the sites of the definitions of that kind; a site another kind's definition
    // resolves (or declares) is left out and counted. `refs Connection kind:trait` had listed
    // the struct's 30 sites with the trait's and headed them with the struct (a Rust trial).
    if (kinds.length > 0) {
      const others = new Set(defs.filter((d) => !kinds.includes(d.kind)).map(locator));
      for (const d of defs) if (kinds.includes(d.kind)) others.delete(locator(d));
      const read = raw.splice(fromTarget);
      const kept = read.filter((r) => r.definition === undefined || !others.has(r.definition));
      otherKinds += read.length - kept.length;
      raw.push(...kept);
    }
  }
  if (container !== undefined && !truncated) {
    const made = constructionSites(targets, q, name, container, bounds);
    raw.push(...made.sites);
    truncated ||= made.truncated;
  }
  const declaring = new Set(raw.filter(isDeclaring).map(lineKey));
  const order = (x: RefSite) => bandOf(x, declaring);
  // Within a band of uses, the sites resolved to the definition come first, then the
  // candidates, then the unresolved: Django's 4 resolved callers of QuerySet::filter were
  // rows 91-94, after 90 candidates (an agent trial). Declarations and imports keep path
  // order, so a line's declaration and its other roles stay one row.
  const certainty = (x: RefSite) => (order(x) === 1 ? 0 : RESOLUTION_ORDER[x.resolution]);
  raw.sort(
    (a, b) =>
      order(a) - order(b) ||
      certainty(a) - certainty(b) ||
      (a.target.member ?? '').localeCompare(b.target.member ?? '') ||
      byPath(a.file, b.file) ||
      a.line - b.line ||
      // One line's occurrences of one definition stand together, so they make one row:
      // zod's `inst.parseAsync = … parse.parseAsync(…, { callee: inst.parseAsync })` had
      // printed the line's member row twice around its call row (a workspace trial).
      (a.definition ?? '').localeCompare(b.definition ?? '') ||
      a.start - b.start,
  );
  const sites: RefSite[] = [];
  // One row per line: occurrences of the name on one line that the order keeps together
  // (same band, same resolution) share its text, so it is printed once with every role.
  for (const s of raw) {
    const last = sites[sites.length - 1];
    if (
      last &&
      last.target === s.target &&
      last.file === s.file &&
      last.line === s.line &&
      order(last) === order(s) &&
      ((last.resolution === s.resolution && last.definition === s.definition) || isDeclaring(last) || isDeclaring(s))
    ) {
      const roles = last.roles ?? [last.role];
      sites[sites.length - 1] = {
        ...last,
        repeats: last.repeats + 1,
        ...(roles.includes(s.role) ? {} : { roles: [...roles, s.role] }),
      };
    } else sites.push(s);
  }
  // Files that hold a site: a file read for the name whose occurrences are all another
  // owner's (`refs A::new` reading every file that says `new`) is not counted.
  const fileCount = new Set(raw.map((r) => `${r.target.member ?? ''}\0${r.file.path}`)).size;
  return {
    sites: sites.slice(0, REFS_MAX_SITES),
    siteCount: raw.length,
    files: fileCount,
    truncated: truncated || sites.length > REFS_MAX_SITES,
    stale,
    unread,
    otherKinds,
  };
}

/**
 * Code files too large to index whose bytes hold the name of `q` (index
 * tooLargeCodeMentioning, under the query's file filters and each index's live bound):
 * like unparsedMentions, their sites are in no refs answer and their definitions in no
 * `show sym:`, which say so. `unsearched`: the ones past the bound, not read for the name,
 * which coverage names as well. Printed paths (`MEMBER/` in a workspace), in path order.
 */
export function tooLargeMentions(
  targets: readonly NavTarget[],
  q: ParsedQuery,
): { readonly mentioning: string[]; readonly unsearched: string[] } {
  const name = q.text.split('::').pop()!;
  const mentioning: string[] = [];
  const unsearched: string[] = [];
  for (const t of targets) {
    const printed = (f: IndexedFile) => `${t.member !== undefined ? `${t.member}/` : ''}${printedPath(f.path)}`;
    // The query's file filters (tooLargeLive applies them), not fileFilter: that one drops every excluded file.
    const found = tooLargeCodeMentioning(t.reader, name, q);
    mentioning.push(...found.mentioning.map(printed));
    unsearched.push(...found.unread.map(printed));
  }
  return { mentioning, unsearched };
}

/**
 * Code files of languages no extractor reads (Objective-C++, Swift, shell…) whose text
 * mentions the name of `q`: their sites are in no refs answer and their definitions in no
 * `show sym:`, which say so. Paths in path order, printed as pages print them (`MEMBER/` in a
 * workspace). Apart from referenceSites: ctx's callers need no full-text lookup.
 */
export function unparsedMentions(targets: readonly NavTarget[], q: ParsedQuery): string[] {
  const name = q.text.split('::').pop()!;
  return targets.flatMap((t) => {
    const ok = fileFilter(t.reader, q);
    return unparsedCodeMentioning(t.reader, name)
      .filter(ok)
      .map((f) => `${t.member !== undefined ? `${t.member}/` : ''}${printedPath(f.path)}`);
  });
}

/** Whether a refs site calls its name (alone or among the roles of a collapsed row). */
export function isCallSite(s: Pick<RefSite, 'role' | 'roles'>): boolean {
  return s.role === 'call' || (s.roles?.includes('call') ?? false);
}

/** Whether a refs site reads its name as a value (`f` or `x.f` not called, not declared, imported or a type). */
function isValueSite(s: Pick<RefSite, 'role' | 'roles'>): boolean {
  const roles = s.roles ?? [s.role];
  return roles.every((r) => r === 'member' || r === 'reference');
}

/** Languages whose overloads of a name differ by arity and whose calls pass every parameter. */
const ARITY_LANGS: ReadonlySet<string> = new Set(['java', 'csharp', 'cpp']);

/**
 * A test keeping the call sites that pass as many arguments as `def` takes, when its
 * parameter list is fixed (signatures.ts) and its language binds overloads by it; undefined
 * otherwise. A site whose arguments cannot be counted is kept. ctx of the JDK's
 * `Temporal::plus(TemporalAmount)` listed `temporal.plus(seconds, SECONDS)`, a call of
 * `plus(long, TemporalUnit)`, as a caller (a JDK trial).
 */
function fixedArity(t: NavTarget, def: IndexedDefinition): ((s: RefSite) => boolean) | undefined {
  if (!ARITY_LANGS.has(def.file.lang) || !(FUNCTION_KINDS.has(def.kind) || def.kind === 'prototype')) return undefined;
  const bytes = readIndexedBytes(t.root, def.file);
  const parameters = bytes && parameterCount(textAfter(bytes, def.nameEnd));
  if (parameters === undefined) return undefined;
  const files = new Map<number, Uint8Array | undefined>();
  return (s) => {
    if (!files.has(s.file.id)) files.set(s.file.id, readIndexedBytes(t.root, s.file));
    const site = files.get(s.file.id);
    const args = site ? argumentCount(textAfter(site, s.end)) : undefined;
    return args === undefined || args === parameters;
  };
}

/**
 * The call sites of one definition, as `ctx` lists its callers (a function or method passed
 * as a value too: `isCallSite` tells them apart): the calls refs finds of its
 * name (of `Owner::name` for a member), each resolved to it or a candidate for it; a call
 * refs resolves to another definition of the name is not one, nor one whose import leads
 * nowhere it can follow. Before, any call of the name was a caller: ctx of clap's
 * `error/format.rs` `did_you_mean` listed the calls of `suggestions::did_you_mean` (an
 * agent trial). Reading stops once more than `max` are found, or at `deadlineMs`.
 */
export function callSitesOf(
  t: NavTarget,
  def: IndexedDefinition,
  max: number,
  deadlineMs: number = CTX_CALLERS_DEADLINE_MS,
  now: () => number = Date.now,
): { readonly sites: RefSite[]; readonly cut: boolean } {
  const locate = locatorIn(t, new Map());
  // A C or C++ function is also its prototypes: a call resolved through `#include` lands on
  // the header's declaration the compiler sees (ctx of the kernel's `out_of_memory` listed
  // none of its 4 callers, each resolved to include/linux/oom.h's prototype; the C trial).
  const same = new Set([
    locate(def),
    ...(def.kind === 'function' && (def.file.lang === 'c' || def.file.lang === 'cpp')
      ? t.reader
          .definitions(def.name)
          .filter((d) => d.kind === 'prototype' && d.container === def.container)
          .map(locate)
      : []),
  ]);
  // A function or method passed as a value is called later by whoever receives it:
  // `time.AfterFunc(t.IdleConnTimeout, pconn.closeConnIfStillIdle)` is the site that arms
  // net/http's idle timeout, and ctx had listed only the other, direct call (an agent trial).
  const valued = isCallableKind(def.kind);
  const arity = fixedArity(t, def);
  const isCall = (s: RefSite) =>
    (isCallSite(s) || (valued && isValueSite(s))) &&
    s.resolution !== 'unresolved' &&
    (s.definition === undefined || same.has(s.definition)) &&
    (arity === undefined || arity(s));
  const name = def.container !== null ? `${def.container}::${def.name}` : def.name;
  let counted = 0;
  let resolved = 0;
  let calls = 0;
  // Certain callers first, and candidates do not stop the reading before them: Twisted's
  // `ctx` of tcp.py's `Connection::connectionLost` listed ten `protocol.connectionLost`
  // candidates of other files and none of the three resolved calls in tcp.py (a trial).
  const out = referenceSites([t], symbolQuery(name), {
    deadlineMs,
    now,
    enough: (raw) => {
      for (; counted < raw.length; counted++)
        if (isCall(raw[counted])) {
          calls++;
          if (raw[counted].resolution === 'resolved') resolved++;
        }
      return resolved > max || calls > max * CTX_CALLER_CANDIDATES_READ;
    },
  });
  const sites = out.sites
    .filter(isCall)
    .sort((a, b) => Number(a.resolution !== 'resolved') - Number(b.resolution !== 'resolved'));
  // What the list cannot show makes it incomplete, and it says so (`refs` lists every site):
  // calls no definition was found for (an import the index cannot follow), and the uses of
  // what is not called (a constant's readers). `ctx` of Django's constant_time_compare and of
  // RxJS's asyncScheduler had shown no caller and no hint of the 17 and 12 sites refs lists
  // (two agent trials).
  const unlisted = out.sites.some(
    (s) =>
      ((isCallSite(s) || (valued && isValueSite(s))) && s.resolution === 'unresolved') ||
      (!valued &&
        isValueSite(s) &&
        s.resolution !== 'unresolved' &&
        (s.definition === undefined || same.has(s.definition))),
  );
  return { sites: sites.slice(0, max), cut: out.truncated || sites.length > max || unlisted };
}
