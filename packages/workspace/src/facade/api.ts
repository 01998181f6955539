// The typed library API: openWorkspace() and the Workspace it returns. Each method runs the
// same data-producing step as its CLI command (data.ts, navigation's *Data) and converts
// the answer to the exported types (types.ts); nothing is rendered to text. Errors are
// thrown as TrufflepigError with a stable ErrorCode (errors.ts).
import { fileUri, percentDecode, ROLE, type ReconcileReport, type RoleName } from '@trufflepig/index';
import {
  DEFAULT_LIMIT,
  isFolded,
  printedPath,
  renderSearchPage,
  renderShow,
  type PageHit,
  type SearchPageInput,
} from '@trufflepig/render';
import {
  formatCursor,
  formatHandle,
  type CommitEntry,
  type LiveSourceEntry,
  type ResultEntry,
} from '@trufflepig/result-cache';
import { contextLinesError, storesFor, type CommandOptions } from '../core/command-kit';
import { resolveContext, type Context } from '../core/context';
import type { Outcome } from '../core/errors';
import { CLIENT_HOST } from '../core/host';
import { LIBRARY_READER_IDLE_MS } from '../core/limits';
import { ReaderPool } from '../core/reader-pool';
import { NAV_PAGE_ROWS_MAX } from '@trufflepig/navigation';
import type { SearchData } from '../core/search';
import { sectionAt, sectionHits } from '../federation/scoped';
import { ctxData, mapData, refsData, type CtxValue } from '../navigation/commands';
import type { NavPageInput } from '@trufflepig/navigation';
import {
  cursorPage,
  indexData,
  isChangeHandle,
  readsLocation,
  searchData,
  searchPageInput,
  setPageData,
  showData,
  type IndexData,
  type SearchPageData,
  type ShowRead,
} from './data';
import { isErrorCode, toTrufflepigError, TrufflepigError } from './errors';
import type {
  CommitInfo,
  Coverage,
  CoverageState,
  CtxAnswer,
  EvidenceLine,
  Hit,
  IndexOptions,
  IndexReport,
  IndexResult,
  MapHit,
  MapPage,
  MemberCoverage,
  MemberInfo,
  MemberState,
  MoreOptions,
  NavOptions,
  OpenOptions,
  Page,
  Read,
  ReadRow,
  RefsCoverage,
  RefsHit,
  RefsPage,
  Resolution,
  ScopeGroup,
  SearchHit,
  SearchOptions,
  SearchPage,
  SearchScope,
  ShowOptions,
  Workspace,
} from './types';

/**
 * Open a root or a workspace for typed calls. The invocation is resolved once, here (which
 * workspace, which member is home, where the caches are); a bad root or workspace file
 * rejects with its TrufflepigError. Nothing is indexed or started yet.
 *
 * ```ts
 * const ws = await openWorkspace({ root: '/path/to/repo' });
 * const page = await ws.search('refill tokens', { limit: 10 });
 * const read = await ws.show(page.hits[0].handle);
 * await ws.close();
 * ```
 */
export async function openWorkspace(options: OpenOptions = {}): Promise<Workspace> {
  const opts: CommandOptions = {
    ...(options.root !== undefined ? { root: options.root } : {}),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.noWorkspace !== undefined ? { noWorkspace: options.noWorkspace } : {}),
    ...(options.member !== undefined ? { member: options.member } : {}),
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    // A library starts no background process: unpublished roots index in the foreground.
    // Its readers stay open until close(): each search of a kernel-sized root would
    // otherwise read its 78,000 file rows again (~250 ms of a ~280 ms search).
    host: { ...CLIENT_HOST, readers: new ReaderPool(LIBRARY_READER_IDLE_MS) },
    noDaemon: true,
  };
  const ctx = guard(() => resolveContext(opts));
  return new OpenedWorkspace(unwrap(ctx), opts);
}

/** Run `fn`; an exception that is no TrufflepigError becomes internal_error (the original is its cause). */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw asTrufflepigError(err);
  }
}

function asTrufflepigError(err: unknown): TrufflepigError {
  if (err instanceof TrufflepigError) return err;
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new TrufflepigError('internal_error', message, { cause: err });
}

function unwrap<T>(out: Outcome<T>): T {
  if (!out.ok) throw toTrufflepigError(out.error);
  return out.value;
}

function positiveInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined || (Number.isInteger(value) && value > 0)) return value;
  throw new TrufflepigError('bad_arguments', `${name} must be a whole number of at least 1 (not ${String(value)})`);
}

function contextLines(value: number | undefined): number {
  const err = contextLinesError(value);
  if (err) throw toTrufflepigError(err);
  return value ?? 0;
}

function wordsOf(query: string | readonly string[]): readonly string[] {
  return typeof query === 'string' ? [query] : query;
}

class OpenedWorkspace implements Workspace {
  readonly kind: 'root' | 'workspace';
  readonly root: string | undefined;
  readonly name?: string;
  readonly configFile?: string;
  readonly members: readonly MemberInfo[];
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly context: Context,
    private readonly opts: CommandOptions,
  ) {
    if (context.kind === 'single') {
      this.kind = 'root';
      this.root = context.root.root;
      this.members = [];
    } else {
      const ws = context.ws;
      this.kind = 'workspace';
      this.root = ws.home ? ws.members.find((m) => m.name === ws.home!.name)?.root : undefined;
      this.name = ws.config.name;
      this.configFile = ws.config.file;
      this.members = ws.members.map((m) => ({
        name: m.name,
        root: m.root,
        configuredRoot: m.configuredRoot,
        available: m.available,
        ...(m.unavailableReason !== undefined ? { unavailableReason: m.unavailableReason } : {}),
        worktree: m.worktree,
        cacheDir: m.cacheDir,
      }));
    }
  }

  /** One call: refused once closed, tracked until it settles, every failure a TrufflepigError. */
  private run<T>(call: (ctx: Context) => Promise<T>): Promise<T> {
    if (this.closed)
      return Promise.reject(
        new TrufflepigError('workspace_closed', 'this Workspace was closed; open a new one with openWorkspace()'),
      );
    const p = (async () => {
      try {
        return await call(this.context);
      } catch (err) {
        throw asTrufflepigError(err);
      }
    })();
    this.inFlight.add(p);
    const done = () => this.inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  search(query: string | readonly string[], options: SearchOptions = {}): Promise<SearchPage> {
    return this.run(async (ctx) => {
      const shape = pageShape(options);
      const data = unwrap(
        await searchData(ctx, wordsOf(query), {
          ...this.opts,
          ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
          limit: shape.limit,
        }),
      );
      return searchPage(data, true, shape);
    });
  }

  more(cursor: string, options: MoreOptions = {}): Promise<Page> {
    return this.run(async (ctx) => {
      const shape = pageShape(options);
      const { set, offset } = unwrap(await cursorPage(ctx, cursor, { ...this.opts, limit: shape.limit }));
      const data = setPageData(set, offset);
      if (data.kind === 'search') return searchPage(data.page, false, shape);
      if (data.kind === 'nav') return navPage(data.page, options.limit);
      throw new TrufflepigError(
        'unsupported_result',
        `cursor ${cursor.trim().slice(0, 40)} pages a ${String(set.meta.nav)} result, which the typed API does not read yet; use trufflepig more`,
      );
    });
  }

  show(target: string, options: ShowOptions = {}): Promise<Read> {
    return this.run(async (ctx) => {
      const budget = positiveInteger('budget', options.budget);
      if (!readsLocation(target) && isChangeHandle(storesFor(ctx, this.opts), target)) {
        throw new TrufflepigError(
          'unsupported_result',
          `${target.trim().slice(0, 40)} is a change of a history verb (hist, blame, since), which the typed API does not read yet; use trufflepig show`,
        );
      }
      const context = options.context === undefined ? {} : { context: options.context };
      return readOf(unwrap(await showData(ctx, target, { ...this.opts, ...context })), budget);
    });
  }

  refs(query: string | readonly string[], options: NavOptions = {}): Promise<RefsPage> {
    return this.run(async (ctx) => {
      const limit = positiveInteger('limit', options.limit);
      return navPage(unwrap(await refsData(ctx, wordsOf(query), this.opts)), limit) as RefsPage;
    });
  }

  map(path: string | readonly string[], options: NavOptions = {}): Promise<MapPage> {
    return this.run(async (ctx) => {
      const limit = positiveInteger('limit', options.limit);
      return navPage(unwrap(await mapData(ctx, wordsOf(path), this.opts)), limit) as MapPage;
    });
  }

  ctx(handle: string): Promise<CtxAnswer> {
    return this.run(async (ctx) => ctxAnswer(unwrap(await ctxData(ctx, handle, this.opts))));
  }

  index(options: IndexOptions = {}): Promise<IndexResult> {
    return this.run(async (ctx) => indexResult(unwrap(await indexData(ctx, options.onProgress))));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.opts.host?.readers?.closeAll();
  }
}

// ---- search pages ----

interface PageShape {
  readonly limit: number;
  readonly budget?: number;
  readonly context: number;
}

function pageShape(options: { limit?: number; budget?: number; context?: number }): PageShape {
  const limit = positiveInteger('limit', options.limit) ?? DEFAULT_LIMIT;
  const budget = positiveInteger('budget', options.budget);
  return { limit, ...(budget !== undefined ? { budget } : {}), context: contextLines(options.context) };
}

/** How many of a page's hits the shape allows: `limit`, and those the CLI's lines page shows within `budget`. */
function fitted(input: SearchPageInput, shape: PageShape): number {
  const available = Math.min(shape.limit, input.hits.length);
  if (shape.budget === undefined || available === 0) return available;
  const r = renderSearchPage(input, { format: 'lines', budget: shape.budget });
  if (r.status === 'budget_too_small') {
    throw new TrufflepigError(
      'bad_arguments',
      `a budget of ${shape.budget} tokens is too small for one hit; retry with budget ${r.needed ?? shape.budget * 2}`,
    );
  }
  return r.shown;
}

function searchPage(page: SearchPageData, first: boolean, shape: PageShape): SearchPage {
  const data = page.data;
  const base = {
    kind: 'search' as const,
    query: data.query,
    setId: data.setId,
    offset: data.offset,
    truncated: data.truncated,
    coverage: coverageOf(data.coverage, data.coverageLine),
  };
  if (!page.scoped) {
    const input = searchPageInput(data, shape.limit, shape.context);
    const count = fitted(input, shape);
    return { ...base, ...ranking(data, input.hits, data.offset, data.entries.length, count) };
  }
  const sections = page.data.sections;
  const section = sections[sectionAt(sections, data.offset)];
  const end = section.offset + section.count;
  const hits = sectionHits(data, data.offset, end, shape.limit, shape.context);
  const count = fitted(searchPageInput(data, shape.limit, shape.context, hits), shape);
  const groups =
    first && page.data.scopes !== 'shared'
      ? sections.slice(1).map((s): ScopeGroup => {
          const groupHits = sectionHits(data, s.offset, s.offset + s.count, shape.limit, shape.context);
          const r = ranking(data, groupHits, s.offset, s.offset + s.count, Math.min(shape.limit, groupHits.length));
          return {
            scope: s.scope,
            total: s.count,
            hits: r.hits,
            ...(r.cursor !== undefined ? { cursor: r.cursor } : {}),
          };
        })
      : undefined;
  const r = ranking(data, hits, data.offset, end, count);
  return { ...base, ...r, total: section.count, scope: section.scope, ...(groups ? { groups } : {}) };
}

/** The first `count` of a ranking's page hits (from `offset`, the ranking ending at `end`), and the cursor past them. */
function ranking(
  data: SearchData,
  hits: readonly PageHit[],
  offset: number,
  end: number,
  count: number,
): { hits: SearchHit[]; total: number; cursor?: string } {
  const shown = hits.slice(0, count).map((h, i) => searchHit(h, data.entries[offset + i]));
  const next = offset + count;
  return { hits: shown, total: end, ...(next < end ? { cursor: formatCursor(data.setId, next) } : {}) };
}

function evidenceLine(l: { readonly line: number; readonly text: string; readonly context?: true }): EvidenceLine {
  return { line: l.line, text: l.text, ...(l.context ? { context: true as const } : {}) };
}

function searchHit(h: PageHit, e: ResultEntry): SearchHit {
  const evidence = e.tag === 'commit' ? undefined : h.evidence;
  return {
    ...hitOf(e, h.handle),
    ...(h.snippet ? { snippet: evidenceLine(h.snippet) } : {}),
    ...(evidence ? { evidence: evidence.lines.map(evidenceLine), matchesLeft: evidence.left } : {}),
  };
}

function commitOf(e: CommitEntry): CommitInfo {
  return { hash: e.revision, date: e.date, changed: e.changed, morePaths: e.more_paths };
}

/** The fields every hit has, from its stored entry. */
function hitOf(e: ResultEntry, handle: string): Hit {
  const root = percentDecode(e.root);
  return {
    handle,
    ...(e.member !== undefined ? { member: e.member } : {}),
    path: printedPath(e.path),
    uri: e.tag === 'commit' ? `${fileUri(root, '')}#commit=${e.revision}` : fileUri(root, e.path),
    startLine: e.start_line,
    endLine: e.end_line,
    start: e.start,
    end: e.end,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.kind !== undefined ? { kind: e.kind } : {}),
    sources: e.sources ?? [],
    ...(e.tag === 'live_source' && e.differs === true ? { differs: true as const } : {}),
    ...(e.tag === 'commit' ? { commit: commitOf(e) } : {}),
  };
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function numberRecord(value: unknown): Readonly<Record<string, number>> | undefined {
  const r = record(value);
  return r && Object.values(r).every((v) => typeof v === 'number') ? (r as Record<string, number>) : undefined;
}

const COVERAGE_STATES: readonly string[] = ['complete', 'partial', 'stale'];
const MEMBER_STATES: readonly string[] = [
  'complete',
  'partial',
  'stale',
  'warming',
  'unavailable',
  'timed_out',
  'parent_fallback',
];
const SCOPES: readonly string[] = ['home', 'all', 'members', 'home_widened'];

function scopeOf(value: unknown): SearchScope | undefined {
  return typeof value === 'string' && SCOPES.includes(value) ? (value as SearchScope) : undefined;
}

function memberCoverage(row: Readonly<Record<string, unknown>>): MemberCoverage {
  const state =
    typeof row.state === 'string' && MEMBER_STATES.includes(row.state) ? (row.state as MemberState) : 'unavailable';
  return {
    state,
    hits: typeof row.hits === 'number' ? row.hits : 0,
    ...(typeof row.generation === 'number' ? { generation: row.generation } : {}),
    ...(typeof row.indexed_files === 'number' ? { indexedFiles: row.indexed_files } : {}),
    ...(typeof row.reason === 'string' ? { reason: row.reason } : {}),
  };
}

/** A workspace search's one word: stale when a member is, partial when any member is not complete. */
function workspaceState(members: Readonly<Record<string, MemberCoverage>>): CoverageState {
  const states = Object.values(members).map((m) => m.state);
  if (states.includes('stale')) return 'stale';
  return states.every((s) => s === 'complete') ? 'complete' : 'partial';
}

function coverageOf(rec: Readonly<Record<string, unknown>>, summary: string): Coverage {
  const rows = record(rec.members);
  const members = rows
    ? Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, memberCoverage(record(row) ?? {})]))
    : undefined;
  const state: CoverageState =
    typeof rec.state === 'string' && COVERAGE_STATES.includes(rec.state)
      ? (rec.state as CoverageState)
      : members
        ? workspaceState(members)
        : 'complete';
  const unsearched = numberRecord(rec.unsearched);
  const excluded = numberRecord(rec.excluded);
  const scope = scopeOf(rec.scope);
  return {
    state,
    hits: typeof rec.hits === 'number' ? rec.hits : 0,
    truncated: rec.truncated === true,
    ...(typeof rec.generation === 'number' ? { generation: rec.generation } : {}),
    ...(typeof rec.indexed_files === 'number' ? { indexedFiles: rec.indexed_files } : {}),
    ...(unsearched && Object.values(unsearched).some((n) => n > 0) ? { unsearched } : {}),
    ...(excluded ? { excluded } : {}),
    ...(typeof rec.parse_failures === 'number' ? { parseFailures: rec.parse_failures } : {}),
    ...(scope ? { scope } : {}),
    ...(members ? { members } : {}),
    summary,
    record: rec,
  };
}

// ---- refs and map ----

const RESOLUTIONS: readonly string[] = ['resolved', 'candidate', 'unresolved'];

const ROLES: readonly string[] = Object.keys(ROLE);

function roleOf(value: string | undefined): RoleName | undefined {
  return value !== undefined && ROLES.includes(value) ? (value as RoleName) : undefined;
}

function refsHit(e: LiveSourceEntry, handle: string): RefsHit {
  const roles = e.roles?.map(roleOf).filter((r): r is RoleName => r !== undefined);
  return {
    ...hitOf(e, handle),
    role: roleOf(e.role) ?? 'reference',
    ...(roles ? { roles } : {}),
    resolution:
      e.resolution !== undefined && RESOLUTIONS.includes(e.resolution) ? (e.resolution as Resolution) : 'unresolved',
    ...(e.definition !== undefined ? { definition: e.definition } : {}),
    ...(e.within !== undefined ? { within: e.within } : {}),
    text: e.text ?? '',
    repeats: e.repeats ?? 1,
  };
}

function mapHit(e: LiveSourceEntry, handle: string): MapHit {
  return {
    ...hitOf(e, handle),
    ...(e.modifiers ? { modifiers: e.modifiers } : {}),
    ...(e.names ? { names: e.names } : {}),
  };
}

function skippedOf(value: unknown): Readonly<Record<string, { state: string; reason: string }>> | undefined {
  const r = record(value);
  if (!r) return undefined;
  return Object.fromEntries(
    Object.entries(r).map(([member, v]) => {
      const row = record(v) ?? {};
      return [member, { state: String(row.state ?? ''), reason: String(row.reason ?? '') }];
    }),
  );
}

function count(rec: Readonly<Record<string, unknown>>, key: string): number {
  const v = rec[key];
  return typeof v === 'number' ? v : 0;
}

function refsCoverage(rec: Readonly<Record<string, unknown>>, summary: string): RefsCoverage {
  const scope = scopeOf(rec.scope);
  const skipped = skippedOf(rec.skipped);
  return {
    sites: count(rec, 'reference_sites'),
    files: count(rec, 'reference_files'),
    resolved: count(rec, 'resolved'),
    candidate: count(rec, 'candidate'),
    unresolved: count(rec, 'unresolved'),
    truncated: rec.reference_sites_truncated === true,
    unreadFiles: count(rec, 'unread_files'),
    staleFiles: count(rec, 'stale_files'),
    ...(scope ? { scope } : {}),
    ...(skipped ? { skipped } : {}),
    summary,
  };
}

/** A refs or map page: the set's entries from its offset, up to `limit` rows (default NAV_PAGE_ROWS_MAX). */
function navPage(input: NavPageInput, limit: number | undefined): RefsPage | MapPage {
  const shown = Math.min(input.entries.length, limit ?? NAV_PAGE_ROWS_MAX);
  const end = input.offset + input.entries.length;
  const next = input.offset + shown;
  const base = {
    query: input.query,
    setId: input.setId,
    offset: input.offset,
    total: end,
    truncated: input.truncated,
    ...(next < end ? { cursor: formatCursor(input.setId, next) } : {}),
  };
  const handle = (i: number) => formatHandle(input.setId, input.offset + i + 1);
  const rows = input.entries.slice(0, shown);
  if (input.verb === 'refs')
    return {
      kind: 'refs',
      ...base,
      hits: rows.map((e, i) => refsHit(e, handle(i))),
      coverage: refsCoverage(input.coverage, input.coverageLine),
    };
  const scope = scopeOf(input.coverage.scope);
  const skipped = skippedOf(input.coverage.skipped);
  return {
    kind: 'map',
    ...base,
    of: 'items' in input.coverage ? 'file' : 'prefix',
    hits: rows.map((e, i) => mapHit(e, handle(i))),
    coverage: { ...(scope ? { scope } : {}), ...(skipped ? { skipped } : {}), summary: input.coverageLine },
  };
}

// ---- show, ctx, index ----

function readOf(input: ShowRead, budget: number | undefined): Read {
  let shown = input.rows.length;
  let next = input.next;
  if (budget !== undefined) {
    const r = renderShow(input, { format: 'lines', budget });
    if (r.status === 'budget_too_small')
      throw new TrufflepigError(
        'bad_arguments',
        `a budget of ${budget} tokens is too small for one row; retry with budget ${r.needed ?? budget * 2}`,
      );
    shown = r.shown;
    next = r.next;
  }
  const rows: ReadRow[] = input.rows
    .slice(0, shown)
    .map((row) =>
      isFolded(row)
        ? { line: row.line, endLine: row.endLine, start: row.start, end: row.end, folded: row.folded, read: row.read }
        : { line: row.line, start: row.start, end: row.end, text: row.text, escaped: row.escaped },
    );
  const first = rows[0];
  const last = rows[rows.length - 1];
  const span =
    first === undefined || last === undefined
      ? {
          startLine: input.emptyLine ?? 1,
          endLine: input.emptyLine ?? 1,
          start: input.emptyStart ?? 0,
          end: input.emptyStart ?? 0,
        }
      : {
          startLine: first.line,
          endLine: 'folded' in last ? last.endLine : last.line,
          start: first.start,
          end: last.end,
        };
  const lines = rows.filter((row) => !('folded' in row)) as { text: string; escaped: boolean }[];
  return {
    ...(input.handle !== undefined ? { handle: input.handle } : {}),
    ...(input.member !== undefined ? { member: input.member } : {}),
    path: printedPath(input.path),
    uri: input.uri,
    revision: input.revision,
    verified: input.verified,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...span,
    rows,
    text: lines.map((l) => l.text).join('\n'),
    escaped: lines.some((l) => l.escaped),
    ...(input.extent !== undefined
      ? { extent: { startLine: input.extent.startLine, endLine: input.extent.endLine } }
      : {}),
    ...(next !== undefined ? { next } : {}),
    ...(input.symbol !== undefined ? { symbol: input.symbol } : {}),
  };
}

function ctxAnswer(v: CtxValue): CtxAnswer {
  return {
    handle: v.handle,
    ...(v.symbol ? { symbol: v.symbol } : {}),
    ...(v.container ? { container: v.container } : {}),
    members: v.members ?? v.siblings ?? [],
    membersAre: v.members ? 'members' : 'siblings',
    callers: v.callers,
    callees: v.callees,
    implementations: v.implementations ?? [],
    subclasses: v.subclasses ?? [],
    bases: v.bases ?? [],
    unresolvedBases: v.unresolved_bases ?? [],
    overriddenBy: v.overridden_by ?? [],
    overrides: v.overrides ?? [],
    ...(v.subclasses_more !== undefined ? { subclassesMore: v.subclasses_more } : {}),
    ...(v.implementations_more !== undefined ? { implementationsMore: v.implementations_more } : {}),
    unresolvedCallees: v.unresolved_callees ?? [],
    omitted: v.omitted ?? 0,
    omittedBy: v.omitted_by ?? {},
    ...(v.callers_more !== undefined ? { callersMore: v.callers_more } : {}),
    ...(v.members_more !== undefined ? { membersMore: v.members_more } : {}),
    ...(v.note !== undefined ? { note: v.note } : {}),
    generation: v.generation,
  };
}

function indexReport(
  root: string,
  cacheDir: string,
  v: ReconcileReport,
  member?: { name: string; worktree: boolean },
): IndexReport {
  return {
    root,
    cacheDir,
    ...(member ? { member: member.name, ...(member.worktree ? { worktree: true } : {}) } : {}),
    generation: v.generation,
    published: v.published,
    files: v.files,
    parsed: v.parsed,
    reused: v.reused,
    removed: v.removed,
    excluded: v.excluded,
    parseFailures: v.parseFailures,
    unsearched: Object.fromEntries(Object.entries(v.unsearched).filter(([, n]) => n > 0)),
    sourceBytes: v.sourceBytes,
    durationMs: v.durationMs,
    gitLog: { state: v.gitLog.state, commits: v.gitLog.commits, added: v.gitLog.added },
  };
}

function indexResult(d: IndexData): IndexResult {
  if (d.kind === 'single') return { roots: [indexReport(d.root, d.cacheDir, d.report)], failed: [] };
  const roots: IndexReport[] = [];
  const failed: IndexResult['failed'][number][] = [];
  for (const { member: m, run } of d.runs) {
    if (run.state === 'indexed') roots.push(indexReport(m.root, m.cacheDir, run.report, m));
    else if (run.state === 'unavailable') failed.push({ member: m.name, state: 'unavailable', message: run.reason });
    else
      failed.push({
        member: m.name,
        state: 'failed',
        ...(isErrorCode(run.error.code) ? { code: run.error.code } : {}),
        message: run.error.message,
      });
  }
  return { roots, failed };
}
