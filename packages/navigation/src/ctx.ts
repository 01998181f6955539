// `ctx HANDLE` (docs/spec/retrieval.md §7): the structural context of a handle's symbol or region
// from the owner's current graph: container, members or siblings, callers, callees.
import {
  codeFamilyOf,
  declarationRank,
  extractOccurrences,
  FUNCTION_KINDS,
  kindTier,
  lineStartOffsets,
  OWNER_KINDS,
  type IndexedDefinition,
  type IndexedFile,
  type IndexedImport,
} from '@trufflepig/index';
import { fileStanding, moduleNameOf } from '@trufflepig/rank';
import { docCommentLine, isDecorationLine } from '@trufflepig/render';
import type { ResultEntry } from '@trufflepig/result-cache';
import { ok, type Outcome } from './errors';
import { CTX_DOC_GAP_LINES, CTX_GUESSED_CALLEE_OWNERS_MAX, CTX_LIST_MAX } from './limits';
import { readIndexedBytes } from '@trufflepig/index';
import { qualifiedName } from './entries';
import { ownedByName } from './owners';
import type { NavTarget } from './target';
import {
  callSitesOf,
  isCallSite,
  qualifierSkipsOwnFunction,
  RECEIVER_ONLY_MEMBERS,
  receiverDeclaredType,
  TYPE_PARAMETER,
} from './refs';
import { DECLARED_TYPE_LANGS, namesOwnObject } from './declared-types';
import { dotQualifier, followImport, moduleMemberTrail } from './resolve';
import { goPackageDir, goPackageMembers, goPackageSite, goReceiverName } from './go-packages';
import { basesOf, implementationsOf, subclassesOf, type Subclass } from './implementations';
import { methodOfClass, overridesOf } from './overrides';
import { nearestDefinition } from './dirs';
import { lastSegment } from './class-heads';

export interface CtxItem {
  readonly file: IndexedFile;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly name?: string;
  readonly kind?: string;
  /** For callers: the definition the call sits in. */
  readonly within?: string;
  /** For callers: the function is passed as a value there (`time.AfterFunc(d, pc.closeIdle)`), not called. */
  readonly asValue?: true;
  /**
   * `candidate` when the index cannot tell the call is this one's: for a callee, a call
   * through a receiver other than `this`/`self` (`bitmap.getWidth()`), whose type the index
   * does not know, reached a method of that name in some class; for a caller, refs did not
   * resolve the call site to the definition (and did not resolve it to another).
   */
  readonly resolution?: 'candidate';
}

export interface CtxAnswer {
  readonly target: NavTarget;
  readonly symbol?: CtxItem;
  readonly container?: CtxItem;
  /** Members of a type, else the symbol's siblings under the same owner. */
  readonly members: CtxItem[];
  readonly membersAre: 'members' | 'siblings';
  readonly callers: CtxItem[];
  readonly callees: CtxItem[];
  /** Types implementing the symbol, an interface or trait (implementations.ts). */
  readonly implementations: CtxItem[];
  /** Classes naming the symbol, a class, as a base (implementations.ts); `candidate` when another class has its name. */
  readonly subclasses: CtxItem[];
  /** Subclasses were found past CTX_LIST_MAX (`refs` lists every use of the name). */
  readonly subclassesCut: boolean;
  /** Implementations past the limit were left out. */
  readonly implementationsCut: boolean;
  /** The bases the symbol, a class, names in its head, found in the index; `candidate` when several have the name. */
  readonly bases: CtxItem[];
  /** A method's namesakes in the classes deriving from or implementing its class (overrides.ts). */
  readonly overriddenBy: CtxItem[];
  /** The nearest base class's method of a method's name, which it overrides. */
  readonly overrides: CtxItem[];
  /** Bases its head names that the index defines nowhere (a dependency's class). */
  readonly unresolvedBases: string[];
  readonly unresolvedCallees: string[];
  /** A type's members and the callees found past CTX_LIST_MAX: counted, not listed. */
  readonly omitted: number;
  /** `omitted` by list (`members`, `callees`, `implementations`, `subclasses`, `overridden_by`), each above 0. */
  readonly omittedBy: Readonly<Record<string, number>>;
  /** A type's members past CTX_LIST_MAX were left out (its file's `map` lists them all). */
  readonly membersCut: boolean;
  /** The files holding a type's members, its own first (a Go type's methods in other files of its package). */
  readonly memberPaths: readonly string[];
  /** Call sites stopped at CTX_LIST_MAX (more may exist: `refs` lists them all). */
  readonly callersCut: boolean;
  /** The span is the doc comment of `symbol`, which starts just after it. */
  readonly documents?: true;
}

function item(d: IndexedDefinition, within?: string): CtxItem {
  return {
    file: d.file,
    start: d.start,
    end: d.end,
    startLine: d.startLine,
    endLine: d.endLine,
    name: qualifiedName(d),
    kind: d.kind,
    ...(within ? { within } : {}),
  };
}

/**
 * What a call can reach: a function, method, macro or prototype, a type (a constructor
 * call) or an enum variant, never a variable, field or constant (an agent trial's `ctx`
 * gave `.join(...)` on an array the callee `variable join` of another package).
 */
function isCallTarget(d: IndexedDefinition): boolean {
  return kindTier(d.kind) <= 1 || d.kind === 'variant';
}

/**
 * The function or method whose body holds `d` (a nested `def`, a closure), if any: a
 * definition local to one is in scope only inside it, so no call elsewhere reaches it
 * (SQLAlchemy's `util.warn(...)` in pool/base.py was a candidate call of a `warn` nested in
 * an `__init__` of orm/descriptor_props.py, an agent trial).
 */
function enclosingFunction(reader: NavTarget['reader'], d: IndexedDefinition): IndexedDefinition | undefined {
  // A function only: a method in an object a factory returns is called through that object.
  if (d.container === null || d.kind !== 'function') return undefined;
  return reader
    .fileDefinitions(d.file.path)
    .find(
      (o) =>
        FUNCTION_KINDS.has(o.kind) &&
        o.name === d.container &&
        o.start <= d.start &&
        d.end <= o.end &&
        (o.start !== d.start || o.end !== d.end),
    );
}

/** A callee's definition: code before tests before build output, a function before its C prototype, else the first. */
function bestCallee(list: readonly IndexedDefinition[]): IndexedDefinition | undefined {
  const key = (d: IndexedDefinition) => 2 * fileStanding(d.file) + declarationRank(d.kind, d.file.path);
  return [...list].sort((a, b) => key(a) - key(b))[0];
}

/**
 * Where the receiver or qualifier of the call at `start` ends (the byte before its `.` or
 * `->`: `attr.init(`, `p->op(`), or undefined for a bare call.
 */
function receiverEnd(bytes: Buffer, start: number, lang: string): number | undefined {
  let i = start - 1;
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x09)) i--;
  if (bytes[i] === 0x2e) return i - 1;
  if (bytes[i] === 0x3e && bytes[i - 1] === 0x2d) return i - 2;
  // Lua's method call `obj:m(` (a `::` is a goto label's).
  if (lang === 'luau' && bytes[i] === 0x3a && bytes[i - 1] !== 0x3a) return i - 1;
  return undefined;
}

/**
 * The last segment of the path before a call's name (`coop` in `crate::runtime::coop::f(`,
 * `Budget` in `Budget::unconstrained(`), or undefined for a call without a `::` path and for
 * a path ending in `self`, `super` or `crate` (the file's own module, its parent: read as
 * a bare call).
 */
function pathQualifierOf(bytes: Buffer, start: number): string | undefined {
  let i = start - 1;
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x09)) i--;
  if (bytes[i] !== 0x3a || bytes[i - 1] !== 0x3a) return undefined;
  const word = receiverWord(bytes, i - 2);
  return word === undefined || word === 'self' || word === 'super' || word === 'crate' ? undefined : word;
}

/** Whether `path`'s imports bind `name` to something no definition of the repository is (`use std::cell::Cell;`). */
function importedFromOutside(t: NavTarget, path: string, name: string): boolean {
  const binding = t.reader.fileImports(path).find((i) => (i.alias ?? i.name) === name);
  return binding !== undefined && followImport(t.reader, binding, binding.name ?? name).definitions.length === 0;
}

/** The text of `start`'s line before it. */
function lineBefore(bytes: Buffer, start: number): string {
  return bytes.toString('utf8', bytes.lastIndexOf(0x0a, start - 1) + 1, start);
}

/** The receiver word before a member call (`bitmap` in `bitmap.getWidth(`), or undefined. */
function receiverWord(bytes: Buffer, end: number): string | undefined {
  let from = end;
  while (from >= 0 && /[\w$]/.test(String.fromCharCode(bytes[from]))) from--;
  return from < end ? bytes.toString('utf8', from + 1, end + 1) : undefined;
}

/** Languages where a bare call inside a method may call the method's own class's member (an implicit `this`/`self`). */
const IMPLICIT_MEMBER_CALLS: ReadonlySet<string> = new Set(['cpp', 'java', 'csharp', 'ruby']);

/** Whether two owners are one class: `internal::UnitTestImpl` is the `UnitTestImpl` an out-of-line head names. */
function sameOwner(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : lastSegment(a) === lastSegment(b);
}

/**
 * The definitions a call can mean, those of its shape first: a call through a receiver
 * (`attr.init(...)`) means a method before a free function of the name (an agent trial's
 * `ctx` gave it the `func init` of another package), a bare call a free function before a
 * method. The other shape stays as the fallback: a Go package call `strings.Repeat(` or a
 * Python module call is a free function behind a qualifier.
 */
function ownedFirst(member: boolean): (list: readonly IndexedDefinition[]) => IndexedDefinition[] {
  return (list) => {
    const shaped = list.filter((d) => (d.container !== null) === member);
    return shaped.length > 0 ? shaped : [...list];
  };
}

/** A doc comment, block-comment or attribute/decorator line: what may stand between a doc comment and its item. */
const DOC_OR_ATTRIBUTE_LINE = /^\s*(\/\/|\/\*|\*|#\[|#!\[|@)/;

/**
 * The definition a span documents: after the span's last line only comment or attribute
 * lines (at most CTX_DOC_GAP_LINES), then the line where the definition starts; the
 * outermost definition starting there.
 */
export function documentedBy(
  defs: readonly IndexedDefinition[],
  endLine: number,
  lines: readonly string[],
): IndexedDefinition | undefined {
  let line = endLine + 1;
  while (line <= lines.length && line - endLine <= CTX_DOC_GAP_LINES && DOC_OR_ATTRIBUTE_LINE.test(lines[line - 1]))
    line++;
  let best: IndexedDefinition | undefined;
  for (const d of defs) if (d.startLine === line && (!best || d.end - d.start > best.end - best.start)) best = d;
  return best;
}

/** The innermost definition of a file containing [start, end). */
function innermost(defs: readonly IndexedDefinition[], start: number, end: number): IndexedDefinition | undefined {
  let best: IndexedDefinition | undefined;
  for (const d of defs)
    if (d.start <= start && end <= d.end && (!best || d.end - d.start < best.end - best.start)) best = d;
  return best;
}

function documentedAfter(
  t: NavTarget,
  file: IndexedFile,
  defs: readonly IndexedDefinition[],
  entry: ResultEntry,
): IndexedDefinition | undefined {
  const bytes = readIndexedBytes(t.root, file);
  return bytes && documentedBy(defs, entry.end_line, bytes.toString('utf8').split('\n'));
}

/**
 * The definition a span is, with its doc comment or decorators above it: the largest one
 * inside the span that ends where the span ends (search spans a match in a doc comment as
 * the comment and the definition; an agent trial's `ctx` of such a hit, `summary.go:355-366
 * summary::maybeRotateStreams`, answered that no definition holds it).
 */
function documentedInside(defs: readonly IndexedDefinition[], entry: ResultEntry): IndexedDefinition | undefined {
  let best: IndexedDefinition | undefined;
  for (const d of defs)
    if (d.start >= entry.start && d.end === entry.end && (!best || d.end - d.start > best.end - best.start)) best = d;
  return best;
}

/**
 * The member a span is with its doc comment or decorators above it (`show sym:` reads a
 * method so, and search spans a short doc comment with its method): documentedInside,
 * when only comment, decoration or blank lines stand before the definition. Asked before
 * the innermost definition holding the span, which is the member's class: `ctx` of `show
 * sym:Callbacks::run_callbacks` (callbacks.rb:87-140, its doc comment from line 87)
 * answered for module Callbacks, and so for any documented method of a class, in Ruby,
 * Java or Python (an agent trial on ActiveSupport).
 */
function documentedMember(
  t: NavTarget,
  file: IndexedFile,
  defs: readonly IndexedDefinition[],
  entry: ResultEntry,
): IndexedDefinition | undefined {
  const d = documentedInside(defs, entry);
  if (d === undefined || d.start === entry.start) return d;
  const bytes = readIndexedBytes(t.root, file);
  if (!bytes) return undefined;
  const lines = bytes.toString('utf8').split('\n');
  for (let line = entry.start_line; line < d.startLine; line++) {
    const text = lines[line - 1] ?? '';
    if (text.trim() !== '' && !docCommentLine(text) && !isDecorationLine(text)) return undefined;
  }
  return d;
}

/**
 * The structural context of a result entry from the owner's current graph: its definition
 * and container, a type's members or a function's siblings, callers and callees, a type's
 * implementations, subclasses and bases. Each list holds at most `listMax` rows (`-n`).
 */
export function structuralContext(
  t: NavTarget,
  entry: ResultEntry,
  listMax: number = CTX_LIST_MAX,
): Outcome<CtxAnswer> {
  const file = t.reader.fileByPath(entry.path)!;
  const defs = t.reader.fileDefinitions(file.path);
  const held =
    defs.find((d) => d.start === entry.start && d.end === entry.end) ??
    documentedMember(t, file, defs, entry) ??
    innermost(defs, entry.start, Math.max(entry.start, entry.end)) ??
    documentedInside(defs, entry);
  const regionOwner = held ? undefined : innermost(defs, entry.start, entry.start);
  // A doc comment above a definition is held by none (an agent trial: `ctx` of the rustdoc
  // of serde_json's `disable_recursion_limit`, the top hit of its search, said nothing).
  const documented = held || regionOwner ? undefined : documentedAfter(t, file, defs, entry);
  const symbol = held ?? documented;
  const focus = symbol ?? regionOwner;
  const ownerName = focus?.container ?? null;
  const container =
    ownerName === null
      ? undefined
      : (defs.find((d) => d.name === ownerName && OWNER_KINDS.has(d.kind)) ??
        t.reader.definitions(ownerName.split('::').pop()!).find((d) => OWNER_KINDS.has(d.kind)));
  const isType = focus !== undefined && OWNER_KINDS.has(focus.kind);
  const members =
    focus === undefined
      ? []
      : isType
        ? [...ownedByName(defs, focus), ...goPackageMembers(t.reader, focus)]
        : defs.filter(
            (d) => d !== focus && d.container === focus.container && (focus.container !== null || d.container === null),
          );
  const callers: CtxItem[] = [];
  const callees: CtxItem[] = [];
  /** Names the focus's own span uses: the siblings it touches come first. */
  const mentioned = new Set<string>();
  const unresolved: string[] = [];
  // A type's members past the cap are counted; a function's siblings are the rest of its
  // file's outline (map lists them), which a count would only swell.
  const membersOmitted = isType ? Math.max(0, members.length - listMax) : 0;
  let calleesOmitted = 0;
  let callersCut = false;
  if (focus && !isType) {
    const calls = callSitesOf(t, focus, listMax);
    callersCut = calls.cut;
    for (const s of calls.sites)
      callers.push({
        file: s.file,
        start: s.start,
        end: s.end,
        startLine: s.line,
        endLine: s.line,
        ...(s.within !== undefined ? { within: s.within } : {}),
        ...(isCallSite(s) ? {} : { asValue: true as const }),
        ...(s.resolution !== 'resolved' ? { resolution: 'candidate' as const } : {}),
      });
    const bytes = readIndexedBytes(t.root, file);
    let imports: readonly IndexedImport[] | undefined;
    const fileImports = () => (imports ??= t.reader.fileImports(file.path));
    if (bytes) {
      const seen = new Set<string>();
      let lineStarts: number[] | undefined;
      const inside = extractOccurrences(file.lang, bytes).filter((o) => o.start >= focus.start && o.end <= focus.end);
      // Members reached through the receiver or called: a parameter named like a field is not the field.
      for (const o of inside) if (o.role === 'member' || o.role === 'call') mentioned.add(o.name);
      for (const o of inside) {
        if (o.role !== 'call') continue;
        const end = receiverEnd(bytes, o.start, file.lang);
        const path = end === undefined ? pathQualifierOf(bytes, o.start) : undefined;
        // `Q.f(` where Q binds a module (`import time`, `const fs = require('fs')`): that
        // module's f when the repository holds it, else no callee of the repository's
        // (SQLAlchemy's `time.time()` was a candidate call of a test suite's `time` method).
        const moduleQualifier = end !== undefined ? dotQualifier(lineBefore(bytes, o.start)) : undefined;
        const trail =
          moduleQualifier !== undefined
            ? moduleMemberTrail(t.reader, file, fileImports(), moduleQualifier, o.name)
            : undefined;
        // One callee per name and path: `context::budget()` and a bare `budget()` are two, as
        // are `time.time()` and `clock.time()`.
        const key = `${trail ? `${moduleQualifier}.` : (path ?? '')}::${o.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // Go's `pkg.Name(`: the package-level definition in the directory the import names,
        // as refs reads it (go-packages.ts); net/http's `strings.HasPrefix` had been bytes'.
        const goPackage =
          file.lang === 'go' && end !== undefined
            ? goPackageSite(t.reader, file, fileImports(), lineBefore(bytes, o.start), t.reader.definitions(o.name))
            : undefined;
        if (goPackage !== undefined) {
          if (goPackage.kind === 'definition' && callees.length < listMax) callees.push(item(goPackage.definition));
          else if (goPackage.kind === 'elsewhere' && unresolved.length < listMax) unresolved.push(o.name);
          else calleesOmitted++;
          continue;
        }
        // A bare call of a name the file imports (`from starlette.exceptions import
        // HTTPException`) is the imported one, as refs reads it, or a library's when the import
        // leads out of the index: ctx had named fastapi's own `HTTPException` and an OpenAPI
        // model `Response`, resolved, where refs resolved both to starlette's (a Python trial).
        const imported =
          !trail && end === undefined && path === undefined ? importedName(fileImports(), o.name) : undefined;
        const via =
          trail ??
          (imported
            ? followImport(t.reader, imported, imported.alias === o.name ? (imported.name ?? o.name) : o.name)
            : undefined);
        if (via) {
          const reached = bestCallee(via.definitions.filter((d) => isCallTarget(d)));
          if (reached && callees.length < listMax)
            callees.push(via.outcome === 'resolved' ? item(reached) : { ...item(reached), resolution: 'candidate' });
          else if (!reached && unresolved.length < listMax) unresolved.push(o.name);
          else calleesOmitted++;
          continue;
        }
        const owned = ownedFirst(end !== undefined);
        // What the call can reach: code of its own language family (a Python call is no
        // jQuery method), and for a bare call where members need a receiver, no method
        // (Django's bare `dict(...)` was `MultiValueDict::dict`, an agent trial).
        const reachable = (d: IndexedDefinition) => {
          if (!isCallTarget(d) || codeFamilyOf(d.file.lang) !== codeFamilyOf(file.lang)) return false;
          if (end === undefined && path === undefined && RECEIVER_ONLY_MEMBERS.has(file.lang) && d.kind === 'method')
            return false;
          // Rust calls a free function by path only: `x.map_err(…)` is a method, never h2's
          // `fn map_err` of framed_read.rs, which ctx had given as a certain callee (an agent trial).
          if (end !== undefined && file.lang === 'rust' && d.container === null) return false;
          // Through a receiver or qualifier no rule read, never the file's own top-level
          // function (refs.ts qualifierSkipsOwnFunction): flask's `send_file` "called
          // itself" through `werkzeug.utils.send_file(`, a workspace trial.
          if (
            end !== undefined &&
            d.container === null &&
            d.file.path === file.path &&
            qualifierSkipsOwnFunction(file.lang, moduleQualifier)
          )
            return false;
          const local = enclosingFunction(t.reader, d);
          return local === undefined || (local.file.path === file.path && local.start <= o.start && o.end <= local.end);
        };
        // `module::f(`, `Type::f(`: the path names where f is; a path naming nothing of the
        // repository's is the standard library's or a dependency's (tokio's `Cell::new` was
        // `signal/windows/sys.rs`'s `new`, `context::budget` coop.rs's `budget`, an agent trial).
        const qualifier = path === 'Self' ? (focus.container ?? undefined) : path;
        // A path the file imports from outside the repository (`use std::cell::Cell;`) names none of its definitions.
        const external = qualifier !== undefined && importedFromOutside(t, file.path, qualifier);
        const named = (list: readonly IndexedDefinition[]) =>
          qualifier === undefined
            ? list
            : external
              ? []
              : list.filter((d) => d.container === qualifier || moduleNameOf(d.file.path) === qualifier);
        // A bare call inside a method of C++, Java, C# or Ruby reaches its own class's method
        // first (the implicit `this`): googletest's `ListTestsMatchingFilter();` inside
        // `UnitTestImpl::RunAllTests` had been XmlUnitTestResultPrinter's, resolved (a C++ trial).
        const bare = end === undefined && path === undefined;
        const ownClass = (list: readonly IndexedDefinition[]) =>
          bare && IMPLICIT_MEMBER_CALLS.has(file.lang) && focus.container !== null
            ? list.filter((d) => d.kind === 'method' && sameOwner(d.container, focus.container))
            : [];
        const inFile = named(defs.filter((d) => d.name === o.name && reachable(d)));
        let anywhere: readonly IndexedDefinition[] | undefined;
        const everywhere = () => (anywhere ??= named(t.reader.definitions(o.name).filter(reachable)));
        // Java and C# bind `x.f()` to x's declared type (declared-types.ts): that type's f, or
        // none of the index's when the type is outside it. `cf.get()` on a CompletableFuture
        // in HttpClientImpl::send had been SSLDirectBufferSupplier's `get` (a JDK trial).
        const declaredType =
          DECLARED_TYPE_LANGS.has(file.lang) && end !== undefined
            ? receiverDeclaredType(
                defs,
                bytes,
                (lineStarts ??= lineStartOffsets(bytes)),
                focus,
                o.start,
                lineBefore(bytes, o.start),
              )
            : undefined;
        if (declaredType !== undefined && !TYPE_PARAMETER.test(declaredType)) {
          const ofType = everywhere().filter((d) => d.container !== null && lastSegment(d.container) === declaredType);
          const outside = !t.reader.definitions(declaredType).some((d) => OWNER_KINDS.has(d.kind));
          if (ofType.length > 0 || outside) {
            const reached = bestCallee(ofType);
            if (reached && callees.length < listMax) callees.push(item(reached));
            else if (!reached && unresolved.length < listMax) unresolved.push(o.name);
            else calleesOmitted++;
            continue;
          }
        }
        const receiver = end !== undefined ? receiverWord(bytes, end) : undefined;
        // Go names its receiver in the method's head, and a type's methods live in any file
        // of its package: `s.LeaseRevoke(` inside a method of EtcdServer is EtcdServer's
        // LeaseRevoke (an etcd trial's ctx had retryLeaseClient's, a candidate).
        const goOwn =
          file.lang === 'go' && receiver !== undefined && receiver === goReceiverName(bytes, focus)
            ? everywhere().filter(
                (d) =>
                  d.kind === 'method' &&
                  d.container === focus.container &&
                  goPackageDir(d.file.path) === goPackageDir(file.path),
              )
            : [];
        // `protocol.ServerFactory.buildProtocol(self, addr)`: a receiver naming a class of the
        // index calls that class's method, or the one its nearest base declares. Twisted's
        // SMTPFactory::buildProtocol had been its own callee (a trial).
        const classes =
          receiver !== undefined && /^[A-Z]/.test(receiver) && receiver !== lastSegment(focus.container ?? '')
            ? t.reader
                .definitions(receiver)
                .filter((d) => OWNER_KINDS.has(d.kind) && codeFamilyOf(d.file.lang) === codeFamilyOf(file.lang))
            : [];
        const ofClass = classes.length > 0 ? methodOfClass(t, nearestDefinition(classes, file)!, o.name) : undefined;
        if (ofClass) {
          const sure = classes.length === 1 && ofClass.resolution !== 'candidate';
          if (callees.length < listMax)
            callees.push(sure ? item(ofClass) : { ...item(ofClass), resolution: 'candidate' });
          else calleesOmitted++;
          continue;
        }
        const target =
          bestCallee(goOwn) ??
          bestCallee(ownClass(inFile)) ??
          bestCallee(ownClass(everywhere())) ??
          bestCallee(owned(inFile)) ??
          bestCallee(owned(everywhere()));
        // Through another object's receiver, the name alone chose among the methods of that name.
        // A method of the caller's own type stays resolved: Go names its receiver anything
        // (`c.Args(`). Another type's method through `this`/`self` is a guess too: rxjs'
        // `operate` called `this.error(err)` on a Subscriber, not on the Subject whose
        // `error` the name alone chose (an agent trial).
        // Lua names its receiver: only `self` (or the table itself) is the caller's own
        // table; `parser:parse()` inside `LanguageTree:parse` is another object's method.
        // Go names its receiver in the method's head: `r.R.ReadLine()` in textproto's
        // `func (r *Reader) ReadLine` is a call on a field (bufio's), not on `r`.
        // Elsewhere `this`, `self` or the class's own name: `e.hashCode()` in AbstractList's
        // `hashCode` calls an element's, not itself, which ctx had listed resolved (a JDK trial).
        const ownReceiver =
          file.lang === 'luau'
            ? receiver === 'self' || (receiver !== undefined && receiver === target?.container)
            : file.lang === 'go'
              ? receiver !== undefined && receiver === goReceiverName(bytes, focus)
              : receiver === undefined || namesOwnObject(receiver, focus.container);
        // A top-level function reached through a receiver no import trail read is a guess
        // too: tRPC's `parser.assert(value)` on an `any` parser was utils.ts's `assert`, never
        // imported there (a workspace trial; refs had it a candidate already).
        const freeThroughReceiver =
          target?.container === null && receiver !== undefined && qualifierSkipsOwnFunction(file.lang, moduleQualifier);
        // Another type's method reached by a bare call (an inherited one at best) or through a
        // receiver that is no word (`UnitTest::GetInstance()->impl()` was PolymorphicMatcher's
        // `impl`, resolved): the name alone chose it.
        const otherOwner = target?.kind === 'method' && !sameOwner(target.container, focus.container);
        // Through a receiver that is no word (`$this->getDatabasePlatform()->quoteIdentifier(`,
        // `a[i].f(`), whose type nothing here reads: Doctrine's `Connection::quoteIdentifier`
        // "called itself", resolved, where it calls the platform's (a PHP trial).
        const unknownReceiver = end !== undefined && receiver === undefined && qualifier === undefined;
        const guessed =
          freeThroughReceiver ||
          (target !== undefined && unknownReceiver) ||
          (target?.container != null &&
            receiver !== undefined &&
            (target.container !== focus.container || !ownReceiver)) ||
          (otherOwner && receiver === undefined && (end !== undefined || (bare && focus.container !== null)));
        // A guess among many owners of the name is no lead: Django's `queryset.get(...)` was
        // `AutocompleteJsonView::get candidate`, one of 30 `get` methods (a Django trial).
        // The name is listed as unresolved, which is what it is.
        const arbitrary =
          guessed &&
          target?.container != null &&
          new Set(everywhere().flatMap((d) => (d.container === null ? [] : [d.container]))).size >
            CTX_GUESSED_CALLEE_OWNERS_MAX;
        if (target && !arbitrary && callees.length < listMax)
          callees.push(guessed ? { ...item(target), resolution: 'candidate' } : item(target));
        else if ((!target || arbitrary) && unresolved.length < listMax) unresolved.push(o.name);
        else calleesOmitted++;
      }
    }
  }
  const implementations =
    focus === undefined ? { types: [], more: 0, extending: [] } : implementationsOf(t, focus, listMax);
  const subclasses = focus === undefined ? { types: [], more: 0 } : subclassesOf(t, focus, listMax, implementations);
  const bases = focus === undefined ? { types: [], unresolved: [] } : basesOf(t, focus);
  const overrides = symbol === undefined ? undefined : overridesOf(t, symbol, listMax);
  const omittedBy = Object.fromEntries(
    Object.entries({
      members: membersOmitted,
      callees: calleesOmitted,
      implementations: implementations.more,
      subclasses: subclasses.more,
      overridden_by: overrides?.more ?? 0,
    }).filter(([, n]) => n > 0),
  );
  const resolvedItem = (d: Subclass): CtxItem => (d.resolution ? { ...item(d), resolution: d.resolution } : item(d));
  return ok({
    target: t,
    ...(symbol ? { symbol: item(symbol) } : {}),
    ...(container ? { container: item(container) } : regionOwner ? { container: item(regionOwner) } : {}),
    members: (isType || focus === undefined ? members : siblingsByRelevance(members, focus, mentioned, callees))
      .slice(0, listMax)
      .map((d) => item(d)),
    membersAre: isType ? 'members' : 'siblings',
    callers,
    callees,
    implementations: implementations.types.map((d) => item(d)),
    subclasses: subclasses.types.map(resolvedItem),
    subclassesCut: subclasses.more > 0,
    implementationsCut: implementations.more > 0,
    bases: bases.types.map(resolvedItem),
    overriddenBy: (overrides?.overriddenBy ?? []).map(resolvedItem),
    overrides: (overrides?.overrides ?? []).map(resolvedItem),
    unresolvedBases: bases.unresolved,
    unresolvedCallees: unresolved,
    omitted: Object.values(omittedBy).reduce((a, b) => a + b, 0),
    omittedBy,
    membersCut: isType && members.length > listMax,
    memberPaths: isType ? [...new Set([file.path, ...members.map((d) => d.file.path)])] : [file.path],
    callersCut,
    ...(documented ? { documents: true } : {}),
  });
}

/**
 * A function's siblings as ctx lists them: those its body uses first (`c.Args` in
 * `ValidateArgs`: the field `Args`), then the nearest in the file. In source order, the
 * first CTX_LIST_MAX siblings of a method were the struct's first fields, whatever the
 * method touched (an agent trial on cobra: 10 of 15 rows). A free function's siblings are
 * its file's other top-level definitions, which `map` outlines: only those its body uses
 * and the callee rows do not already name are listed (an agent trial on redis: `ctx` of
 * `loadDataFromDisk` listed 11 unrelated functions of server.c before its one caller).
 */
function siblingsByRelevance(
  siblings: readonly IndexedDefinition[],
  focus: IndexedDefinition,
  mentioned: ReadonlySet<string>,
  callees: readonly CtxItem[],
): IndexedDefinition[] {
  const used = (d: IndexedDefinition) => (mentioned.has(d.name) ? 0 : 1);
  // Bytes between the sibling and the focus's span, whichever side it is on.
  const gap = (d: IndexedDefinition) => (d.start >= focus.end ? d.start - focus.end : Math.max(0, focus.start - d.end));
  const key = (x: { readonly file: IndexedFile; readonly start: number }) => `${x.file.path}\0${x.start}`;
  const listed = new Set(callees.map(key));
  const shown =
    focus.container === null ? siblings.filter((d) => mentioned.has(d.name) && !listed.has(key(d))) : siblings;
  return [...shown].sort((a, b) => used(a) - used(b) || gap(a) - gap(b) || a.start - b.start);
}

/** The import that binds `name` in a file (by its alias, or its own name without one); none for a glob. */
function importedName(imports: readonly IndexedImport[], name: string): IndexedImport | undefined {
  return imports.find((i) => i.name !== '*' && (i.alias ?? i.name) === name);
}
