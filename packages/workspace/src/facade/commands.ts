import { LOCK_FILE_NAME, lockFileState, type ReconcileReport } from '@trufflepig/index';
import { DAEMON_LOCK_FILE_NAME, daemonLockState } from '@trufflepig/runtime';
import {
  DEFAULT_BUDGET,
  DEFAULT_LIMIT,
  DEFAULT_SHOW_BUDGET,
  printedPath,
  renderSearchPage,
  renderShow,
} from '@trufflepig/render';
import { STATUS_CHANGED_PATHS, STATUS_PARSE_FAILURE_PATHS } from '../core/limits';
import { structureOf } from './structure';
import type { Outcome } from '../core/errors';
import { fail, ok } from '../core/errors';
import type { ResolvedRoot } from '../core/root';
import { coverageOf, type SearchData } from '../core/search';
import { pageLineOwners } from '../core/line-owners';
import { renderScoped } from '../federation/scoped';
import { navMore } from '../navigation/commands';
import { historyMore, showChange } from '../history-verbs/commands';
import type { ChangeSideName } from '@trufflepig/history';
import { wsDiscover, wsLines, wsShowObject, wsStatusObject } from './ws-commands';
import {
  cursorPage,
  indexData,
  readsLocation,
  searchData,
  searchPageInput,
  setPageData,
  showData,
  type SearchPageData,
} from './data';
import { renderedResult } from '../core/render-choice';
import { openPublished, releaseReader } from '../core/reader-pool';
import type { Host } from '../core/host';
import {
  contextError,
  continuedOptions,
  errorResult,
  objectResult,
  storesFor,
  withContext,
  type CommandOptions,
  type CommandResult,
} from '../core/command-kit';
import { rootDaemonStatus } from '../serving/launch/daemon-control';
import { cacheBaseOf, historyIndexReport } from '../history-verbs/log-index';

export function renderPage(data: SearchData, opts: CommandOptions, budget: number): CommandResult {
  const page = searchPageInput(data, opts.limit ?? DEFAULT_LIMIT, opts.context ?? 0);
  return renderedResult(opts, (format) => renderSearchPage(page, { format, budget }));
}

/** A search page's data rendered as the command's answer: a plain page, or a scoped one (`first`: its groups too). */
function renderSearchData(page: SearchPageData, first: boolean, opts: CommandOptions, budget: number): CommandResult {
  return page.scoped ? renderScoped(page.data, first, opts, budget) : renderPage(page.data, opts, budget);
}

export function searchCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const bad = contextError(opts, budget);
    if (bad) return bad;
    const data = await searchData(ctx, words, opts);
    return data.ok ? renderSearchData(data.value, true, opts, budget) : errorResult(data.error, budget);
  });
}

export function moreCommand(cursor: string, opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const bad = contextError(opts, budget);
    if (bad) return bad;
    const page = await cursorPage(ctx, cursor, opts);
    if (!page.ok) return errorResult(page.error, budget);
    const { set, offset } = page.value;
    // A set's next page has the shape of its first unless this request gives its own.
    const paged = continuedOptions(opts, set.meta.page);
    const data = setPageData(set, offset);
    if (data.kind === 'search') {
      const search = data.page.data;
      // A line-matching page labels further matches with their definitions, as its first page did.
      if (!data.page.scoped && search.lineMatch !== undefined) {
        const onPage = search.entries.slice(offset, offset + (paged.limit ?? DEFAULT_LIMIT));
        const lineOwners = await pageLineOwners(ctx.host, onPage);
        return renderSearchData({ scoped: false, data: { ...search, lineOwners } }, false, paged, budget);
      }
      return renderSearchData(data.page, false, paged, budget);
    }
    // Sets of refs and map, and of the history verbs, are paged in their verbs' own formats.
    return navMore(set, offset, paged, budget) ?? historyMore(set, offset, paged, budget)!;
  });
}

/** `show TARGET`; `side` (`--side before|after`) reads one side of a change handle (from hist or blame). */
export function showCommand(target: string, opts: CommandOptions, side?: ChangeSideName): Promise<CommandResult> {
  return withContext(opts, DEFAULT_SHOW_BUDGET, async (ctx, budget) => {
    const change = readsLocation(target) ? undefined : showChange(target, side, storesFor(ctx, opts), opts, budget);
    if (change) return change;
    if (side !== undefined)
      return errorResult(
        {
          code: 'bad_arguments',
          message: `--side reads one side of a change handle (from hist or blame); ${target.slice(0, 64)} is none`,
        },
        budget,
      );
    const input = await showData(ctx, target, opts);
    if (!input.ok) return errorResult(input.error, budget);
    const read = input.value;
    return renderedResult(opts, (format) => renderShow(read, { format, budget }));
  });
}

function reportObject(root: string, cacheDir: string, v: ReconcileReport): Record<string, unknown> {
  return {
    root,
    cache: cacheDir,
    generation: v.generation,
    published: v.published,
    files: v.files,
    parsed: v.parsed,
    reused: v.reused,
    removed: v.removed,
    excluded: v.excluded,
    parse_failures: v.parseFailures,
    unsearched: Object.fromEntries(Object.entries(v.unsearched).filter(([, n]) => n > 0)),
    source_bytes: v.sourceBytes,
    duration_ms: v.durationMs,
    ...(v.seed ? { seed: v.seed } : {}),
    git_log: v.gitLog,
  };
}

/** `index`: the root, or in a workspace every available member (or just --member), in the foreground. */
export function indexCommand(opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const data = await indexData(ctx, opts.onProgress);
    if (!data.ok) return errorResult(data.error, budget);
    const d = data.value;
    if (d.kind === 'single') return objectResult(reportObject(d.root, d.cacheDir, d.report), budget, opts);
    const members: Record<string, unknown> = {};
    for (const { member: m, run } of d.runs) {
      if (run.state === 'unavailable') members[m.name] = { state: 'unavailable', reason: run.reason };
      else if (run.state === 'failed') members[m.name] = { state: 'failed', error: run.error };
      else
        members[m.name] = {
          ...reportObject(m.root, m.cacheDir, run.report),
          ...(m.worktree ? { worktree: true } : {}),
        };
    }
    return objectResult({ workspace: d.ws.config.name, config: d.ws.config.file, members }, budget, opts);
  });
}

export function statusCommand(opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    // `--member NAME status` is that member's root status: its parse failures by path, its
    // skipped directories (a trial found them only with --no-workspace --root).
    let root: ResolvedRoot;
    if (ctx.kind === 'workspace') {
      const member = ctx.ws.members.find((m) => m.name === ctx.ws.member);
      if (member === undefined) return objectResult(await wsStatusObject(ctx.ws, ctx.host), budget, opts, wsLines);
      root = { root: member.root, cacheDir: member.cacheDir, resultsDir: ctx.ws.resultsDir };
    } else root = ctx.root;
    const status = await rootStatus(ctx.host, root);
    return status.ok ? objectResult(status.value, budget, opts) : errorResult(status.error, budget);
  });
}

/** A root's status; an index of another root in its cache directory is refused, never described. */
async function rootStatus(host: Host, r: ResolvedRoot): Promise<Outcome<Record<string, unknown>>> {
  // Inside the daemon the answer is this process; elsewhere ask the root's daemon, if any.
  const daemon = host.name === 'client' ? await rootDaemonStatus(r.cacheDir) : { state: 'serving', pid: process.pid };
  const reader = await openPublished(host, r.cacheDir, r.root);
  const locks = staleLocks(r.cacheDir);
  if (!reader.ok && reader.error.code === 'cache_root_mismatch') return fail(reader.error.code, reader.error.message);
  // The repository's history index (docs/history.md): what it covers, or absent/building.
  const historyIndex = historyIndexReport(r.root, cacheBaseOf(r.cacheDir));
  const history = historyIndex ? { history: historyIndex } : {};
  if (!reader.ok)
    return ok({
      root: r.root,
      cache: r.cacheDir,
      state: reader.error.code === 'index_warming' ? 'warming' : 'unavailable',
      reason: reader.error.message,
      daemon,
      ...history,
      ...locks,
    });
  try {
    const cov = coverageOf(reader.value.coverage(), undefined, 0).json;
    delete cov.hits;
    // What the walk left out, largest first (coverage.excluded counts it by class).
    const skipped = reader.value.skippedDirs();
    // Which files parse_failures counts (their facts may be incomplete, never their text).
    const parse = reader.value.parseFailures(STATUS_PARSE_FAILURE_PATHS);
    const failures =
      parse.failed + parse.partial > 0
        ? {
            parse_failure_kinds: { failed: parse.failed, partial: parse.partial },
            parse_failure_paths: parse.paths.map(printedPath),
            // How many the list leaves out: redis has 118, and 10 read as all of them (an agent trial).
            ...(parse.failed + parse.partial > parse.paths.length
              ? { parse_failure_paths_more: parse.failed + parse.partial - parse.paths.length }
              : {}),
          }
        : {};
    // Files edited or removed since the index read them: without a daemon nothing reconciles
    // them, and status had said `complete` over a file an agent had just changed (a JDK trial).
    const changed = reader.value.changedSinceIndexing(STATUS_CHANGED_PATHS);
    const stale =
      changed.count > 0
        ? {
            changed_since_indexing: {
              files: changed.count,
              paths: changed.paths.map(printedPath),
              note: 'their facts and lines are the last index run; run index (a daemon reconciles them itself)',
            },
          }
        : {};
    return ok({
      root: r.root,
      cache: r.cacheDir,
      state: 'published',
      daemon,
      coverage: cov,
      ...stale,
      skipped_dirs: skipped,
      ...failures,
      structure: structureOf(reader.value.files()),
      ...history,
      ...locks,
    });
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
  const locks = [
    [LOCK_FILE_NAME, lockFileState(cacheDir), 'the next index'],
    [DAEMON_LOCK_FILE_NAME, daemonLockState(cacheDir), 'the next daemon'],
  ] as const;
  for (const [name, state, taker] of locks) {
    if (state.state === 'stale')
      out[name] = { pid: state.pid, note: `left by process ${state.pid}, which is gone; ${taker} takes it over` };
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
    if (!(WS_SUBCOMMANDS as readonly string[]).includes(sub))
      return errorResult(
        {
          code: 'bad_arguments',
          message: `unknown ws subcommand '${sub}'; use ws show, ws status or ws discover PATH...`,
        },
        budget,
      );
    if (ctx.kind === 'single') {
      return errorResult(
        {
          code: 'no_workspace',
          message: `no workspace is selected here; pass --workspace FILE, run inside a member, or create one with: trufflepig ws discover DIR...`,
        },
        budget,
      );
    }
    if (sub === 'show') return objectResult(wsShowObject(ctx.ws), budget, opts, wsLines);
    return objectResult(await wsStatusObject(ctx.ws, ctx.host), budget, opts, wsLines);
  });
}
