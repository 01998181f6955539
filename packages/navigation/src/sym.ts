// What `show sym:NAME [file: lang: kind:]` reads (docs/spec/retrieval.md §6): the definitions
// of a name in order (kind tier, hand-written before tests and build output, own code
// before vendored, nearer the invocation directory first), imports followed when no
// definition carries the name, the reference count, and the body: a definition longer
// than SYM_BODY_MAX_LINES is its head and its members, the rest left to a continuation.
// The facade reads the file, saves the set and renders (workspace navigation/show-symbol.ts).
import * as path from 'node:path';
import {
  codeFamilyOf,
  declarationRank,
  definitionHomeRank,
  isCallableKind,
  OWNER_KINDS,
  kindTier,
  nearestDefinedNames,
  readIndexedBytes,
  type IndexedDefinition,
  type IndexedFile,
  type ParsedQuery,
} from '@trufflepig/index';
import { fileStanding, isVendoredPath } from '@trufflepig/rank';
import {
  countTokens,
  docCommentLine,
  isDecorationLine,
  lineStarts,
  printedPath,
  type ShownRow,
  type SourceRow,
} from '@trufflepig/render';
import { fail, ok, type Outcome } from './errors';
import {
  NEAREST_NAMES_SHOWN,
  SYM_BODY_MAX_LINES,
  SYM_DOC_COMMENT_READ_MAX_LINES,
  SYM_DOC_COMMENT_WHOLE_MAX_LINES,
  SYM_HEAD_MAX_LINES,
  SYM_OUTLINE_MEMBERS_MIN,
  SYM_READ_FRAME_TOKENS,
} from './limits';

import { fileFilter, filterWords, kindFilter } from './filter';
import { foldDocComment, foldDocstring } from './fold';
import { LUA_TABLE_KINDS, modifiersOf, SECOND_GROUP } from './map';
import { goPackageMembers } from './go-packages';
import type { NavTarget } from './target';
import { followImport, type ImportTrail } from './resolve';
import { unindexedMentions, useRowsOf } from './uses';
import { rowsOf } from './rows';
import { tooLargeMentions, unparsedMentions } from './refs';
import { tooLargeNotes, unparsedWords } from './unparsed';
import { sharedLeadingDirs } from './dirs';
import { ownedByName } from './owners';

export interface Candidate {
  readonly target: NavTarget;
  readonly def: IndexedDefinition;
}

/** Leading directories a file shares with the invocation directory. */
function sharedDirs(here: string | undefined, file: string): number {
  return here === undefined ? -1 : sharedLeadingDirs(here, path.posix.dirname(file));
}

/**
 * Kind tier, then hand-written code before tests and build output (minified files
 * included), then the repository's own code before vendored dependencies (express's
 * `res.send` before `node_modules/finalhandler`'s `send`), then a definition before a declaration (a C function before its
 * prototype in a header), then, of several languages, the one whose code uses the name
 * most, then top-level before a member (`url_for` the function before
 * `Flask::url_for`: an unqualified name is what an import names; a namespace's item is
 * top-level: `juce::String` before a class's local `using String`), then an interface's or
 * trait's method before the methods implementing it (contractRank), then nearest the
 * invocation directory, then of a reopened Ruby class or module the longest body, then a
 * file named after the definition (`libiberty/xmalloc.c`
 * before `bfd/doc/chew.c`'s own copy), then a C macro or type in a header before one local
 * to a source file (`include/elf/common.h`'s `ELF_ST_TYPE` before a `.c` file's), then
 * path, span, member.
 */
function sortCandidates(candidates: Candidate[]): Candidate[] {
  // Of several languages, the one whose code uses the name most first: Django's `show
  // sym:filter` read the admin's SelectBox.js `filter` (top-level, and its path sorts
  // first) for the `QuerySet.filter` the project's Python calls hundreds of times (an
  // agent trial). Read only when the candidates span several language families.
  const families = new Set(candidates.map((c) => codeFamilyOf(c.def.file.lang)));
  const uses = families.size > 1 ? familyUses(candidates) : undefined;
  // The contract stands first over other types' methods only: of one owner's name twice (zod's
  // v4 `interface ZodType` and v3 `class ZodType`), its signature is no contract of the
  // class, whose body comes first (`show sym:ZodType::safeParse` had read the bodiless
  // signature, a workspace trial).
  const owners = new Set(candidates.map((c) => c.def.container));
  const key = (c: Candidate): (number | string)[] => [
    kindTier(c.def.kind),
    fileStanding(c.def.file),
    isVendoredPath(c.def.file.path) ? 1 : 0,
    declarationRank(c.def.kind, c.def.file.path),
    -(uses?.get(codeFamilyOf(c.def.file.lang)) ?? 0),
    memberRank(c),
    owners.size > 1 ? contractRank(c) : 1 - contractRank(c),
    -sharedDirs(c.target.here, c.def.file.path),
    -openedLines(c.def),
    definitionHomeRank(c.def.name, c.def.kind, c.def.file.path),
    c.def.file.path,
    c.def.start,
    c.target.member ?? '',
  ];
  const keyed = candidates.map((c) => ({ c, k: key(c) }));
  keyed.sort(({ k: a }, { k: b }) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  });
  const sorted = keyed.map((x) => x.c);
  // Among the leaders (equal up to the member rank), Rust's public item before a crate's
  // or a module's own: tokio's `pub struct JoinHandle` in task/join.rs before the
  // `pub(crate)` stub of blocking.rs (an agent trial). Read for the leaders only.
  const leaders = keyed.findIndex((x) => x.k.slice(0, 6).some((v, i) => v !== keyed[0].k[i]));
  const head = sorted.slice(0, leaders < 0 ? sorted.length : leaders);
  if (
    head.length < 2 ||
    head.length > VISIBILITY_READ_MAX ||
    !head.some((c) => c.def.file.lang === 'rust' || c.def.file.lang === 'go')
  )
    return sorted;
  // Then a Go item before another package's re-export of it (goReexportRank).
  const rank = new Map(head.map((c) => [c, [goReexportRank(c), rustVisibilityRank(c)]]));
  const byRank = (a: Candidate, b: Candidate) => {
    const [x, y] = [rank.get(a)!, rank.get(b)!];
    return x[0] - y[0] || x[1] - y[1];
  };
  return [...[...head].sort(byRank), ...sorted.slice(head.length)];
}

/**
 * 1 for a Go constant or variable that re-exports another package's item of its name
 * (zap's `FatalLevel = zapcore.FatalLevel`), else 0: the item itself is the definition
 * (an agent trial following `_maxLevel = FatalLevel` inside zapcore read the root's
 * re-export, path order).
 */
function goReexportRank(c: Candidate): number {
  if (c.def.file.lang !== 'go' || (c.def.kind !== 'constant' && c.def.kind !== 'variable')) return 0;
  const bytes = readIndexedBytes(c.target.root, c.def.file);
  if (!bytes) return 0;
  const text = Buffer.from(bytes.subarray(c.def.nameEnd, c.def.end)).toString('utf8');
  return /^\s*=\s*[A-Za-z_]\w*\s*\.\s*([A-Za-z_]\w*)\s*$/.exec(text)?.[1] === c.def.name ? 1 : 0;
}

/** Kinds whose methods are a contract others implement: an interface's, a trait's. */
const CONTRACT_KINDS: ReadonlySet<string> = new Set(['interface', 'trait']);

/**
 * 0 for a member of an interface or trait, 1 otherwise: of a method many types define,
 * the one declaring the contract is what the name means (zap's `show sym:MarshalLogArray`
 * read one of 31 implementations, `bools::MarshalLogArray` by path order, before
 * `ArrayMarshaler::MarshalLogArray`, an agent trial).
 */
function contractRank(c: Candidate): number {
  const owner = c.def.container;
  if (owner === null) return 1;
  return c.target.reader.fileDefinitions(c.def.file.path).some((d) => CONTRACT_KINDS.has(d.kind) && d.name === owner)
    ? 0
    : 1;
}

/**
 * A Ruby class or module is open: any file may reopen it to add methods (rake's
 * `module FileUtils` adds 9 to the standard library's 1,650 lines). The body that holds
 * most of it is its home; path order had read rake's. 0 in other languages.
 */
function openedLines(d: IndexedDefinition): number {
  return d.file.lang === 'ruby' && (d.kind === 'class' || d.kind === 'module') ? d.endLine - d.startLine : 0;
}

/** Uses of the candidates' name in each language family's code, over their indexes. */
function familyUses(candidates: readonly Candidate[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const reader of new Set(candidates.map((c) => c.target.reader)))
    for (const u of useRowsOf(reader, candidates[0].def.name)) {
      const family = codeFamilyOf(u.file.lang);
      counts.set(family, (counts.get(family) ?? 0) + u.count);
    }
  return counts;
}

/** Leading candidates whose visibility `show sym:` reads, at most (a read each). */
const VISIBILITY_READ_MAX = 16;

/** 0 for a Rust item declared `pub`, 1 for `pub(crate)`/`pub(super)`/`pub(in …)`, 2 otherwise. */
function rustVisibilityRank(c: Candidate): number {
  if (c.def.file.lang !== 'rust') return 2;
  const bytes = readIndexedBytes(c.target.root, c.def.file);
  if (!bytes) return 2;
  const head = Buffer.from(bytes.subarray(c.def.start, c.def.nameStart)).toString('utf8');
  return /\bpub\s*\(/.test(head) ? 1 : /\bpub\b/.test(head) ? 0 : 2;
}

/**
 * 0 for what a name's importer reaches, 1 for a member: a top-level definition or one of a
 * namespace its file declares (C++, C#). In Lua what a module exports is its table's
 * (`local utils = {}` … `function utils.assert_arg`), and a definition without an owner is
 * a file's `local function`: the function 16 files import stood behind lexer.lua's private
 * 3-line copy (an agent trial on Penlight).
 */
function memberRank(c: Candidate): number {
  const owner = c.def.container;
  const ownedBy = (kinds: ReadonlySet<string>) =>
    c.target.reader.fileDefinitions(c.def.file.path).some((d) => kinds.has(d.kind) && d.name === owner);
  // A Lua table with methods of its own (`local Template = {}`, `function Template:substitute`) is a class.
  if (c.def.file.lang === 'luau')
    return (owner !== null && ownedBy(LUA_TABLE_KINDS)) || ownedElsewhere(c.target, c.def).length > 0 ? 0 : 1;
  return owner === null || ownedBy(NAMESPACE_KINDS) ? 0 : 1;
}

const NAMESPACE_KINDS: ReadonlySet<string> = new Set(['module']);

export function definitionCandidates(targets: readonly NavTarget[], q: ParsedQuery, filtered: boolean): Candidate[] {
  const parts = q.text.split('::');
  const out: Candidate[] = [];
  for (const t of targets) {
    const fileOk = filtered ? fileFilter(t.reader, q) : () => true;
    const kindOk = filtered ? kindFilter(q) : () => true;
    for (const def of t.reader.qualifiedDefinitions(parts)) {
      if (fileOk(def.file) && kindOk(def.kind)) out.push({ target: t, def });
    }
  }
  return sortCandidates(out);
}

/** Definitions reached by following imports that bind the name (aliases, re-exports). */
export function definitionsViaImports(
  targets: readonly NavTarget[],
  q: ParsedQuery,
): { found: Candidate[]; trail?: ImportTrail } {
  const name = q.text.split('::').pop()!;
  for (const t of targets) {
    const fileOk = fileFilter(t.reader, q);
    for (const imp of t.reader.importsOf(name)) {
      const trail = followImport(t.reader, imp, imp.alias === name ? (imp.name ?? undefined) : name);
      const found = trail.definitions
        .filter((d) => fileOk(d.file) && kindFilter(q)(d.kind))
        .map((def) => ({ target: t, def }));
      if (found.length) return { found: sortCandidates(found), trail };
    }
  }
  return { found: [] };
}

/**
 * Occurrences of the name in the index (every role, every file the query's file filters
 * keep): what `refs NAME` with those filters would list, counted without reading a file.
 */
export function referenceCount(
  targets: readonly NavTarget[],
  name: string,
  q?: ParsedQuery,
): { sites: number; files: number } {
  let sites = 0;
  let files = 0;
  for (const t of targets) {
    const fileOk = q ? fileFilter(t.reader, q) : () => true;
    for (const u of useRowsOf(t.reader, name)) {
      if (!fileOk(u.file)) continue;
      sites += u.count;
      files++;
    }
  }
  return { sites, files };
}

/** Definitions directly inside `def` (not inside one of its members), in source order. */
function membersOf(t: NavTarget, def: IndexedDefinition): IndexedDefinition[] {
  const inside = t.reader
    .fileDefinitions(def.file.path)
    // The definition itself is none, read from its doc comment (withDecorations) or not.
    .filter((d) => d.start >= def.start && d.end <= def.end && d.nameStart !== def.nameStart)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const out: IndexedDefinition[] = [];
  for (const d of inside) if (!out.some((m) => d.start >= m.start && d.end <= m.end)) out.push(d);
  // An overload's signature is no member of its own when the body it declares is one (rxjs'
  // `Observable` listed `74 subscribe` and `347 pipe`, signatures, for methods at 213 and 436).
  const implemented = new Set(out.filter((d) => d.kind !== 'prototype').map((d) => d.name));
  return out.filter((d) => d.kind !== 'prototype' || !implemented.has(d.name));
}

/** Decorator lines a definition may have above it, at most (a stack of `@` lines or `#[...]`). */
const DECORATION_LINES_MAX = 12;

/**
 * The definition with what the grammar leaves outside it but belongs to it: the decorators
 * and attributes directly above it (Python's `@property`, Rust's `#[derive(...)]`), and the
 * doc comment above those, when it has at most SYM_DOC_COMMENT_READ_MAX_LINES lines
 * (definitionBody folds one longer than SYM_DOC_COMMENT_WHOLE_MAX_LINES). `show sym:`
 * reads them as part of it. Django's `show sym:HttpRequest::body` began at `def body`, and
 * an agent could not tell a property from a method; tokio's `show sym:poll_proceed` left
 * out the 13 lines saying how the budget is spent (agent trials).
 */
export function withDecorations(def: IndexedDefinition, bytes: Buffer): IndexedDefinition {
  const starts = lineStarts(bytes);
  const lineAt = (n: number) => bytes.subarray(starts[n - 1], starts[n] ?? bytes.length).toString('utf8');
  let line = def.startLine;
  while (line > 1 && def.startLine - line < DECORATION_LINES_MAX && isDecorationLine(lineAt(line - 1))) line--;
  // The doc comment: a whole one only (its first line opens it), within the cap.
  let top = line;
  // Python folds its docstring, not a comment block above (definitionBody): only a short one is read.
  const max = def.file.lang === 'python' ? SYM_DOC_COMMENT_WHOLE_MAX_LINES : SYM_DOC_COMMENT_READ_MAX_LINES;
  while (top > 1 && line - top < max + 1 && docCommentLine(lineAt(top - 1))) top--;
  if (top < line && line - top <= max && docCommentLine(lineAt(top))?.opens) line = top;
  if (line === def.startLine) return def;
  let start = starts[line - 1];
  while (bytes[start] === 0x20 || bytes[start] === 0x09) start++;
  return { ...def, startLine: line, start };
}

export interface Body {
  readonly rows: readonly ShownRow[];
  /** Byte where the rows left out start, when the head stands for a long body. */
  readonly restStart?: number;
  readonly members: readonly (IndexedDefinition & { readonly modifiers: readonly string[] })[];
}

export interface BodyOptions {
  /**
   * A budget the reader asked for (`-b`): a long type whose whole text fits in it is read
   * whole, not cut to its head and members (an agent trial asked `show sym:Diagnostic -b
   * 3000` and got one line of a 63-line struct).
   */
  readonly wholeWithinTokens?: number;
}

/**
 * The rows `show sym:` prints: the whole definition when it is at most SYM_BODY_MAX_LINES
 * long, callable, or has fewer than SYM_OUTLINE_MEMBERS_MIN members; else its head (up to its first member, at most SYM_HEAD_MAX_LINES
 * lines) with its members listed, the rest left to the continuation.
 */
export function definitionBody(t: NavTarget, def: IndexedDefinition, bytes: Buffer, opts: BodyOptions = {}): Body {
  const body = wholeOrHead(t, def, bytes, opts);
  const where = `show path:${printedPath(def.file.path)}`;
  const member = t.member ? ` --member ${t.member}` : '';
  const read = (a: number, b: number) => `${where}:${a}-${b}${member}`;
  const rows = def.file.lang === 'python' ? foldDocstring(body.rows, read) : foldDocComment(body.rows, read);
  return { ...body, rows };
}

function wholeOrHead(
  t: NavTarget,
  def: IndexedDefinition,
  bytes: Buffer,
  opts: BodyOptions,
): Omit<Body, 'rows'> & { readonly rows: readonly SourceRow[] } {
  const rows = rowsOf(bytes, def.start, def.end);
  // Members its file defines outside its text: a Rust struct's `impl` methods, a Lua table's
  // `function Template:substitute` (an agent trial's `show sym:Template` printed `local
  // Template = {}` and no word of its four methods).
  const elsewhere = [...withModifiers(bytes, ownedElsewhere(t, def)), ...packageMembers(t, def)];
  if (def.endLine - def.startLine + 1 <= SYM_BODY_MAX_LINES) return { rows, members: elsewhere };
  if (opts.wholeWithinTokens !== undefined && rowsTokens(rows) <= opts.wholeWithinTokens)
    return { rows, members: elsewhere };
  // A long function (a method, a macro) is read whole, cut by the
  // budget and continued by `next` like any read: its body is the answer, and its inner
  // helpers are no outline of it. A type or module is summarised by its members.
  if (isCallableKind(def.kind)) return { rows, members: [] };
  // A `#define` between a C struct's fields is no member of it (binutils' `struct
  // bfd_section` holds 52 flag macros among its 55 fields, and its members line named only
  // macros: an agent trial).
  const inside = membersOf(t, def).filter((d) => d.kind !== 'macro');
  // Fewer members than this outline nothing (a kernel struct whose fields sit in one
  // anonymous inner struct shows as `members: 530 __randomize_layout, 745 cpu_bitmap`):
  // the body is read instead, cut by the budget like a function's.
  if (inside.length < SYM_OUTLINE_MEMBERS_MIN) return { rows, members: elsewhere };
  // A record of fields alone (a C struct, a Go struct, an enum) is its fields' types and
  // names: a list of names is no outline of it (an agent trial's `show sym:address_space`
  // printed the kernel struct's head and 16 bare names, where its 43 lines fit the budget).
  // Read whole, cut by the budget and continued as a function is; what it is used by follows.
  if (!inside.some((d) => isCallableKind(d.kind))) return { rows, members: elsewhere };
  const firstMember = inside[0].startLine;
  const members = [...withModifiers(bytes, inside), ...elsewhere];
  // The doc comment and decorators read above it (withDecorations) lead the head whole
  // (definitionBody folds a long comment): a Javadoc'd class's head had been 8 rows of its
  // comment, without the `class` line.
  let lead = 0;
  while (lead < rows.length && (docCommentLine(rows[lead].text) || isDecorationLine(rows[lead].text))) lead++;
  // The head ends at its first blank row: the signature and the doc comment's first
  // paragraph say what the definition is; the rest of a long docstring is the body's.
  const blank = rows.findIndex((r, i) => i > lead && r.text.trim() === '');
  const headLines =
    lead +
    Math.max(
      1,
      Math.min(
        SYM_HEAD_MAX_LINES,
        firstMember - rows[Math.min(lead, rows.length - 1)].line,
        blank > 0 ? blank - lead : Infinity,
      ),
    );
  if (headLines >= rows.length) return { rows, members: [] };
  return { rows: rows.slice(0, headLines), restStart: rows[headLines].start, members };
}

/**
 * Members in `map`'s order (methods and nested types first, then fields and properties),
 * each with its modifiers; a getter and its setter (Python's @property and @x.setter) are
 * one member to a reader.
 */
function withModifiers(
  bytes: Uint8Array,
  defs: readonly IndexedDefinition[],
): (IndexedDefinition & { readonly modifiers: readonly string[] })[] {
  return [...defs.filter((d) => !SECOND_GROUP.has(d.kind)), ...defs.filter((d) => SECOND_GROUP.has(d.kind))]
    .map((d) => {
      const modifiers = modifiersOf(bytes, d);
      return {
        ...d,
        name: modifiers.includes('#') && !d.name.startsWith('#') ? `#${d.name}` : d.name,
        modifiers: modifiers.filter((m) => m !== '#'),
      };
    })
    .filter((d, i, all) => i === 0 || all[i - 1].name !== d.name || all[i - 1].kind !== d.kind);
}

/**
 * Definitions of `def`'s file owned by it but written outside its text, in source order:
 * for a type (`impl` blocks, out-of-line methods) or a Lua table.
 */
function ownedElsewhere(t: NavTarget, def: IndexedDefinition): IndexedDefinition[] {
  const owns = OWNER_KINDS.has(def.kind) || (def.file.lang === 'luau' && LUA_TABLE_KINDS.has(def.kind));
  if (!owns) return [];
  // Another type of the name in the file owns what its body holds (owners.ts): `show sym:`
  // had listed testing::MockFunction's `Base` under internal::MockFunction (a C++ trial).
  return ownedByName(t.reader.fileDefinitions(def.file.path), def)
    .filter((d) => d.start >= def.end || d.end <= def.start)
    .sort((a, b) => a.start - b.start);
}

/**
 * A Go type's members in the other files of its package (goPackageMembers), each with the
 * modifiers its own file's bytes give it.
 */
function packageMembers(
  t: NavTarget,
  def: IndexedDefinition,
): (IndexedDefinition & { readonly modifiers: readonly string[] })[] {
  const byFile = new Map<number, IndexedDefinition[]>();
  for (const d of goPackageMembers(t.reader, def)) byFile.set(d.file.id, [...(byFile.get(d.file.id) ?? []), d]);
  return [...byFile.values()].flatMap((defs) => {
    const bytes = readIndexedBytes(t.root, defs[0].file);
    return bytes ? withModifiers(bytes, defs) : [];
  });
}

/**
 * What rows cost as `show` prints them (`LINE<TAB>TEXT`), with room for the read's header,
 * `also` and `refs` lines (SYM_READ_FRAME_TOKENS).
 */
function rowsTokens(rows: readonly SourceRow[]): number {
  return countTokens(rows.map((r) => `${r.line}\t${r.text}\n`).join('')) + SYM_READ_FRAME_TOKENS;
}

/**
 * The best definition of `q` in `targets` alone (no widening), following imports when no
 * definition carries the name: what `show sym:` reads, for verbs that need one target
 * (the history verbs, which never look across members).
 */
export function bestDefinition(
  targets: readonly NavTarget[],
  q: ParsedQuery,
): Outcome<{ target: NavTarget; def: IndexedDefinition }> {
  let found = definitionCandidates(targets, q, true);
  if (found.length === 0) found = definitionsViaImports(targets, q).found;
  return found.length ? ok(found[0]) : noDefinition(targets, q);
}

/**
 * Where the name occurs in files of `targets` passing the query's filters whose structure
 * the index holds only in part (a partial or failed parse, uses cut at the fact limit): a
 * definition there may be missing, and a `no_definition` must say so rather than answer as
 * if none existed (an agent trial: `show sym:md_begin file:gas/config/tc-arm.c`, whose
 * definition at line 30876 lies in a part tree-sitter did not recover).
 */
function incompleteMentions(targets: readonly NavTarget[], q: ParsedQuery, name: string, narrowed: boolean): string {
  const found: { readonly path: string; readonly line: number; readonly why: string }[] = [];
  let count = 0;
  const note = (t: NavTarget, file: IndexedFile, line: number) => {
    count++;
    if (found.length < NEAREST_NAMES_SHOWN)
      found.push({
        path: `${t.member ? `${t.member}/` : ''}${printedPath(file.path)}`,
        line,
        why: incompleteness(file),
      });
  };
  for (const t of targets) {
    const ok = fileFilter(t.reader, q);
    const rows = useRowsOf(t.reader, name).filter((u) => ok(u.file));
    // A quarter of the kernel's C files parse partially: their uses are listed only where the
    // filters point at files, not for every name defined nowhere.
    for (const u of rows)
      if (incompleteness(u.file) && (narrowed || u.file.parse !== 'partial')) note(t, u.file, u.line);
    const hidden = unindexedMentions(t.reader, t.root, name, ok, new Set(rows.map((u) => u.file.id)));
    for (const m of hidden.mentions) note(t, m.file, m.line);
  }
  if (count === 0) return '';
  const list = found.map((f) => `${f.path}:${f.line} (${f.why})`).join(', ');
  const more = count > found.length ? `, +${count - found.length} more` : '';
  const { path: file, line } = found[0];
  return (
    `; ${name} occurs in ${count} file${count === 1 ? '' : 's'} the index holds only in part, where a definition may be missing: ` +
    `${list}${more}; read it: show path:${file}:${line}-${line + SYM_BODY_MAX_LINES - 1}`
  );
}

/** Why the index holds a file's structure only in part ('' when it holds it whole). */
function incompleteness(f: IndexedFile): string {
  if (f.parse === 'failed') return 'did not parse';
  const parts = [
    ...(f.parse === 'partial' ? ['parsed partially'] : []),
    ...(f.factLimited ? ['uses cut at the fact limit'] : []),
  ];
  return parts.join(', ');
}

export function noDefinition(targets: readonly NavTarget[], q: ParsedQuery): Outcome<never> {
  const filters = filterWords(q);
  const name = q.text.split('::').pop()!;
  const incomplete = incompleteMentions(targets, q, name, filters !== '');
  // Code the index holds as text (a Neovim runtime's Vim script) may define it: said first.
  const unparsed = unparsedMentions(targets, q);
  const tooLarge = tooLargeMentions(targets, q);
  const text = [
    ...(unparsed.length ? [unparsedWords(unparsed, name, 'definitions')] : []),
    ...tooLargeNotes(tooLarge, name),
  ]
    .map((w) => `; ${w}`)
    .join('');
  if (filters) {
    const loose = definitionCandidates(targets, q, false)[0];
    const best = loose
      ? `; best without them: ${loose.target.member ? `${loose.target.member}/` : ''}${printedPath(loose.def.file.path)}:${loose.def.startLine} (${loose.def.kind})`
      : '; there is none without them either';
    return fail('no_definition', `no definition of ${q.text} matches ${filters}${incomplete}${text}${best}`);
  }
  // `Console.__init__` as Python spells it: members are named `Console::__init__` here (an
  // agent trial got only a text search suggested).
  const parts = q.text.split('.');
  if (parts.length === 2 && parts.every((p) => p !== '') && !q.text.includes('::')) {
    const [owner, member] = parts;
    if (targets.some((t) => t.reader.definitions(member, { container: owner }).length > 0))
      return fail(
        'no_definition',
        `no definition of ${q.text} is indexed; a member is named ${owner}::${member}: try show sym:${owner}::${member}`,
      );
  }
  const nearest = nearestNames(targets, name);
  const hint = nearest.length ? `; nearest defined: ${nearest.join(', ')}` : '';
  return fail(
    'no_definition',
    `no definition of ${q.text} is indexed${incomplete}${text}${hint}; try: ${nearest.length ? `show sym:${nearest[0]}, ` : ''}search ${name} (text), or refs ${q.text}`,
  );
}

/**
 * Up to NEAREST_NAMES_SHOWN defined names nearest `name` in the targets (another case or
 * separator, then a small edit distance): what `show sym:` and an empty `refs` suggest.
 */
export function nearestNames(targets: readonly NavTarget[], name: string): string[] {
  return [...new Set(targets.flatMap((t) => nearestDefinedNames(t.reader, name)))].slice(0, NEAREST_NAMES_SHOWN);
}
