// The navigation verbs as commands: refs, map, ctx (show sym: lives with show).
import { FILE_MAX_BYTES, parseQuery, quoteInput, type IndexedFile, type ParsedQuery } from '@trufflepig/index';
import {
  counted,
  DEFAULT_BUDGET,
  escapeLineField,
  jsonLine,
  printedPath,
  renderObject,
  withinBudget,
} from '@trufflepig/render';
import { formatHandle, type LiveSourceEntry, type ResultEntry, type StoredSet } from '@trufflepig/result-cache';
import {
  errorResult,
  firstKnown,
  storesFor,
  withContext,
  withPageShape,
  type CommandOptions,
  type CommandResult,
} from '../core/command-kit';
import { memberPrefixed, type Context } from '../core/context';
import { symbolHandle } from './show-symbol';
import { fail, ok, type Outcome } from '../core/errors';
import {
  CTX_LIST_MAX,
  CTX_LIST_LIMIT_MAX,
  fileRows,
  filesUnder,
  nearestNames,
  nearestPaths,
  outline,
  pathReadings,
  referenceSites,
  tooLargeMentions,
  unparsedMentions,
  refsMainDefinition,
  renderNavPage,
  spanEntry,
  structuralContext,
  type CtxItem,
  type MapRow,
  type NavPageInput,
  type NavTarget,
  type NavVerb,
  type RefsOutcome,
} from '@trufflepig/navigation';
import type { Host } from '../core/host';
import { closeTargets, openMembers, openOwner, openTargets, type NavTargets } from './open';
import { renderedResult } from '../core/render-choice';
import { releaseReader } from '../core/reader-pool';
import { settleHandle } from '../core/settle';
import { staleFilesOf, staleFilesWords } from '../core/stale';
import { readEachOnce } from '../core/live';
import {
  tooLargeFields,
  tooLargeUnsearchedFields,
  tooLargeNotes,
  unparsedFields,
  unparsedWords,
  lastSegment,
  useRowsOf,
} from '@trufflepig/navigation';

function membersMap(entries: readonly ResultEntry[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const e of entries) if (e.member !== undefined) out[e.member] = e.root;
  return Object.keys(out).length ? out : undefined;
}

function skippedCoverage(nav: NavTargets): Record<string, unknown> {
  return nav.skipped.length
    ? { skipped: Object.fromEntries(nav.skipped.map((s) => [s.member, { state: s.state, reason: s.reason }])) }
    : {};
}

/** Save a refs or map answer as a result set: the data of its first page. */
function saveNav(
  ctx: Context,
  opts: CommandOptions,
  verb: NavVerb,
  query: string,
  entries: LiveSourceEntry[],
  truncated: boolean,
  coverage: Record<string, unknown>,
  coverageLine: string,
): Outcome<NavPageInput> {
  const members = membersMap(entries);
  // The page's coverage and header are kept with the set, so `more` renders the same rows.
  const saved = storesFor(ctx, opts)[0].save(
    {
      query,
      truncated,
      words: [],
      nav: verb,
      coverage,
      coverageLine,
      ...(members ? { members } : {}),
      ...withPageShape(opts),
    },
    entries,
  );
  if (!saved.ok) return fail(saved.error.code, saved.error.message);
  return ok({
    verb,
    query,
    setId: saved.value.id,
    offset: 0,
    entries: entries.slice(0, saved.value.stored),
    truncated: saved.value.truncated || truncated,
    coverage,
    coverageLine,
    ...(members ? { members } : {}),
  });
}

/** A refs or map page as a command's answer, or its error. */
function navAnswer(data: Outcome<NavPageInput>, opts: CommandOptions, budget: number): CommandResult {
  return data.ok ? navPage(data.value, opts, budget) : errorResult(data.error, budget);
}

function navPage(input: NavPageInput, opts: CommandOptions, budget: number): CommandResult {
  // JSON when not given, as every command of this API (the CLI defaults to lines).
  return renderedResult(opts, (format) =>
    renderNavPage(input, { format, budget, ...(opts.limit !== undefined ? { limit: opts.limit } : {}) }),
  );
}

/** The page data of a refs or map set from `offset` (for `more`), else undefined. */
export function navPageOfSet(set: StoredSet, offset: number): NavPageInput | undefined {
  const m = set.meta;
  if (m.nav !== 'refs' && m.nav !== 'map') return undefined;
  const all = set.entries;
  // refs and map store file spans only: a set holding another entry is no page of theirs.
  if (!all.every((e): e is LiveSourceEntry => e.tag === 'live_source')) return undefined;
  const entries = all.slice(offset);
  const main = m.nav === 'refs' ? refsMainDefinition(all) : undefined;
  return {
    verb: m.nav,
    query: m.query,
    setId: set.id,
    offset,
    entries,
    truncated: m.truncated,
    coverage: m.coverage ?? {},
    coverageLine: m.coverageLine ?? '',
    ...(m.members ? { members: m.members } : {}),
    ...(main !== undefined ? { main } : {}),
  };
}

/** `more` on a refs or map set: the same row format from the cursor on, else undefined. */
export function navMore(
  set: StoredSet,
  offset: number,
  opts: CommandOptions,
  budget: number,
): CommandResult | undefined {
  const input = navPageOfSet(set, offset);
  return input ? navPage(input, opts, budget) : undefined;
}

function parseNav(words: readonly string[], verb: string, example: string): Outcome<ParsedQuery> {
  const parsed = parseQuery(words);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  if (parsed.value.mode === 're' || parsed.value.mode === 'literal' || !parsed.value.text)
    return fail('bad_query', `${verb} takes a name and filters, e.g. ${example}`);
  return parsed;
}

/** Run `visit` on the selected targets; a home without results widens to the other members. */
async function visitWidening<T>(
  host: Host,
  nav: NavTargets,
  cwd: string,
  visit: (targets: readonly NavTarget[]) => T,
  empty: (r: T) => boolean,
): Promise<{ result: T; targets: NavTarget[]; widened: boolean }> {
  const targets = [...nav.targets];
  let result = visit(targets);
  let widened = false;
  if (empty(result) && nav.widenTo.length > 0) {
    const more = await openMembers(host, nav.widenTo, cwd);
    targets.push(...more.targets);
    result = visit(targets);
    widened = true;
  }
  return { result, targets, widened };
}

function refsEntries(r: RefsOutcome): LiveSourceEntry[] {
  return r.sites.map((s) =>
    spanEntry(
      s.target,
      s.file,
      { start: s.start, end: s.end, startLine: s.line, endLine: s.line },
      {
        role: s.role,
        ...(s.roles ? { roles: s.roles } : {}),
        resolution: s.resolution,
        ...(s.definition ? { definition: s.definition } : {}),
        ...(s.within ? { within: s.within } : {}),
        text: s.text,
        ...(s.repeats > 1 ? { repeats: s.repeats } : {}),
      },
    ),
  );
}

/** `refs NAME [filters]` up to its saved set: the data of the first page. */
export async function refsData(
  ctx: Context,
  words: readonly string[],
  opts: CommandOptions,
): Promise<Outcome<NavPageInput>> {
  const q = parseNav(words, 'refs', 'refs TokenBucket, refs TokenBucket::refill file:src/');
  if (!q.ok) return q;
  const cwd = opts.cwd ?? process.cwd();
  const nav = await openTargets(ctx, q.value, cwd);
  if (!nav.ok) return nav;
  const query = nav.value.query;
  const { result, targets, widened } = await visitWidening(
    ctx.host,
    nav.value,
    cwd,
    (t) => referenceSites(t, query),
    (r) => r.sites.length === 0,
  );
  try {
    const entries = refsEntries(result);
    const counts = { resolved: 0, candidate: 0, unresolved: 0 };
    for (const s of result.sites) counts[s.resolution] += s.repeats;
    // No site at all: the names defined nearest it, as show sym: suggests (a misspelt name,
    // another case); none for a name that is defined (an operator's uses are no names:
    // `refs Handle::operator==` suggested `operator+`).
    const bareName = q.value.text.split('::').pop()!;
    const nearest =
      result.siteCount === 0 && !targets.some((t) => t.reader.definitions(bareName).length > 0)
        ? nearestNames(targets, bareName)
        : [];
    const unparsed = unparsedMentions(targets, query);
    const tooLarge = tooLargeMentions(targets, query);
    const operator = operatorSpelling(bareName);
    const coverage: Record<string, unknown> = {
      reference_sites: result.siteCount,
      reference_files: result.files,
      ...counts,
      ...(result.truncated ? { reference_sites_truncated: true } : {}),
      ...(result.unread ? { unread_files: result.unread } : {}),
      ...(result.stale ? { stale_files: result.stale } : {}),
      ...(result.otherKinds ? { other_kind_sites: result.otherKinds } : {}),
      ...(unparsed.length ? unparsedFields(unparsed) : {}),
      ...(tooLarge.mentioning.length ? tooLargeFields(tooLarge.mentioning) : {}),
      ...(tooLarge.unsearched.length ? tooLargeUnsearchedFields(tooLarge.unsearched) : {}),
      ...(nav.value.scope ? { scope: widened ? 'home_widened' : nav.value.scope } : {}),
      ...skippedCoverage(nav.value),
      ...(nearest.length ? { nearest_defined: nearest } : {}),
      ...(operator !== undefined ? { operator_uses: 'not_indexed' } : {}),
    };
    const line = [
      `${counted(result.siteCount, 'site')} in ${counted(result.files, 'file')} (${counts.resolved} resolved, ${counts.candidate} candidate, ${counts.unresolved} unresolved)`,
      ...(result.truncated
        ? [
            result.unread
              ? `reference_sites_truncated: ${result.unread} more files hold the name, unread (narrow with file:DIR or -file:DIR)`
              : 'reference_sites_truncated',
          ]
        : []),
      ...(result.stale ? [staleFilesWords(result.stale)] : []),
      ...(result.otherKinds
        ? [`${counted(result.otherKinds, 'site')} of other kinds' definitions left out (${kindWords(q.value)})`]
        : []),
      ...(unparsed.length ? [unparsedWords(unparsed, bareName, 'references')] : []),
      ...tooLargeNotes(tooLarge, bareName),
      ...nav.value.skipped.map((s) => `${s.member} ${s.state} (${s.reason})`),
      ...(widened ? ['scope home, no sites there: widened to all members'] : []),
      ...(nearest.length ? [`nearest defined: ${nearest.join(', ')} (refs ${nearest[0]})`] : []),
      ...(operator !== undefined
        ? [
            `an operator's uses (a ${operator || '…'} b) are no sites${operator ? `: search "${operator}" lists their lines` : ''}`,
          ]
        : []),
    ].join('; ');
    return saveNav(ctx, opts, 'refs', `refs ${words.join(' ')}`, entries, result.truncated, coverage, line);
  } finally {
    closeTargets(targets);
  }
}

export function refsCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) =>
    navAnswer(await refsData(ctx, words, opts), opts, budget),
  );
}

/** The `kind:` filters of a query as typed back (`kind:trait`, `kind:function kind:method`). */
function kindWords(q: ParsedQuery): string {
  return q.kinds.map((k) => `kind:${k}`).join(' ');
}

/**
 * What an operator method's name spells in its uses (`<=>` for Ruby's `<=>`, `==` for C++'s
 * `operator==`; '' for a conversion `operator bool`), undefined for a name of words. Its
 * uses are operator tokens, which no extractor reads as sites: `refs '<=>'` answered `0
 * sites in 0 files` for a method ActiveSupport defines five times and uses in every
 * comparison (a Ruby trial).
 */
function operatorSpelling(name: string): string | undefined {
  const spelled = /^operator\b/.test(name) ? name.replace(/^operator\s*/, '') : name;
  if (spelled !== name && /\w/.test(spelled)) return '';
  return spelled !== '' && !/\w/.test(spelled) ? spelled : undefined;
}

/** A file's outline, else the files under a prefix; each reading of the path in turn (pathReadings). */
function mapRows(
  targets: readonly NavTarget[],
  wanted: string,
): { rows: MapRow[]; kind: 'file' | 'prefix'; file?: IndexedFile; stale?: number; imports?: number } {
  const readings = pathReadings(wanted);
  for (const encoded of readings) {
    const exact: MapRow[] = [];
    let file: IndexedFile | undefined;
    let excluded: IndexedFile | undefined;
    const read = readEachOnce();
    const outlined: { root: string; f: IndexedFile }[] = [];
    for (const t of targets) {
      const f = t.reader.fileByPath(encoded);
      if (f && !f.excluded) {
        file ??= f;
        exact.push(...outline(t, f, read));
        outlined.push({ root: t.root, f });
      } else if (f) excluded ??= f;
    }
    // An excluded file is still the file asked for: outlineState says why it has no outline.
    file ??= excluded;
    // An outline is the index's: a file edited since says so (a Ruby trial's `map` listed
    // `13-15 method squish` two lines off after an edit, with nothing said).
    const stale = outlined.reduce((n, o) => n + staleFilesOf(o.root, [o.f], read), 0);
    const imports = outlinedImports(targets, outlined.length > 0 ? outlined[0].f.path : undefined);
    if (file) return { rows: exact, kind: 'file', file, ...(stale ? { stale } : {}), ...(imports ? { imports } : {}) };
  }
  for (const encoded of readings) {
    const rows: MapRow[] = [];
    for (const t of targets) rows.push(...fileRows(t, filesUnder(t.reader, encoded)));
    if (rows.length) return { rows, kind: 'prefix' };
  }
  return { rows: [], kind: 'prefix' };
}

/** How many imports the outlined file has (its first target's); undefined for none. */
function outlinedImports(targets: readonly NavTarget[], path: string | undefined): number | undefined {
  if (path === undefined) return undefined;
  const n = targets.find((t) => t.reader.fileByPath(path))?.reader.fileImports(path).length ?? 0;
  return n > 0 ? n : undefined;
}

/**
 * Why a file's outline may be short, when it may: a file indexed as text has none, one
 * that did not parse has none, one that parsed partially may lack definitions. `status`
 * counts parse failures for the root; `map` says it of the file it prints (an agent trial
 * on spdlog read a partial outline as the whole of `logger.h`).
 */
function outlineState(
  f: IndexedFile,
): { state: 'excluded' | 'text' | 'failed' | 'partial' | 'fact_limit'; words: string } | undefined {
  if (f.excluded) return { state: 'excluded', words: excludedWords(f) };
  if (f.lang === 'text') return { state: 'text', words: 'indexed as text: no outline for its language' };
  if (f.parse === 'failed') return { state: 'failed', words: 'the file did not parse: no outline' };
  if (f.factLimited) return { state: 'fact_limit', words: 'outline cut at the per-file fact limit' };
  if (f.parse === 'partial')
    return { state: 'partial', words: 'parsed partially: definitions in the unparsed parts are missing' };
  return undefined;
}

/**
 * Why an excluded file has no outline, and what reads it instead. `map sqlite3.c` of the
 * SQLite amalgamation (9.5 MB) answered `0 items` alone, as if the file defined nothing
 * (an agent trial).
 */
function excludedWords(f: IndexedFile): string {
  const p = printedPath(f.path);
  if (f.excluded === 'too_large')
    return `not indexed: ${f.size.toLocaleString('en-US')} bytes, over the ${FILE_MAX_BYTES.toLocaleString('en-US')}-byte bound, so no outline; search re:PATTERN file:${p} or "TEXT" file:${p} finds its lines, show path:${p}:A-B reads them`;
  return `not indexed (${f.excluded}): no outline`;
}

/** `map PATH` up to its saved set: the data of the first page. */
export async function mapData(
  ctx: Context,
  words: readonly string[],
  opts: CommandOptions,
): Promise<Outcome<NavPageInput>> {
  const given = words.filter((w) => /^(in|ws):/.test(w));
  const asked = words.filter((w) => !/^(in|ws):/.test(w));
  if (asked.length !== 1)
    return fail('bad_arguments', 'map takes one PATH (a file or a directory prefix), e.g. map src/lib.rs or map src/');
  // `MEMBER/path` as workspace pages print it maps that member's path; a path that member
  // does not hold is read as typed (a directory named like a member).
  const prefixed =
    ctx.kind === 'workspace' && given.length === 0 && ctx.ws.member === undefined
      ? memberPrefixed(ctx.ws, asked[0])
      : undefined;
  if (prefixed) {
    const inMember = await mapData(ctx, [`in:${prefixed.member.name}`, prefixed.path || '.'], opts);
    if (inMember.ok || inMember.error.code !== 'no_indexed_path') return inMember;
  }
  const selectors = given;
  const paths = asked;
  // Only the selectors matter here; kind:file makes the query non-empty.
  const parsed = parseQuery([...selectors, 'kind:file']);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  const cwd = opts.cwd ?? process.cwd();
  const nav = await openTargets(ctx, parsed.value, cwd);
  if (!nav.ok) return nav;
  const { result, targets, widened } = await visitWidening(
    ctx.host,
    nav.value,
    cwd,
    (t) => mapRows(t, paths[0]),
    (r) => r.rows.length === 0 && r.kind === 'prefix',
  );
  try {
    if (result.rows.length === 0 && result.kind === 'prefix') {
      // `zod/src/v3/nonexist.ts` is nearest to zod's `src/v3/` first: read as typed, every
      // member shares no leading part with it (a trial was offered zod/LICENSE, zod/README.md).
      const readings = [
        ...targets.filter((t) => prefixed && t.member === prefixed.member.name).map((t) => ({ t, p: prefixed!.path })),
        ...targets.map((t) => ({ t, p: paths[0] })),
      ];
      const nearest = [
        ...new Set(
          readings.flatMap(({ t, p: wanted }) =>
            nearestPaths(t.reader, wanted).map((p) => (t.member ? `${t.member}/${printedPath(p)}` : printedPath(p))),
          ),
        ),
      ].slice(0, 3);
      return fail(
        'no_indexed_path',
        `no indexed file is ${quoteInput(printedPath(pathReadings(paths[0])[0]))} or lies under it${nearest.length ? `; nearest: ${nearest.join(', ')}` : ''}`,
      );
    }
    const entries = result.rows.map((r) => ({
      ...r.entry,
      ...(r.detail ? { names: r.detail.names as string[] } : {}),
    }));
    // The file mapRows outlined, not a second lookup that could take another reading of the path.
    const outlineOf = result.file ? outlineState(result.file) : undefined;
    // A module made of imports (`fastapi/requests.py`: two `from … import X as X`, its public
    // API) outlined `0 items` and said nothing more (a Python trial): its imports are counted
    // where they are at least as many as its items.
    const importsSaid = result.kind === 'file' && result.imports !== undefined && result.imports >= entries.length;
    const coverage: Record<string, unknown> = {
      [result.kind === 'file' ? 'items' : 'files']: entries.length,
      ...(outlineOf ? { outline: outlineOf.state } : {}),
      ...(result.file?.excluded ? { excluded: result.file.excluded } : {}),
      ...(nav.value.scope ? { scope: widened ? 'home_widened' : nav.value.scope } : {}),
      ...skippedCoverage(nav.value),
      ...(result.stale ? { stale_files: result.stale } : {}),
      ...(importsSaid ? { imports: result.imports } : {}),
    };
    const importWords = importsSaid
      ? `; ${counted(result.imports!, 'import')} not outlined (show path:${printedPath(result.file!.path)} reads them)`
      : '';
    const line = `${counted(entries.length, result.kind === 'file' ? 'item' : 'file')}${outlineOf ? `; ${outlineOf.words}` : ''}${importWords}${result.stale ? `; ${staleFilesWords(result.stale)}` : ''}${widened ? '; scope home, nothing there: widened to all members' : ''}`;
    return saveNav(ctx, opts, 'map', `map ${words.join(' ')}`, entries, false, coverage, line);
  } finally {
    closeTargets(targets);
  }
}

export function mapCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) =>
    navAnswer(await mapData(ctx, words, opts), opts, budget),
  );
}

/** One located item of a `ctx` answer; `handle` reads it back. */
export interface CtxRow {
  readonly handle: string;
  readonly member?: string;
  /** Path as printed (see Hit.path). */
  readonly path: string;
  /** 1-based first line. */
  readonly line: number;
  readonly name?: string;
  readonly kind?: string;
  /** For callers: the definition the call sits in. */
  readonly within?: string;
  /** For callers: the function is passed there as a value, not called (navigation's CtxItem). */
  readonly as_value?: true;
  /** For callees: `candidate` when only the name chose the definition (navigation's CtxItem). */
  readonly resolution?: 'candidate';
}

/**
 * The answer of `ctx HANDLE`, its keys in the order JSON prints them: `members` for a type,
 * `siblings` otherwise.
 */
export interface CtxValue {
  readonly handle: string;
  readonly symbol?: CtxRow;
  readonly container?: CtxRow;
  readonly members?: readonly CtxRow[];
  readonly siblings?: readonly CtxRow[];
  readonly callers: readonly CtxRow[];
  readonly callees: readonly CtxRow[];
  readonly implementations?: readonly CtxRow[];
  readonly subclasses?: readonly CtxRow[];
  readonly bases?: readonly CtxRow[];
  /** A method: its namesakes in derived or implementing classes, and the base's it overrides. */
  readonly overridden_by?: readonly CtxRow[];
  readonly overrides?: readonly CtxRow[];
  readonly unresolved_bases?: readonly string[];
  readonly unresolved_callees?: readonly string[];
  readonly omitted?: number;
  /** `omitted` by list: `members`, `callees`, `implementations`, … (each above 0). */
  readonly omitted_by?: Readonly<Record<string, number>>;
  readonly members_more?: string;
  readonly callers_more?: string;
  readonly subclasses_more?: string;
  readonly implementations_more?: string;
  /** `ctx sym:`: how many other definitions the name has, and the `show sym:` naming them. */
  readonly also_definitions?: number;
  readonly also_more?: string;
  /** The workspace's other members whose indexes hold the name, with `refs` reading their sites. */
  readonly elsewhere?: readonly MemberMentions[];
  readonly note?: string;
  readonly generation: number;
}

/** Files of another member that hold a name, and the `refs` that lists their sites. */
export interface MemberMentions {
  readonly member: string;
  readonly files: number;
  readonly refs: string;
}

/**
 * The workspace's other members whose indexes hold `name` (any occurrence: a call, an
 * import, a mention), with how many files: `ctx` lists its own member's callers, and no
 * edge crosses members (docs/spec/workspace-contract.md), so a member calling another's API
 * is said, not left out in silence. A workspace trial read urllib3's `proxy_from_url` and
 * idna's `encode` as called from nowhere else; requests calls both. None outside a workspace.
 */
async function otherMembersNaming(
  ctx: Context,
  owner: string | undefined,
  name: string,
  cwd: string,
): Promise<MemberMentions[]> {
  if (ctx.kind !== 'workspace' || owner === undefined) return [];
  const others = ctx.ws.members.filter((m) => m.name !== owner);
  if (others.length === 0) return [];
  const { targets } = await openMembers(ctx.host, others, cwd);
  try {
    const out: MemberMentions[] = [];
    for (const t of targets) {
      const files = new Set(useRowsOf(t.reader, name).map((u) => u.file.id)).size;
      if (files > 0 && t.member) out.push({ member: t.member, files, refs: `refs ${name} in:${t.member}` });
    }
    return out;
  } finally {
    closeTargets(targets);
  }
}

/**
 * The `map` reads that list a type's members: its own file's, then each other file holding
 * some (a Go type's methods in the other files of its package).
 */
function mapsOf(printed: readonly string[]): string {
  return [...new Set(printed)].map((p) => `map ${p}`).join(', ');
}

/**
 * Rows per list of a `ctx`: `-n` when given (at most CTX_LIST_LIMIT_MAX), else CTX_LIST_MAX.
 * An agent trial's `ctx -n 50 -b 3000` still listed 10 of 16 subclasses.
 */
function ctxListMax(opts: Pick<CommandOptions, 'limit'>): number {
  return opts.limit === undefined ? CTX_LIST_MAX : Math.min(opts.limit, CTX_LIST_LIMIT_MAX);
}

/** `ctx HANDLE` up to its saved set (every row gets a handle): the answer before it is fitted to a budget. */
export async function ctxData(ctx: Context, handle: string, opts: CommandOptions): Promise<Outcome<CtxValue>> {
  const stores = storesFor(ctx, opts);
  await settleHandle(ctx.host, stores, handle);
  const resolved = firstKnown(stores, (s) => s.resolve(handle.trim()));
  if (!resolved.ok) return resolved;
  const entry = resolved.value.entry;
  if (entry.tag !== 'live_source')
    return fail('stale_result', `ctx reads the current graph; ${handle} is a historical entry`);
  const owner = await openOwner(ctx.host, entry);
  if (!owner.ok) return owner;
  try {
    const answer = structuralContext(owner.value, entry, ctxListMax(opts));
    if (!answer.ok) return answer;
    const a = answer.value;
    const entries: ResultEntry[] = [];
    const row = (it: CtxItem): CtxRow => {
      entries.push(
        spanEntry(a.target, it.file, it, {
          ...(it.name ? { name: it.name } : {}),
          ...(it.kind ? { kind: it.kind } : {}),
        }),
      );
      return {
        handle: `#${entries.length}`,
        ...(a.target.member ? { member: a.target.member } : {}),
        path: printedPath(it.file.path),
        line: it.startLine,
        ...(it.name ? { name: it.name } : {}),
        ...(it.kind ? { kind: it.kind } : {}),
        ...(it.within ? { within: it.within } : {}),
        ...(it.asValue ? { as_value: true as const } : {}),
        ...(it.resolution ? { resolution: it.resolution } : {}),
      };
    };
    const symbol = a.symbol ? row(a.symbol) : undefined;
    const container = a.container ? row(a.container) : undefined;
    const members = a.members.map(row);
    const callers = a.callers.map(row);
    const callees = a.callees.map(row);
    const implementations = a.implementations.map(row);
    const subclasses = a.subclasses.map(row);
    const bases = a.bases.map(row);
    const overriddenBy = a.overriddenBy.map(row);
    const overrides = a.overrides.map(row);
    const saved = stores[0].save({ query: `ctx ${handle}`, truncated: false, words: [] }, entries);
    if (!saved.ok) return fail(saved.error.code, saved.error.message);
    const fix = (r: CtxRow): CtxRow => ({ ...r, handle: formatHandle(saved.value.id, Number(r.handle.slice(1))) });
    const nothing =
      !symbol &&
      !container &&
      members.length +
        callers.length +
        callees.length +
        implementations.length +
        subclasses.length +
        bases.length +
        overriddenBy.length +
        overrides.length +
        a.unresolvedBases.length +
        a.unresolvedCallees.length ===
        0;
    const focus = (symbol ?? container)?.name;
    const elsewhere = symbol?.name
      ? await otherMembersNaming(ctx, entry.member, lastSegment(symbol.name), opts.cwd ?? process.cwd())
      : [];
    return ok({
      handle: handle.trim(),
      ...(symbol ? { symbol: fix(symbol) } : {}),
      ...(container ? { container: fix(container) } : {}),
      [a.membersAre]: members.map(fix),
      callers: callers.map(fix),
      callees: callees.map(fix),
      ...(implementations.length ? { implementations: implementations.map(fix) } : {}),
      ...(subclasses.length ? { subclasses: subclasses.map(fix) } : {}),
      ...(bases.length ? { bases: bases.map(fix) } : {}),
      ...(overrides.length ? { overrides: overrides.map(fix) } : {}),
      ...(overriddenBy.length ? { overridden_by: overriddenBy.map(fix) } : {}),
      ...(a.unresolvedBases.length ? { unresolved_bases: a.unresolvedBases } : {}),
      ...(a.unresolvedCallees.length ? { unresolved_callees: a.unresolvedCallees } : {}),
      ...(a.omitted ? { omitted: a.omitted, omitted_by: a.omittedBy } : {}),
      ...(a.membersCut ? { members_more: mapsOf(a.memberPaths.map((p) => printedPath(p))) } : {}),
      ...(a.callersCut && focus ? { callers_more: `refs ${focus}` } : {}),
      ...(a.subclassesCut && focus ? { subclasses_more: `refs ${focus}` } : {}),
      ...(a.implementationsCut && focus ? { implementations_more: `refs ${focus}` } : {}),
      ...(elsewhere.length ? { elsewhere } : {}),
      // An empty answer says why, so it is never mistaken for a failure or for "no callers".
      ...(nothing
        ? {
            note: `no definition holds this span, and nothing indexed contains it; map ${printedPath(entry.path)} outlines the file`,
          }
        : {}),
      ...(a.documents && symbol
        ? { note: `the span documents ${symbol.name ?? 'the definition'} (line ${symbol.line}), which follows it` }
        : {}),
      generation: entry.generation,
    });
  } finally {
    releaseReader(owner.value.reader);
  }
}

/**
 * `ctx HANDLE`, or `ctx sym:NAME [filters]`: the context of the definition `show sym:` reads
 * (its choice, its errors), without the search an agent otherwise runs first for a handle.
 */
export function ctxCommand(target: string, opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    let handle = target.trim();
    // The other definitions `show sym:` would name under `also`: a choice made silently had
    // an etcd trial read rafttest's `Storage` for raft's (`ctx sym:Storage file:raft/`).
    let also: Pick<CtxValue, 'also_definitions' | 'also_more'> = {};
    if (handle.startsWith('sym:')) {
      const words = handle.split(/\s+/);
      const chosen = await symbolHandle(ctx, words, opts.cwd ?? process.cwd(), storesFor(ctx, opts)[0]);
      if (!chosen.ok) return errorResult(chosen.error, budget);
      handle = chosen.value.handle;
      if (chosen.value.others > 0)
        also = { also_definitions: chosen.value.others, also_more: `show ${words.join(' ')}` };
    }
    const value = await ctxData(ctx, handle, opts);
    return value.ok ? renderCtx({ ...value.value, ...also }, opts, budget) : errorResult(value.error, budget);
  });
}

/**
 * Lists shrink from the end until the answer fits the budget, the least needed first:
 * siblings (map lists them), then callees, then a type's members, callers last. Callers
 * cut here point to refs as callers cut at CTX_LIST_MAX do: an agent trial on the JDK read
 * 7 of 9 `addWorker` callers at the default budget, with no word that two were left.
 */
function renderCtx(value: Record<string, unknown>, opts: CommandOptions, budget: number): CommandResult {
  return renderedResult(opts, (format) => fitCtx(value, format, budget, ctxListMax(opts)));
}

/** The lists of a ctx answer in lines order, each row's label. */
const CTX_LINE_LISTS = [
  ['bases', 'base'],
  ['overrides', 'overrides'],
  ['callers', 'caller'],
  ['callees', 'callee'],
  ['implementations', 'implementation'],
  ['subclasses', 'subclass'],
  ['overridden_by', 'override'],
  ['members', 'member'],
  ['siblings', 'sibling'],
] as const;

/** Which of ctx's lists give way first when an answer does not fit. */
const CTX_DROP_ORDER = [
  'siblings',
  'callees',
  'members',
  'overridden_by',
  'subclasses',
  'implementations',
  'overrides',
  'bases',
  'callers',
] as const;

function fitCtx(
  value: Record<string, unknown>,
  format: 'json' | 'lines',
  budget: number,
  listMax: number,
): { stdout: string; stderr: string } {
  const lists = CTX_DROP_ORDER.filter((k) => Array.isArray(value[k]));
  const keep = new Map<string, number>(lists.map((k) => [k, Math.min(listMax, (value[k] as unknown[]).length)]));
  const focus = (value.symbol as CtxRow | undefined)?.name ?? (value.container as CtxRow | undefined)?.name;
  const cut = (): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...value };
    let omitted = Number(value.omitted ?? 0);
    const by: Record<string, number> = { ...((value.omitted_by as Record<string, number> | undefined) ?? {}) };
    for (const k of lists) {
      const list = value[k] as unknown[];
      const n = keep.get(k)!;
      out[k] = list.slice(0, n);
      const cut = Math.max(0, list.length - n);
      omitted += cut;
      if (cut > 0) by[k] = (by[k] ?? 0) + cut;
    }
    if (omitted) {
      out.omitted = omitted;
      out.omitted_by = by;
    }
    const callers = value.callers as unknown[] | undefined;
    if (callers && keep.get('callers')! < callers.length && out.callers_more === undefined && focus !== undefined)
      out.callers_more = `refs ${focus}`;
    const subclasses = value.subclasses as unknown[] | undefined;
    if (subclasses && keep.get('subclasses')! < subclasses.length && out.subclasses_more === undefined && focus)
      out.subclasses_more = `refs ${focus}`;
    const implementations = value.implementations as unknown[] | undefined;
    if (
      implementations &&
      keep.get('implementations')! < implementations.length &&
      out.implementations_more === undefined &&
      focus
    )
      out.implementations_more = `refs ${focus}`;
    const members = value.members as unknown[] | undefined;
    const where = (value.symbol as CtxRow | undefined)?.path ?? (value.container as CtxRow | undefined)?.path;
    if (members && keep.get('members')! < members.length && out.members_more === undefined && where !== undefined)
      out.members_more = mapsOf([where, ...(members as CtxRow[]).map((r) => r.path)]);
    return out;
  };
  if (budget > 0) {
    for (;;) {
      const attempt = cut();
      const text = format === 'lines' ? ctxLines(attempt) : jsonLine(attempt);
      if (withinBudget(text, budget)) return { stdout: text, stderr: '' };
      const next = lists.find((k) => keep.get(k)! > 0);
      if (next === undefined) break;
      keep.set(next, keep.get(next)! - 1);
    }
  }
  for (const k of lists) keep.set(k, 0);
  const smallest = renderObject(cut(), { budget });
  return { stdout: smallest.stdout, stderr: smallest.stderr ?? '' };
}

function ctxLines(v: Record<string, unknown>): string {
  const one = (r: CtxRow) =>
    [
      r.handle,
      `${r.member ? `${r.member}/` : ''}${r.path}:${r.line}`,
      ...(r.kind || r.name ? [[r.kind, r.name].filter(Boolean).join(' ')] : []),
      ...(r.within ? [`in ${r.within}`] : []),
      ...(r.as_value ? ['as value'] : []),
      ...(r.resolution ? [r.resolution] : []),
    ]
      .map(escapeLineField)
      .join('\t');
  let out = '';
  for (const key of ['symbol', 'container']) if (v[key]) out += `${key}: ${one(v[key] as CtxRow)}\n`;
  if (typeof v.also_more === 'string')
    out += `also: ${counted(Number(v.also_definitions), 'more definition')} (${escapeLineField(v.also_more)} lists them)\n`;
  // Callers and callees first: what a ctx is asked for; siblings (up to 10 rows, often a
  // struct's fields) had stood before them in 40 % of an answer (an agent trial on go-chi).
  for (const [key, label] of CTX_LINE_LISTS)
    for (const r of (v[key] as CtxRow[] | undefined) ?? []) out += `${label}: ${one(r)}\n`;
  if (Array.isArray(v.unresolved_bases))
    out += `unresolved bases: ${escapeLineField((v.unresolved_bases as string[]).join(', '))}\n`;
  if (Array.isArray(v.unresolved_callees))
    out += `unresolved callees: ${escapeLineField((v.unresolved_callees as string[]).join(', '))}\n`;
  if (typeof v.callers_more === 'string')
    out += `callers: more than listed (${escapeLineField(v.callers_more)} lists every site)\n`;
  if (typeof v.subclasses_more === 'string')
    out += `subclasses: more than listed (${escapeLineField(v.subclasses_more)} lists every use)\n`;
  if (typeof v.implementations_more === 'string')
    out += `implementations: more than listed (${escapeLineField(v.implementations_more)} lists every use)\n`;
  if (typeof v.members_more === 'string')
    out += `members: more than listed (${escapeLineField(v.members_more)} ${v.members_more.includes(', ') ? 'list' : 'lists'} them all)\n`;
  for (const m of (v.elsewhere as MemberMentions[] | undefined) ?? [])
    out += `elsewhere: ${escapeLineField(`${m.member} holds the name in ${counted(m.files, 'file')} (${m.refs})`)}\n`;
  if (v.omitted) {
    // Which lists the count is of: `omitted: 16` alone read as nothing in particular (a JDK trial).
    const by = Object.entries((v.omitted_by as Record<string, number> | undefined) ?? {})
      .map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`)
      .join(', ');
    out += `omitted: ${String(v.omitted)}${by ? ` (${by})` : ''}\n`;
  }
  if (typeof v.note === 'string') out += `ctx: ${escapeLineField(v.note)}\n`;
  return out;
}
