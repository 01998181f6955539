import {
  FILENAME_PARTIAL,
  filenameScorer,
  filenameScreenWords,
  identifierKey,
  fileStanding,
  isStopword,
  isTypeDeclarationPath,
  ANY_TERM_LANE_FILE_CAP,
  LANE_FILE_CAP,
  stem,
  WEIGHT_ANY_TERM,
  WEIGHT_DEFAULT,
  WEIGHT_IDENTIFIER_DECLARATION,
  type Lane,
  wordFormTerms,
} from '@trufflepig/rank';
import { languageOf, queryLanguageOf } from '../classify';
import { qualifiedName, ROLE } from '../extract/facts';
import {
  definitionsByKey,
  definitionsNamed,
  definitionsOfKinds,
  definitionsQualified,
  type StoredDefinition,
} from '../store/definitions';
import { allRows } from '../store/sql';
import { ftsExpression, ftsFormsExpression, ftsRegions, matchingFiles, type FtsMode, type FtsRegionHit } from './fts';
import { ownedMemberOf } from './dotted';
import type { SearchHit } from './hit';
import { prunedAnyTermRegions, type PruneSettings } from './prune';
import { definitionKinds, type ParsedQuery } from './parse';
import type { IndexedFile, IndexReader } from './reader';

export type HitLane = Lane<SearchHit>;

const KIND_TIER: Readonly<Record<string, number>> = {
  struct: 0,
  enum: 0,
  trait: 0,
  class: 0,
  interface: 0,
  type: 0,
  function: 1,
  method: 1,
  macro: 1,
  prototype: 1,
  module: 2,
  constant: 2,
  variable: 3,
  extern: 3,
  field: 3,
  variant: 3,
  property: 3,
};

export function kindTier(kind: string): number {
  return KIND_TIER[kind] ?? 4;
}

/**
 * Kinds whose name owns members: a definition inside one has it as its container, and a
 * site inside one is in that type (`map` rows, `ctx` containers, `refs A::b` receivers).
 */
export const OWNER_KINDS: ReadonlySet<string> = new Set([
  'class',
  'struct',
  'enum',
  'trait',
  'interface',
  'impl',
  'union',
  'type',
  'module',
]);

/**
 * Definitions a site is said to be `within` (`refs`, `ctx` callers): not a variable, field,
 * variant or property, whose span is one assignment (`self.cache = create_cache(size)` in
 * `__init__` is in `Environment::__init__`, not in `Environment::cache`).
 */
export function isEnclosingKind(kind: string): boolean {
  return kindTier(kind) < 3;
}

/**
 * Whether a definition names the lines it holds (`in NAME` of refs rows and re: lines): an
 * enclosing kind, or a property or field written over several lines, whose lines are its
 * accessors' or initializer's code (a C# `MaxDepth { get { return _maxDepth; } … }` read
 * `in JsonReader`, an agent trial). A one-line field holds no line but its own.
 */
export function namesItsLines(d: {
  readonly kind: string;
  readonly startLine: number;
  readonly endLine: number;
}): boolean {
  return isEnclosingKind(d.kind) || ((d.kind === 'property' || d.kind === 'field') && d.endLine > d.startLine);
}

/**
 * The definitions of one file that name their lines (namesItsLines), but for those sharing
 * their span with another: one statement defining several names (`delegate :a, :b, :c,
 * to: :x` over three lines) is a list of declarations, not the body of its first name (an
 * ActiveSupport trial's refs row read `declaration in ActiveSupport::use_standard_json_time_format`
 * for the third line of such a `delegate`).
 */
export function enclosingDefinitions<
  D extends {
    readonly kind: string;
    readonly start: number;
    readonly end: number;
    readonly startLine: number;
    readonly endLine: number;
  },
>(defs: readonly D[]): D[] {
  const spans = new Map<string, number>();
  for (const d of defs) spans.set(`${d.start}:${d.end}`, (spans.get(`${d.start}:${d.end}`) ?? 0) + 1);
  return defs.filter((d) => namesItsLines(d) && spans.get(`${d.start}:${d.end}`) === 1);
}

/** Functions, methods, macros and prototypes: definitions whose body is code, not members. */
export function isCallableKind(kind: string): boolean {
  return KIND_TIER[kind] === 1;
}

/** Kinds that declare what another file defines: a C/C++ function's prototype, an `extern` variable. */
const DECLARATION_KINDS: ReadonlySet<string> = new Set(['prototype', 'extern']);

/**
 * 1 for a declaration of something defined elsewhere (a C/C++ prototype or `extern`
 * variable, anything in a TypeScript declaration file `*.d.ts`), else 0: the key after kind tier and test-or-not,
 * so `sym:schedule` is the function in kernel/sched/core.c, then its prototype in
 * include/linux/sched.h, then a selftest's own `schedule`; and axios's `getAdapter` is the
 * function in lib/adapters/adapters.js, not the property its index.d.ts types.
 */
export function declarationRank(kind: string, path?: string): number {
  return DECLARATION_KINDS.has(kind) || (path !== undefined && isTypeDeclarationPath(path)) ? 1 : 0;
}

/** C and C++ definitions other files cannot see when they sit in a source file: macros and types. */
const FILE_LOCAL_KINDS = new Set(['macro', 'struct', 'union', 'enum', 'type', 'typedef']);
const C_SOURCE = /\.(c|cc|cpp|cxx|c\+\+)$/i;

/**
 * Where a C or C++ definition is at home among others of the same name, 0 best: a file
 * named after it first (`libiberty/xmalloc.c` for `xmalloc`,
 * `include/linux/container_of.h`, after a project prefix `juce_String.h` for `String`:
 * an agent trial on JUCE got a vendored SDK's `Vst::Component` for `Component`), then, for macros and types, one in a header before one
 * local to a source file (`include/elf/common.h`'s `ELF_ST_TYPE` before a `.c` file's).
 * With the invocation directory at the root, path order picked a tool's private copy
 * (binutils' `bfd/doc/chew.c`, an agent trial). Other languages rank 0: npm's
 * `semver/internal/lrucache.js` is named after `LRUCache` but is not the lru-cache package
 * the concept replay labels (its sym: class lost R@1 with the rule for every language).
 * `show sym:` and the `sym:` lane order by it after declarationRank.
 */
export function definitionHomeRank(name: string, kind: string, path: string): number {
  const lang = languageOf(path);
  if (lang !== 'c' && lang !== 'cpp') return 0;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.includes('.') ? base.slice(0, base.indexOf('.')) : base;
  const lowerStem = stem.toLowerCase();
  const lowerName = name.toLowerCase();
  const namedAfter = lowerStem === lowerName || lowerStem.endsWith(`_${lowerName}`) ? 0 : 1;
  const fileLocal = FILE_LOCAL_KINDS.has(kind) && C_SOURCE.test(path) ? 1 : 0;
  return 2 * namedAfter + fileLocal;
}

export interface LaneContext {
  readonly reader: IndexReader;
  readonly query: ParsedQuery;
  readonly eligible: (f: IndexedFile) => boolean;
  truncated: boolean;
  /** The any-term lane may leave out regions that cannot rank (prune.ts); absent: it scans all. */
  readonly prune?: PruneSettings;
  /** Files a lane keeps, best first (default LANE_FILE_CAP); a lane cut there marks the search truncated. */
  readonly laneFiles?: number;
  /** Files the any-term lane of free text keeps (default ANY_TERM_LANE_FILE_CAP; never more than laneFiles). */
  readonly anyTermFiles?: number;
  /** The use rows of each name this query read (useRows), kept for the query's life. */
  readonly useRows?: Map<string, UseRow[]>;
  /**
   * When reads of live bytes that no index evidence ranks (a literal's trigram-only
   * candidates) stop, as `Date.now()` time; past it the search is truncated. Absent: no limit.
   */
  readonly deadlineAt?: number;
  /**
   * Files too large to index this query's live reads left (too-large.ts), set by the scan
   * that chose them (`re:`, a quoted literal): coverage names them.
   */
  tooLargeUnread?: readonly IndexedFile[];
}

/** The files a lane keeps in this context. */
export function laneFilesOf(ctx: LaneContext): number {
  return ctx.laneFiles ?? LANE_FILE_CAP;
}

/** The files the any-term lane of free text keeps in this context (its regions are the costly ones). */
export function anyTermFilesOf(ctx: LaneContext): number {
  return Math.min(laneFilesOf(ctx), ctx.anyTermFiles ?? ANY_TERM_LANE_FILE_CAP);
}

function cap<T>(entries: T[], ctx: LaneContext, keep = laneFilesOf(ctx)): T[] {
  if (entries.length > keep) {
    ctx.truncated = true;
    return entries.slice(0, keep);
  }
  return entries;
}

function hitOf(
  f: IndexedFile,
  lane: string,
  span: { start: number; end: number; sl: number; el: number },
  name?: string,
  kind?: string,
  alsoLines: readonly number[] = [],
): SearchHit {
  return {
    path: f.path,
    start: span.start,
    end: span.end,
    startLine: span.sl,
    endLine: span.el,
    lane,
    revision: f.revision,
    tags: f.tags,
    lang: queryLanguageOf(f.lang),
    ...(f.excluded ? { excluded: f.excluded } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(alsoLines.length > 0 ? { alsoLines } : {}),
  };
}

/** Kinds a definition may have when it only binds a name defined elsewhere (`Command = core.Command`). */
const BINDING_KINDS: ReadonlySet<string> = new Set(['variable', 'constant']);

/**
 * Whether a file's definitions of a name are all bindings (a variable or constant) while a type
 * or function of the same name is defined: a definition beats a binding (docs/spec/retrieval.md §6),
 * so such a file ranks as a user of the name, never as its definer.
 */
function bindingOnly(rows: readonly StoredDefinition[]): (r: { file: number; name: string }) => boolean {
  const defined = new Set(rows.filter((r) => kindTier(r.kind) <= 1).map((r) => r.name));
  const key = (r: { file: number; name: string }) => `${r.file}|${r.name}`;
  const real = new Set(rows.filter((r) => !BINDING_KINDS.has(r.kind)).map(key));
  const only = new Set(
    rows.filter((r) => BINDING_KINDS.has(r.kind) && defined.has(r.name) && !real.has(key(r))).map(key),
  );
  return (r) => only.has(key(r));
}

/** Definitions → one entry per file: by `first` (lower first), best kind tier, non-test before test, then path and span. */
function defLane(
  ctx: LaneContext,
  name: string,
  rows: StoredDefinition[],
  weight: number,
  exactFirst: string | null,
  first: (r: StoredDefinition) => number = () => 0,
): HitLane {
  const kinds = definitionKinds(ctx.query);
  const best = new Map<number, { row: StoredDefinition; f: IndexedFile }>();
  const rank = (r: StoredDefinition, f: IndexedFile) => [
    first(r),
    exactFirst !== null && r.name !== exactFirst ? 1 : 0,
    kindTier(r.kind),
    fileStanding(f),
    declarationRank(r.kind, f.path),
    r.start,
  ];
  const less = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  const starts = new Map<number, number[]>();
  for (const row of rows) {
    const f = ctx.reader.file(row.file);
    if (!f || !ctx.eligible(f)) continue;
    if (kinds.length > 0 && !kinds.includes(row.kind)) continue;
    const lines = starts.get(row.file);
    if (lines) lines.push(row.startLine);
    else starts.set(row.file, [row.startLine]);
    const seen = best.get(row.file);
    if (!seen || less(rank(row, f), rank(seen.row, seen.f))) best.set(row.file, { row, f });
  }
  const alsoLines = (row: StoredDefinition): number[] => otherLines(starts.get(row.file), row.startLine);
  // Across files the position inside each file decides nothing: the kernel's kmalloc at
  // include/linux/slab.h:549 came after every tools/ stub defined near its file's top (an
  // agent trial); path order does, after the rank.
  const acrossFiles = (r: StoredDefinition, f: IndexedFile) => rank(r, f).slice(0, -1);
  const entries = [...best.values()]
    .sort((a, b) => {
      const x = acrossFiles(a.row, a.f);
      const y = acrossFiles(b.row, b.f);
      return less(x, y) ? -1 : less(y, x) ? 1 : a.f.path < b.f.path ? -1 : 1;
    })
    .map(({ row, f }) => ({
      path: f.path,
      start: row.start,
      end: row.end,
      payload: hitOf(
        f,
        name,
        { start: row.start, end: row.end, sl: row.startLine, el: row.endLine },
        qualifiedName(row),
        row.kind,
        alsoLines(row),
      ),
    }));
  return { name, weight, entries: cap(entries, ctx) };
}

/** A file's other matching definitions, by first line (one line holds one entry), ascending. */
export function otherLines(lines: readonly number[] | undefined, own: number): number[] {
  return [...new Set(lines ?? [])].filter((l) => l !== own).sort((a, b) => a - b);
}

/** Lane 1: exact definitions of the whole text (`A::b` → `b` owned by `A`), then normalized names. */
export function definitionLane(ctx: LaneContext): HitLane {
  const text = ctx.query.text;
  const weight = ctx.query.identifier ? WEIGHT_IDENTIFIER_DECLARATION : WEIGHT_DEFAULT;
  const scoped = text.split('::');
  if (scoped.length > 1) return defLane(ctx, 'definitions', definitionsQualified(ctx.reader.db, scoped), weight, null);
  // `HashMap.resize`, `HashMap#resize` (Javadoc): the member of that owner, when one is
  // defined, answers first, as `show sym:` and `refs` read it (dotted.ts). An agent trial on
  // the JDK: `search HashMap.resize` showed HashMap.java at a call in `compute`.
  const member = ownedMemberOf(text);
  if (member) {
    const owned = definitionsNamed(ctx.reader.db, member.name, member.owner);
    if (owned.length > 0) return defLane(ctx, 'definitions', owned, WEIGHT_IDENTIFIER_DECLARATION, null);
  }
  // Every exact match has the same normalized key, so the key table answers both. The key
  // finds `TokenBucket` for `token_bucket`; but where the name is defined as spelled, another
  // spelling is another thing: SQLAlchemy's `self.session = session` fields stood 2nd and
  // 3rd for `search Session`, before the files using the class (an agent trial).
  const keyed = definitionsByKey(ctx.reader.db, identifierKey(text));
  const binding = bindingOnly(keyed);
  const defined = keyed.filter((r) => !binding(r));
  const exact = defined.filter((r) => r.name === text);
  return defLane(ctx, 'definitions', exact.length > 0 ? exact : defined, weight, text);
}

/**
 * Definitions of the requested kinds whose names hold the query words (kind: queries). When
 * none holds every word, the ones holding the most of them, most first: `kind:fn writeback
 * dirty inode pages file:fs/fs-writeback.c` answered 0 hits, said only that the filters'
 * combination was empty, while `writeback_single_inode` was there (an agent trial on the
 * kernel). Stopwords never hold a name alone (`the` is in `gather`).
 */
export function kindWordLane(ctx: LaneContext): HitLane {
  const kinds = definitionKinds(ctx.query);
  if (kinds.length === 0) return { name: 'kind', weight: WEIGHT_DEFAULT, entries: [] };
  const words = ctx.query.words;
  const every = definitionsOfKinds(ctx.reader.db, kinds, words);
  if (every.length > 0 || words.length < 2) return defLane(ctx, 'kind', every, WEIGHT_DEFAULT, null);
  const telling = words.filter((w) => !isStopword(w));
  if (telling.length === 0) return defLane(ctx, 'kind', [], WEIGHT_DEFAULT, null);
  const held = new Map<string, number>();
  const holds = (r: StoredDefinition) => {
    let n = held.get(r.name);
    if (n === undefined) {
      const key = identifierKey(r.name);
      n = telling.filter((w) => key.includes(w)).length;
      held.set(r.name, n);
    }
    return n;
  };
  const some = definitionsOfKinds(ctx.reader.db, kinds, telling, 'any');
  return defLane(ctx, 'kind', some, WEIGHT_DEFAULT, null, (r) => -holds(r));
}

export interface UseRow {
  file: number;
  count: number;
  roles: number;
  start: number;
  end: number;
  line: number;
}

export function useRows(ctx: LaneContext, name: string): UseRow[] {
  // The identifier lane and its fusion tiers read the same rows (kfree: 5,000 of them).
  const cached = ctx.useRows?.get(name);
  if (cached) return cached;
  const rows = readUseRows(ctx, name);
  ctx.useRows?.set(name, rows);
  return rows;
}

function readUseRows(ctx: LaneContext, name: string): UseRow[] {
  return allRows(
    ctx.reader.db,
    'SELECT u.file, u.count, u.roles, u.start, u.start + u.len, u.line FROM use u JOIN name n ON n.id = u.name WHERE n.text = ?',
    [name],
  ).map((r) => ({
    file: Number(r[0]),
    count: Number(r[1]),
    roles: Number(r[2]),
    start: Number(r[3]),
    end: Number(r[4]),
    line: Number(r[5]),
  }));
}

/** The identifier lane, and whether its cap cut files that use the identifier. */
export interface IdentifierLane extends HitLane {
  readonly cut: boolean;
}

/** Lane 2: files with occurrences of one identifier, most uses first. */
export function identifierLane(ctx: LaneContext, name: string): IdentifierLane {
  const rows = useRows(ctx, name)
    .map((u) => ({ u, f: ctx.reader.file(u.file) }))
    .filter((x): x is { u: UseRow; f: IndexedFile } => !!x.f && ctx.eligible(x.f))
    .sort((a, b) => b.u.count - a.u.count || (a.f.path < b.f.path ? -1 : 1));
  // Capped before the hits are made: kfree's 5,000 files keep 1,000.
  const kept = cap(rows, ctx);
  const entries = kept.map(({ u, f }) => ({
    path: f.path,
    start: u.start,
    end: u.end,
    payload: hitOf(
      f,
      'identifier',
      { start: u.start, end: u.end, sl: u.line, el: u.line },
      (u.roles & ROLE.declaration) !== 0 ? name : undefined,
    ),
  }));
  return { name: 'identifier', weight: WEIGHT_DEFAULT, entries, cut: kept.length < rows.length };
}

/** Lanes 3 and 4: FTS over regions, collapsed to the best region per file. */
export function ftsLane(
  ctx: LaneContext,
  name: string,
  mode: FtsMode,
  weight: number,
  only?: readonly string[],
): HitLane {
  const words = only ?? ctx.query.words;
  if (words.length === 0) return { name, weight, entries: [] };
  const best = new Map<number, { score: number; hit: SearchHit; start: number; end: number }>();
  // An identifier is one term: search the tokens the FTS tokenizer made of it
  // (`JoinHandle` → joinhandle, `spawn_blocking` → "spawn blocking"), not its split words.
  const tokens = ctx.query.identifier && !only ? identifierTokens(ctx.query.text) : words;
  const anyTerm = mode === 'any' && !ctx.query.identifier;
  const regions = anyTerm
    ? anyTermRegions(ctx, tokens)
    : ftsRegions(ctx.reader.db, ftsExpression(tokens, ctx.query.identifier ? 'phrase' : mode));
  for (const r of regions) {
    const f = ctx.reader.file(r.file);
    if (!f || !ctx.eligible(f)) continue;
    const seen = best.get(r.file);
    if (!seen || r.score > seen.score || (r.score === seen.score && r.start < seen.start)) {
      best.set(r.file, { score: r.score, start: r.start, end: r.end, hit: hitOf(f, name, r) });
    }
  }
  const entries = [...best.values()]
    .sort(
      (a, b) => b.score - a.score || (a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : a.start - b.start),
    )
    .map((x) => ({ path: x.hit.path, start: x.start, end: x.end, payload: x.hit }));
  return { name, weight, entries: cap(entries, ctx, anyTerm ? anyTermFilesOf(ctx) : laneFilesOf(ctx)) };
}

/**
 * Regions of the any-term lane: each query word as typed and its stem as a prefix
 * (word-forms.ts), each region's BM25 scaled by the share of the query's non-stopword
 * words it holds (fts.ts coordination). Stopwords still score (they favour regions that
 * explain in prose, docs/ranking.md) but never count toward the share.
 */
function anyTermRegions(ctx: LaneContext, words: readonly string[]): FtsRegionHit[] {
  const forms = words.map(wordFormTerms);
  const owners = forms.flatMap((f, i) => f.map(() => (isStopword(words[i]) ? -1 : i)));
  // Regions holding only stopwords score 0 (their share is 0) yet were read and scored: on
  // the kernel `a` alone put 128,000 of them into `allocate a new inode` (570-770 against
  // 205-300 ms for the statement). The content words select the rows; every word scores.
  const content = forms.filter((_, i) => !isStopword(words[i]));
  const expression = ftsFormsExpression(forms);
  const pruned =
    ctx.prune &&
    prunedAnyTermRegions(
      ctx,
      forms.map((f, i) => ({ forms: f, content: !isStopword(words[i]) })),
      expression,
      owners,
      ctx.prune,
    );
  if (pruned) return pruned;
  const selectOnly =
    content.length > 0 && content.length < forms.length
      ? { expression: ftsFormsExpression(content), phrases: content.flat().length }
      : undefined;
  return ftsRegions(ctx.reader.db, expression, owners, selectOnly);
}

/**
 * An identifier's mentions outside the files that define or use it: the files whose text
 * spells it where no extractor read it (a Markdown guide, a config file, a language
 * without a grammar), most matching regions first, each at its first one. It stands for
 * the any-term lane when the identifier occurs (search.ts), without BM25: inside an
 * identifier's fusion tiers the definitions and uses lanes order the files that hold it.
 */
export function mentionLane(ctx: LaneContext, holding: ReadonlySet<string>): HitLane {
  const entries = matchingFiles(ctx.reader.db, ftsExpression(identifierTokens(ctx.query.text), 'phrase'))
    .map((m) => ({ m, f: ctx.reader.file(m.file) }))
    .filter((x): x is { m: (typeof x)['m']; f: IndexedFile } => !!x.f && ctx.eligible(x.f) && !holding.has(x.f.path))
    .sort((a, b) => b.m.regions - a.m.regions || (a.f.path < b.f.path ? -1 : 1))
    .map(({ m, f }) => ({ path: f.path, start: m.start, end: m.end, payload: hitOf(f, 'any_term', m) }));
  return { name: 'any_term', weight: WEIGHT_ANY_TERM, entries: cap(entries, ctx) };
}

/** The FTS tokens of an identifier: alphanumeric runs, lowercased. */
export function identifierTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Filename evidence: every eligible path (excluded files included: they stay findable by
 * path). `partial: false` keeps only paths naming the whole query (its stem, or all its
 * words in the basename), not paths naming some word of it.
 */
export function filenameLane(
  ctx: LaneContext,
  firstRegion: (f: IndexedFile) => { start: number; end: number; sl: number; el: number },
  options: { readonly partial: boolean } = { partial: true },
): HitLane {
  const scored: { f: IndexedFile; evidence: number; naming: { base: number; path: number } }[] = [];
  const words = ctx.query.words;
  const files = ctx.reader.files();
  const score = filenameScorer(ctx.query.text, words);
  // Cheap screen: evidence needs one of these words in the (decoded) path.
  for (const i of ctx.reader.pathsHolding(filenameScreenWords(words))) {
    const f = files[i];
    if (!ctx.eligible(f)) continue;
    const match = score(ctx.reader.pathWordsAt(i));
    if (match && (options.partial || match.evidence > FILENAME_PARTIAL)) scored.push({ f, ...match });
  }
  // Equal evidence: the path naming more of the query's words first (pathNaming), not the
  // earlier letter.
  scored.sort(
    (a, b) =>
      b.evidence - a.evidence ||
      b.naming.base - a.naming.base ||
      b.naming.path - a.naming.path ||
      (a.f.path < b.f.path ? -1 : 1),
  );
  // Capped before the spans are read: each is a query, and a common word's paths are thousands.
  const entries = cap(scored, ctx).map(({ f, evidence }) => {
    const span = firstRegion(f);
    return { path: f.path, start: span.start, end: span.end, weight: evidence, payload: hitOf(f, 'filename', span) };
  });
  return { name: 'filename', weight: WEIGHT_DEFAULT, entries };
}

/**
 * Identifier tiers: stem is the token in a file that declares it, then declaring files,
 * then using files and files only named like it, then the rest.
 * Declaring means declaring the name as spelled when some file does: the normalized key
 * joins `__kmalloc` to `kmalloc` and `token_bucket` to `TokenBucket`, which finds a
 * definition spelled otherwise, but must not rank C's internal `__kmalloc` beside the
 * `kmalloc` asked for.
 */
export function identifierTiers(ctx: LaneContext, name: string, defs: HitLane): (path: string) => number {
  const token = name.split('::').pop()!;
  const exact = defs.entries.filter((e) => e.payload.name?.split('::').pop() === token);
  const declaring = new Set((exact.length > 0 ? exact : defs.entries).map((e) => e.path));
  const using = new Set<string>();
  const binding = bindingOnly(definitionsByKey(ctx.reader.db, identifierKey(token)));
  for (const u of useRows(ctx, name)) {
    const f = ctx.reader.file(u.file);
    if (!f) continue;
    if ((u.roles & ROLE.declaration) !== 0 && !binding({ file: u.file, name: token })) declaring.add(f.path);
    else using.add(f.path);
  }
  const normToken = identifierKey(token);
  // A file named like the identifier leads only when it declares it: the kernel's
  // arch/*/kmalloc.h files (which define ARCH_DMA_MINALIGN) must not stand before the
  // kmalloc of include/linux/slab.h, nor SQLAlchemy's ext/asyncio/engine.py (which uses
  // `Engine`) before engine/base.py's `class Engine` (an agent trial). Named and using it,
  // or named alone, it stands with the files that use it.
  return (path) => {
    const s = stem(path);
    const named = s === token || identifierKey(s) === normToken;
    if (named && declaring.has(path)) return 0;
    if (declaring.has(path)) return 1;
    if (named || using.has(path)) return 2;
    return 3;
  };
}
