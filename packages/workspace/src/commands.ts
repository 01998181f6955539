import { LOCK_FILE_NAME, lockFileState, reconcile, type ReconcileProgress, type ReconcileReport } from '@trufflepig/index';
import { DAEMON_LOCK_FILE_NAME, daemonLockState } from '@trufflepig/runtime';
import {
  CONTEXT_LINES_MAX, DEFAULT_BUDGET, DEFAULT_LIMIT, DEFAULT_SHOW_BUDGET, fitError, internalErrorOf, printedPath, renderObject, renderSearchPage, renderShow,
  type OutputFormat, type ShowInput,
} from '@trufflepig/render';
import { parseHandle, type ResultStore } from '@trufflepig/result-cache';
import { openResultStore } from './result-store';
import { STATUS_PARSE_FAILURE_PATHS } from './limits';
import { resolveContext, type Context, type ContextOptions, type MemberTarget, type WorkspaceContext } from './context';
import type { Outcome, TpError } from './errors';
import { fail, ok } from './errors';
import { runWorkspaceSearch } from './federate';
import { resolveRoot, type ResolvedRoot } from './root';
import { coverageOf, pageHits, pageOfSet, runSearch, type SearchData } from './search';
import { showHandle, showPath } from './show';
import { scopedMore, scopedSearch } from './scoped';
import { showSymbol } from './nav-sym';
import { navMore } from './nav-commands';
import { historyMore, showChange } from './history-commands';
import type { ChangeSideName } from '@trufflepig/history';
import { wsDiscover, wsShowObject, wsStatusObject } from './ws-commands';
import { renderedResult, type RenderChoice } from './render-choice';
import { foregroundIndexingAllowed, openPublished, releaseReader } from './reader-pool';
import { rootDaemonStatus } from './daemon-control';
import { cacheBaseOf, historyIndexReport } from './history-index';

export interface CommandOptions extends ContextOptions {
  readonly budget?: number;
  readonly limit?: number;
  /**
   * Output format; JSON when not given (this programmatic API's default). The CLI's
   * default is lines (spec 4): its option parsers and the daemon handler set it.
   */
  readonly format?: OutputFormat;
  /** `-C N`: context lines around each evidence line of a search hit (0..CONTEXT_LINES_MAX). */
  readonly context?: number;
  /** Launch and contact no background process; index in the foreground. */
  readonly noDaemon?: boolean;
  /** `--scopes`: per-source.md scope mode; wins over a workspace's [retrieval] scopes. */
  readonly scopes?: 'shared' | 'per_source';
  /**
   * Also render the answer as JSON, from the same data under the same budget (`json`
   * of the result): the MCP front end shows the model the lines text and hands its client
   * the structured form, and both must name the same result set.
   */
  readonly alsoJson?: boolean;
  readonly onProgress?: (p: ReconcileProgress) => void;
}

/** What a command prints: stdout is already within the budget. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 2;
  /** The JSON rendering of the same answer, when `alsoJson` asked for it and stdout is lines. */
  readonly json?: string;
}


/** An error as a command's answer: fitted to the budget (render's fitError), exit 2. */
export function errorResult(err: TpError, budget: number): CommandResult {
  const r = fitError(err, budget);
  return { stdout: r.stdout, stderr: r.stderr, exitCode: 2 };
}

/** An unexpected exception as a command's answer: one coded `internal_error` line, no stack. */
export function internalErrorResult(err: unknown, budget: number): CommandResult {
  return errorResult(internalErrorOf(err), budget);
}

export function objectResult(value: Record<string, unknown>, budget: number, choice: OutputFormat | RenderChoice = 'json'): CommandResult {
  return renderedResult(typeof choice === 'string' ? { format: choice } : choice, (format) => renderObject(value, { budget, format }));
}

/** The budget of a response: -b wins, then the workspace's [output].budget, then the default. */
function budgetFor(opts: CommandOptions, ctx: Context | undefined, fallback: number): number {
  if (opts.budget !== undefined) return opts.budget;
  if (ctx?.kind === 'workspace' && ctx.ws.config.budget !== undefined) return ctx.ws.config.budget;
  return fallback;
}

/**
 * The budget of an answer given before (or without) running the command (usage and
 * internal errors): -b, else the workspace's [output].budget, else `fallback`.
 */
export function responseBudget(opts: CommandOptions, fallback: number): number {
  if (opts.budget !== undefined) return opts.budget;
  try {
    const ctx = resolveContext(opts);
    return budgetFor(opts, ctx.ok ? ctx.value : undefined, fallback);
  } catch {
    return fallback;
  }
}

export async function withContext(opts: CommandOptions, fallbackBudget: number, run: (ctx: Context, budget: number) => Promise<CommandResult>): Promise<CommandResult> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return errorResult(ctx.error, budgetFor(opts, undefined, fallbackBudget));
  return run(ctx.value, budgetFor(opts, ctx.value, fallbackBudget));
}

/** A `-C` value outside 0..CONTEXT_LINES_MAX (or not a whole number): the bad_arguments answer, else undefined. */
export function contextError(opts: CommandOptions, budget: number): CommandResult | undefined {
  const c = opts.context;
  if (c === undefined || (Number.isInteger(c) && c >= 0 && c <= CONTEXT_LINES_MAX)) return undefined;
  return errorResult({ code: 'bad_arguments', message: `-C takes a whole number of context lines from 0 to ${CONTEXT_LINES_MAX} (not ${String(c)}), e.g. -C 2` }, budget);
}

export function renderPage(data: SearchData, opts: CommandOptions, budget: number): CommandResult {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  const page = {
    query: data.query, setId: data.setId, offset: data.offset, hits: pageHits(data, limit, opts.context ?? 0), limit,
    coverage: data.coverage, coverageLine: data.coverageLine, truncated: data.truncated,
    ...(data.members ? { members: data.members } : {}),
  };
  return renderedResult(opts, (format) => renderSearchPage(page, { format, budget }));
}

export function searchCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const bad = contextError(opts, budget);
    if (bad) return bad;
    const scoped = await scopedSearch(ctx, words, opts.scopes, opts, budget, () => openResultStore(ctx.kind === 'single' ? ctx.root.resultsDir : ctx.ws.resultsDir));
    if (scoped) return scoped;
    if (ctx.kind === 'workspace') {
      const data = await runWorkspaceSearch(ctx.ws, words, { noDaemon: opts.noDaemon === true });
      return data.ok ? renderPage(data.value, opts, budget) : errorResult(data.error, budget);
    }
    const r = ctx.root;
    const data = await runSearch(r, words, { indexIfMissing: true, store: openResultStore(r.resultsDir) });
    return data.ok ? renderPage(data.value, opts, budget) : errorResult(data.error, budget);
  });
}

/**
 * Result stores a handle may live in: the workspace's own, then the single-root store of
 * the invocation's root (a set made with --no-workspace stays readable inside a workspace).
 */
export function storesFor(ctx: Context, opts: CommandOptions): ResultStore[] {
  if (ctx.kind === 'single') return [openResultStore(ctx.root.resultsDir)];
  const stores = [openResultStore(ctx.ws.resultsDir)];
  const local = resolveRoot({ ...opts, root: ctx.ws.home?.root ?? opts.root });
  if (local.ok) stores.push(openResultStore(local.value.resultsDir));
  return stores;
}

export function firstKnown<T>(stores: readonly ResultStore[], read: (s: ResultStore) => Outcome<T>): Outcome<T> {
  let first: Outcome<T> | undefined;
  for (const store of stores) {
    const out = read(store);
    if (out.ok || out.error.code !== 'unknown_result') return out;
    first ??= out;
  }
  return first!;
}

export function moreCommand(cursor: string, opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const bad = contextError(opts, budget);
    if (bad) return bad;
    const page = firstKnown(storesFor(ctx, opts), (s) => s.page(cursor.trim()));
    if (!page.ok) return errorResult(page.error, budget);
    const nav = navMore(page.value.set, page.value.offset, opts, budget) ?? historyMore(page.value.set, page.value.offset, opts, budget);
    if (nav) return nav;
    const scoped = scopedMore(page.value.set, page.value.offset, opts, budget);
    if (scoped) return scoped;
    return renderPage(pageOfSet(page.value.set, page.value.offset), opts, budget);
  });
}

/** The member an explicit path read addresses: --member, else home. */
function pathMember(ws: WorkspaceContext): Outcome<MemberTarget> {
  const name = ws.member ?? ws.home?.name;
  if (name === undefined) {
    return fail('member_required', `show path: inside workspace ${ws.config.name} needs a member: run it inside one, or pass --member NAME (members: ${ws.members.map((m) => m.name).join(', ')})`);
  }
  const m = ws.members.find((x) => x.name === name)!;
  if (!m.available) return fail('member_unavailable', `member ${m.name} is unavailable (${m.unavailableReason ?? 'missing root'}); fix its path in ${ws.config.file}`);
  return { ok: true, value: m };
}

/**
 * The path spec of a target that is no handle but a location as hits print it
 * (`lib/core/settle.js:14-27`, `src/main.rs`): it holds a `/` or a `.` before any `:`, and
 * what follows its last `/` (a member prefix's) is no handle by result-cache's rule, a
 * `show` continuation's `~BYTE` aside.
 */
function pastedLocation(target: string): string | undefined {
  const t = target.trim();
  if (t.startsWith('sym:') || !/[/.]/.test(t.split(':')[0])) return undefined;
  return parseHandle(t.slice(t.lastIndexOf('/') + 1).replace(/~\d+$/, '')).ok ? undefined : t;
}

/** `show TARGET`; `side` (`--side before|after`) reads one side of a change handle (from hist or blame). */
export function showCommand(target: string, opts: CommandOptions, side?: ChangeSideName): Promise<CommandResult> {
  return withContext(opts, DEFAULT_SHOW_BUDGET, async (ctx, budget) => {
    let input: Outcome<ShowInput>;
    const change = target.startsWith('path:') || target.startsWith('sym:') || pastedLocation(target) !== undefined ? undefined : showChange(target, side, storesFor(ctx, opts), opts, budget);
    if (change) return change;
    if (side !== undefined) return errorResult({ code: 'bad_arguments', message: `--side reads one side of a change handle (from hist or blame); ${target.slice(0, 64)} is none` }, budget);
    // `PATH:A-B` as a hit line prints it is read as `path:PATH:A-B`: an agent pastes what it saw.
    const pathSpec = target.startsWith('path:') ? target.slice('path:'.length) : pastedLocation(target);
    if (pathSpec !== undefined) {
      if (ctx.kind === 'single') input = showPath(ctx.root, pathSpec);
      else {
        const m = pathMember(ctx.ws);
        input = m.ok ? showPath({ root: m.value.root, cacheDir: m.value.cacheDir, resultsDir: '' }, pathSpec) : m;
        if (input.ok && m.ok) input = { ok: true, value: { ...input.value, member: m.value.name } };
      }
    } else if (target.startsWith('sym:')) {
      input = await showSymbol(ctx, target.trim().split(/\s+/), opts.cwd ?? process.cwd(), storesFor(ctx, opts)[0]);
    } else {
      input = firstKnown(storesFor(ctx, opts), (s) => showHandle(target.trim(), s));
    }
    if (!input.ok) return errorResult(input.error, budget);
    const read = input.value;
    return renderedResult(opts, (format) => renderShow(read, { format, budget }));
  });
}

function reportObject(root: string, cacheDir: string, v: ReconcileReport): Record<string, unknown> {
  return {
    root, cache: cacheDir, generation: v.generation, published: v.published, files: v.files, parsed: v.parsed,
    reused: v.reused, removed: v.removed, excluded: v.excluded, parse_failures: v.parseFailures,
    unsearched: Object.fromEntries(Object.entries(v.unsearched).filter(([, n]) => n > 0)),
    source_bytes: v.sourceBytes, duration_ms: v.durationMs, ...(v.seed ? { seed: v.seed } : {}), git_log: v.gitLog,
  };
}

/** `index`: the root, or in a workspace every available member (or just --member), in the foreground. */
export function indexCommand(opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    if (ctx.kind === 'single') {
      const r = ctx.root;
      const rep = await reconcile(r.root, { cacheDir: r.cacheDir, onProgress: opts.onProgress });
      return rep.ok ? objectResult(reportObject(r.root, r.cacheDir, rep.value), budget, opts) : errorResult(rep.error, budget);
    }
    const ws = ctx.ws;
    const chosen = ws.members.filter((m) => ws.member === undefined || m.name === ws.member);
    const members: Record<string, unknown> = {};
    let failures = 0;
    for (const m of chosen) {
      if (!m.available) {
        members[m.name] = { state: 'unavailable', reason: m.unavailableReason ?? 'missing root' };
        failures++;
        continue;
      }
      const rep = await reconcile(m.root, { cacheDir: m.cacheDir, onProgress: opts.onProgress, ...(m.parentCacheDir ? { seedFrom: m.parentCacheDir } : {}) });
      if (rep.ok) members[m.name] = { ...reportObject(m.root, m.cacheDir, rep.value), ...(m.worktree ? { worktree: true } : {}) };
      else {
        members[m.name] = { state: 'failed', error: rep.error };
        failures++;
      }
    }
    if (failures === chosen.length) return errorResult({ code: 'workspace_unavailable', message: `no member of ${ws.config.file} could be indexed; see ws status` }, budget);
    return objectResult({ workspace: ws.config.name, config: ws.config.file, members }, budget, opts);
  });
}

export function statusCommand(opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    if (ctx.kind === 'workspace') return objectResult(await wsStatusObject(ctx.ws), budget, opts);
    const status = await rootStatus(ctx.root);
    return status.ok ? objectResult(status.value, budget, opts) : errorResult(status.error, budget);
  });
}

/** A root's status; an index of another root in its cache directory is refused, never described. */
async function rootStatus(r: ResolvedRoot): Promise<Outcome<Record<string, unknown>>> {
  // Inside the daemon the answer is this process; elsewhere ask the root's daemon, if any.
  const daemon = foregroundIndexingAllowed() ? await rootDaemonStatus(r.cacheDir) : { state: 'serving', pid: process.pid };
  const reader = await openPublished(r.cacheDir, r.root);
  const locks = staleLocks(r.cacheDir);
  if (!reader.ok && reader.error.code === 'cache_root_mismatch') return fail(reader.error.code, reader.error.message);
  // The repository's history index (docs/history.md): what it covers, or absent/building.
  const historyIndex = historyIndexReport(r.root, cacheBaseOf(r.cacheDir));
  const history = historyIndex ? { history: historyIndex } : {};
  if (!reader.ok) return ok({ root: r.root, cache: r.cacheDir, state: reader.error.code === 'index_warming' ? 'warming' : 'unavailable', reason: reader.error.message, daemon, ...history, ...locks });
  try {
    const cov = coverageOf(reader.value.coverage(), false, undefined, 0).json;
    delete cov.hits;
    // What the walk left out, largest first (coverage.excluded counts it by class).
    const skipped = reader.value.skippedDirs();
    // Which files parse_failures counts (their facts may be incomplete, never their text).
    const parse = reader.value.parseFailures(STATUS_PARSE_FAILURE_PATHS);
    const failures = parse.failed + parse.partial > 0 ? { parse_failure_kinds: { failed: parse.failed, partial: parse.partial }, parse_failure_paths: parse.paths.map(printedPath) } : {};
    return ok({ root: r.root, cache: r.cacheDir, state: 'published', daemon, coverage: cov, skipped_dirs: skipped, ...failures, ...history, ...locks });
  } finally {
    releaseReader(reader.value);
  }
}

/**
 * Lock files whose owner died (a crash, a kill -9, a full disk). They do no harm, the next
 * writer or daemon takes them over, but status says so instead of staying silent.
 */
function staleLocks(cacheDir: string): { stale_locks?: Record<string, { pid: number; note: string }> } {
  const out: Record<string, { pid: number; note: string }> = {};
  // Each lock's owner package reads its own file format.
  const locks = [[LOCK_FILE_NAME, lockFileState(cacheDir), 'the next index'], [DAEMON_LOCK_FILE_NAME, daemonLockState(cacheDir), 'the next daemon']] as const;
  for (const [name, state, taker] of locks) {
    if (state.state === 'stale') out[name] = { pid: state.pid, note: `left by process ${state.pid}, which is gone; ${taker} takes it over` };
  }
  return Object.keys(out).length ? { stale_locks: out } : {};
}

export const WS_SUBCOMMANDS = ['show', 'status', 'discover'] as const;

/** `ws show`, `ws status`, `ws discover PATH...`: local inspection; nothing is started or applied. */
export function wsCommand(sub: string, args: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  if (sub === 'discover') {
    const budget = opts.budget ?? DEFAULT_BUDGET;
    const out = wsDiscover(args, opts.cwd ?? process.cwd());
    return Promise.resolve(out.ok ? objectResult(out.value, budget, opts) : errorResult(out.error, budget));
  }
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    if (!(WS_SUBCOMMANDS as readonly string[]).includes(sub)) return errorResult({ code: 'bad_arguments', message: `unknown ws subcommand '${sub}'; use ws show, ws status or ws discover PATH...` }, budget);
    if (ctx.kind === 'single') {
      return errorResult({ code: 'no_workspace', message: `no workspace is selected here; pass --workspace FILE, run inside a member, or create one with: trufflepig ws discover DIR...` }, budget);
    }
    return objectResult(sub === 'show' ? wsShowObject(ctx.ws) : await wsStatusObject(ctx.ws), budget, opts);
  });
}
