// The data-producing steps the commands and the typed library API (api.ts) share: each one
// runs a verb up to its typed answer (a persisted result set, a verified read, an index
// report) and renders nothing. A command renders the answer for stdout; the API converts
// it to its exported types. One step each, so both always answer the same thing.
import { parseQuery, reconcile, type ReconcileReport } from '@trufflepig/index';
import type { PageHit, SearchPageInput, ShowInput } from '@trufflepig/render';
import { parseHandle, type ResultStore, type StoredSet } from '@trufflepig/result-cache';
import { contextLinesError, firstKnown, pageShapeOf, storesFor, type CommandOptions } from '../core/command-kit';
import { memberPrefixed, type Context, type MemberTarget, type WorkspaceContext } from '../core/context';
import { fail, ok, type Outcome, type TpError } from '../core/errors';
import { openResultStore } from '../core/result-store';
import { pageHits, pageOfSet, parseWords, runSearch, type SearchData } from '../core/search';
import { showHandle, showPath } from '../core/show';
import { runWorkspaceSearch } from '../federation/federate';
import { scopedMoreData, scopedSearchData, type ScopedData } from '../federation/scoped';
import { navPageOfSet } from '../navigation/commands';
import { nearestPaths, type NavPageInput } from '@trufflepig/navigation';
import { closeTargets, openTargets } from '../navigation/open';
import { showSymbol, type SymbolContext } from '../navigation/show-symbol';
import { settledPage, settleHandle } from '../core/settle';
import { DEFAULT_LIMIT, printedPath } from '@trufflepig/render';

/** A verified read as the renderer takes it; a `sym:` read also says what surrounds the definition. */
export type ShowRead = ShowInput & { readonly symbol?: SymbolContext };

/** A search page's data: a plain ranking, or a scoped set (docs/spec/per-source.md) with its sections. */
export type SearchPageData =
  { readonly scoped: false; readonly data: SearchData } | { readonly scoped: true; readonly data: ScopedData };

/** What a search takes besides its words (a subset of CommandOptions). */
export interface SearchDataOptions {
  readonly scopes?: CommandOptions['scopes'];
  readonly noDaemon?: boolean;
  /** The first page's hits (their spans are narrowed at once; the rest when first read). */
  readonly limit?: number;
  /** `-C N`, kept with the set for `more` as `limit` is. */
  readonly context?: number;
}

/**
 * `search WORDS`: run the search in the context (one root, or the workspace's selected
 * members), persist the whole ranked list as a result set, and return its first page's
 * data. A scope setting or `source:git-log` makes it a scoped search; otherwise the plain
 * path runs, exactly as it always has.
 */
export async function searchData(
  ctx: Context,
  words: readonly string[],
  opts: SearchDataOptions,
): Promise<Outcome<SearchPageData>> {
  const q = parseWords(words);
  if (!q.ok) return q;
  const page = pageShapeOf(opts);
  const shaped = { ...opts, ...(page ? { page } : {}) };
  const scoped = await scopedSearchData(ctx, q.value, opts.scopes, shaped, () =>
    openResultStore(ctx.kind === 'single' ? ctx.root.resultsDir : ctx.ws.resultsDir),
  );
  if (scoped) return scoped.ok ? ok({ scoped: true, data: scoped.value }) : scoped;
  if (ctx.kind === 'workspace') {
    const data = await runWorkspaceSearch(ctx.ws, q.value, {
      noDaemon: opts.noDaemon === true,
      host: ctx.host,
      ...(page ? { page } : {}),
    });
    return data.ok ? ok({ scoped: false, data: data.value }) : data;
  }
  const r = ctx.root;
  const data = await runSearch(r, q.value, {
    indexIfMissing: true,
    store: openResultStore(r.resultsDir),
    host: ctx.host,
    narrowNow: opts.limit ?? DEFAULT_LIMIT,
    ...(page ? { page } : {}),
  });
  return data.ok ? ok({ scoped: false, data: data.value }) : data;
}

/**
 * A plain search page as the renderer takes it: the page's hits (the first `limit` from the
 * offset, with evidence) and how many the set holds from there, unless `hits` are given.
 */
export function searchPageInput(
  data: SearchData,
  limit: number,
  context: number,
  hits?: readonly PageHit[],
): SearchPageInput {
  const shown = Math.max(0, Math.floor(limit));
  return {
    query: data.query,
    setId: data.setId,
    offset: data.offset,
    ...(hits
      ? { hits }
      : {
          hits: pageHits({ ...data, entries: data.entries.slice(0, data.offset + shown) }, limit, context),
          remaining: Math.max(0, data.entries.length - data.offset),
        }),
    limit,
    coverage: data.coverage,
    coverageLine: data.coverageLine,
    truncated: data.truncated,
    ...(data.members ? { members: data.members } : {}),
  };
}

/** The stored set a `more CURSOR` continues, and the offset it continues from. */
export function cursorPage(
  ctx: Context,
  cursor: string,
  opts: CommandOptions,
): Promise<Outcome<{ readonly set: StoredSet; readonly offset: number }>> {
  // The page's provisional spans are narrowed before it is rendered (core/settle.ts).
  return settledPage(
    ctx.host,
    storesFor(ctx, opts),
    cursor.trim(),
    (set) => opts.limit ?? set.meta.page?.limit ?? DEFAULT_LIMIT,
  );
}

/** The sets `more` continues, by the verb that made them. */
export type SetPageData =
  | { readonly kind: 'search'; readonly page: SearchPageData }
  | { readonly kind: 'nav'; readonly page: NavPageInput }
  /** A set of the history verbs (hist, blame, since, diff): its pages are rendered by history-verbs. */
  | { readonly kind: 'history' };

/** The page data of a stored set from `offset`, by the kind of set it is. */
export function setPageData(set: StoredSet, offset: number): SetPageData {
  const nav = navPageOfSet(set, offset);
  if (nav) return { kind: 'nav', page: nav };
  if (isHistorySet(set)) return { kind: 'history' };
  const scoped = scopedMoreData(set, offset);
  return {
    kind: 'search',
    page: scoped ? { scoped: true, data: scoped } : { scoped: false, data: pageOfSet(set, offset) },
  };
}

/** Sets made by hist, blame, since and diff (their meta's `nav`). */
export function isHistorySet(set: StoredSet): boolean {
  const verb = set.meta.nav;
  return verb === 'hist' || verb === 'blame' || verb === 'since' || verb === 'diff';
}

/** The member an explicit path read addresses: --member, else home. */
function pathMember(ws: WorkspaceContext): Outcome<MemberTarget> {
  const name = ws.member ?? ws.home?.name;
  if (name === undefined) {
    return fail(
      'member_required',
      `show path: inside workspace ${ws.config.name} needs a member: run it inside one, or pass --member NAME (members: ${ws.members.map((m) => m.name).join(', ')})`,
    );
  }
  const m = ws.members.find((x) => x.name === name)!;
  if (!m.available)
    return fail(
      'member_unavailable',
      `member ${m.name} is unavailable (${m.unavailableReason ?? 'missing root'}); fix its path in ${ws.config.file}`,
    );
  return { ok: true, value: m };
}

/**
 * The path spec of a target that is no handle but a location as hits print it
 * (`lib/core/settle.js:14-27`, `src/main.rs`): it holds a `/` or a `.` before any `:`, and
 * what follows its last `/` (a member prefix's) is no handle by result-cache's rule, a
 * `show` continuation's `~BYTE` aside.
 */
export function pastedLocation(target: string): string | undefined {
  const t = target.trim();
  if (t.startsWith('sym:') || !/[/.]/.test(t.split(':')[0])) return undefined;
  return parseHandle(t.slice(t.lastIndexOf('/') + 1).replace(/~\d+$/, '')).ok ? undefined : t;
}

/** Whether `show TARGET` reads a location or a symbol (never a change handle of the history verbs). */
export function readsLocation(target: string): boolean {
  return target.startsWith('path:') || target.startsWith('sym:') || pastedLocation(target) !== undefined;
}

/**
 * `show TARGET` for everything but a change handle (history-verbs reads those): a handle
 * or its continuation (verified against the revision it was found at), `path:P[:A-B]` or a
 * pasted `P:A-B` (current bytes), `sym:NAME` (the best definition).
 */
export async function showData(ctx: Context, target: string, opts: CommandOptions): Promise<Outcome<ShowRead>> {
  // `PATH:A-B` as a hit line prints it is read as `path:PATH:A-B`: an agent pastes what it saw.
  const pathSpec = target.startsWith('path:') ? target.slice('path:'.length) : pastedLocation(target);
  if ((pathSpec !== undefined || target.startsWith('sym:')) && (opts.context ?? 0) > 0)
    return fail(
      'bad_arguments',
      `-C widens a handle's span; ${pathSpec !== undefined ? 'show path:P:A-B reads the lines you name' : 'show sym: reads the whole definition'}, so drop -C`,
    );
  if (pathSpec !== undefined) {
    if (ctx.kind === 'single') return withNearestPaths(ctx, showPath(ctx.root, pathSpec), pathSpec, opts);
    const read = (member: MemberTarget, spec: string): Outcome<ShowRead> => {
      const input = showPath({ root: member.root, cacheDir: member.cacheDir, resultsDir: '' }, spec);
      return input.ok ? ok({ ...input.value, member: member.name }) : input;
    };
    // `MEMBER/path:A-B` as a workspace page prints it, unless --member names the member and
    // the path is that member's own (a directory named like a member).
    const prefixed = ctx.ws.member === undefined ? memberPrefixed(ctx.ws, pathSpec) : undefined;
    if (prefixed) {
      const input = prefixed.member.available
        ? read(prefixed.member, prefixed.path)
        : fail(
            'member_unavailable',
            `member ${prefixed.member.name} is unavailable; fix its path in ${ctx.ws.config.file}`,
          );
      if (input.ok || input.error.code !== 'source_missing') return input;
      // The member's own directory named like it, as a Python package's is (`flask/app.py`
      // in member flask, whose page prints `flask/flask/app.py`; map read it, show did not:
      // a workspace trial).
      const inside = prefixed.member.available ? read(prefixed.member, pathSpec) : input;
      if (inside.ok || !ctx.ws.home) return inside.ok ? inside : input;
      // A home member's own directory named like a member (`requests/models.py` in requests).
      const own = read(
        ctx.ws.members.find((m) => m.name === ctx.ws.home!.name)!,
        pathSpec,
      );
      return own.ok ? own : input;
    }
    const m = pathMember(ctx.ws);
    return m.ok ? read(m.value, pathSpec) : m;
  }
  if (target.startsWith('sym:'))
    return showSymbol(ctx, target.trim().split(/\s+/), opts.cwd ?? process.cwd(), storesFor(ctx, opts)[0], opts.budget);
  // A continuation printed by a read with `-C N` says so (`k3x9q2:4~812 -C 3`): pasted whole
  // (as an MCP target, say), it reads on with the same context.
  const pasted = PASTED_CONTEXT.exec(target.trim());
  const handle = pasted ? pasted[1] : target.trim();
  const context = opts.context ?? (pasted ? Number(pasted[2]) : undefined);
  const bad = contextLinesError(context);
  if (bad) return fail(bad.code, bad.message);
  const stores = storesFor(ctx, opts);
  await settleHandle(ctx.host, stores, handle);
  return firstKnown(stores, (s) => showHandle(handle, s, context, opts.noDaemon !== true));
}

/**
 * A `show path:` of a file that does not exist, with the indexed paths nearest to it named
 * as `map` names them (the JDK trial's `show path:java/util/HashMap.java` said only to
 * search with kind:file); any other outcome, or no index to ask, unchanged.
 */
async function withNearestPaths(
  ctx: Context,
  read: Outcome<ShowRead>,
  spec: string,
  opts: CommandOptions,
): Promise<Outcome<ShowRead>> {
  if (read.ok || read.error.code !== 'source_missing') return read;
  const query = parseQuery(['kind:file']);
  if (!query.ok) return read;
  const nav = await openTargets(ctx, query.value, opts.cwd ?? process.cwd());
  if (!nav.ok) return read;
  try {
    const wanted = spec.replace(/:\d+(?:-\d+)?$/, '');
    const nearest = nav.value.targets.flatMap((t) => nearestPaths(t.reader, wanted).map((p) => printedPath(p)));
    if (nearest.length === 0) return read;
    return fail('source_missing', `${read.error.message}; nearest: ${nearest.slice(0, 3).join(', ')}`);
  } finally {
    closeTargets(nav.value.targets);
  }
}

/** A handle or continuation followed by the `-C N` a read with context prints in its `next`. */
const PASTED_CONTEXT = /^(\S+)\s+-C\s*(\d+)$/;

/** Whether a handle (or its `~BYTE` continuation) names a change entry of the history verbs in one of `stores`. */
export function isChangeHandle(stores: readonly ResultStore[], target: string): boolean {
  const handle = target.trim().replace(/~\d+$/, '');
  if (!parseHandle(handle).ok) return false;
  const resolved = firstKnown(stores, (s) => s.resolve(handle));
  return resolved.ok && resolved.value.entry.tag === 'change';
}

/** One root's foreground index run. */
export type IndexRun =
  | { readonly state: 'indexed'; readonly report: ReconcileReport }
  | { readonly state: 'unavailable'; readonly reason: string }
  | { readonly state: 'failed'; readonly error: TpError };

export type IndexData =
  | { readonly kind: 'single'; readonly root: string; readonly cacheDir: string; readonly report: ReconcileReport }
  | {
      readonly kind: 'workspace';
      readonly ws: WorkspaceContext;
      readonly runs: readonly { readonly member: MemberTarget; readonly run: IndexRun }[];
    };

/**
 * `index`: the root, or in a workspace every available member (or just --member), in the
 * foreground. A workspace where no chosen member could be indexed is workspace_unavailable.
 */
export async function indexData(ctx: Context, onProgress: CommandOptions['onProgress']): Promise<Outcome<IndexData>> {
  if (ctx.kind === 'single') {
    const r = ctx.root;
    const rep = await reconcile(r.root, { cacheDir: r.cacheDir, onProgress });
    return rep.ok
      ? ok({ kind: 'single', root: r.root, cacheDir: r.cacheDir, report: rep.value })
      : fail(rep.error.code, rep.error.message);
  }
  const ws = ctx.ws;
  const chosen = ws.members.filter((m) => ws.member === undefined || m.name === ws.member);
  const runs: { member: MemberTarget; run: IndexRun }[] = [];
  for (const m of chosen) {
    if (!m.available) {
      runs.push({ member: m, run: { state: 'unavailable', reason: m.unavailableReason ?? 'missing root' } });
      continue;
    }
    const rep = await reconcile(m.root, {
      cacheDir: m.cacheDir,
      onProgress,
      ...(m.parentCacheDir ? { seedFrom: m.parentCacheDir } : {}),
    });
    runs.push({
      member: m,
      run: rep.ok ? { state: 'indexed', report: rep.value } : { state: 'failed', error: rep.error },
    });
  }
  if (runs.every((r) => r.run.state !== 'indexed'))
    return fail('workspace_unavailable', `no member of ${ws.config.file} could be indexed; see ws status`);
  return ok({ kind: 'workspace', ws, runs });
}
