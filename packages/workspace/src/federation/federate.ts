// A workspace search: select members, let each rank its own candidates, fuse by rank,
// persist the set in the workspace's own result store, describe every member's coverage.
import { spelledWord, type ParsedQuery, type SearchHit } from '@trufflepig/index';
import { fuseMembers, memberShare } from '@trufflepig/rank';
import {
  MAX_HITS_PER_SET,
  type CommitEntry,
  type LiveSourceEntry,
  type OwnerFields,
  type SetPageShape,
} from '@trufflepig/result-cache';
import { openResultStore } from '../core/result-store';
import { startBackgroundIndex } from '../serving/launch/background-index';
import { ensureMemberDaemons } from '../serving/launch/daemon-control';
import { HOME_WAIT_MS, HOME_WAIT_POLL_MS, limitFromEnv, QUERY_DEADLINE_MS } from '../core/limits';
import { openPublished, releaseReader } from '../core/reader-pool';
import { CLIENT_HOST, coordinates, type Host } from '../core/host';
import { memberPrefixed, type MemberTarget, type WorkspaceContext } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { gitInfo } from '@trufflepig/member-root';
import type { MemberSearchRequest, MemberSearchResult } from './member-search';
import { runMemberSearches } from './members-run';
import { hitEntry, lineMatchOf, liveSourceEntry, snippetTerms, type SearchData } from '../core/search';
import {
  addGitLogCoverage,
  groupScopes,
  layoutSections,
  needsScopedSearch,
  sameScope,
  scopeLabel,
  type ScopedLayout,
  type ScopeSetting,
} from './scope-layout';
import { lastSegment, rootIdentity } from '@trufflepig/navigation';
import { workspaceCoverage, type CoverageMember, type SearchScope } from './coverage';

export interface WorkspaceSearchOptions {
  /** `--no-daemon`: index unpublished members (worktrees seeded) in the foreground, start nothing. */
  readonly noDaemon: boolean;
  /** Start a detached indexer for an unpublished worktree answered from its parent (default: !noDaemon). */
  readonly background?: boolean;
  /** docs/spec/per-source.md scope setting (request, else [retrieval] scopes); `shared` adds no groups. */
  readonly scopes?: ScopeSetting;
  /** The process the search runs in (core/host.ts); the one-shot client when not given. */
  readonly host?: Host;
  /** The request's explicit page shape, kept with the set for `more`. */
  readonly page?: SetPageShape;
}

interface Selected {
  readonly targets: MemberTarget[];
  readonly scope: SearchScope;
  readonly widen: boolean;
}

/** Wait up to HOME_WAIT_MS (and never past the query deadline) for a member's first publication. */
async function publishedWithin(host: Host, m: MemberTarget, deadlineAt: number): Promise<boolean> {
  const until = Math.min(deadlineAt, Date.now() + limitFromEnv('TRUFFLEPIG_HOME_WAIT_MS', HOME_WAIT_MS));
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, HOME_WAIT_POLL_MS));
    const reader = await openPublished(host, m.cacheDir, m.root);
    if (reader.ok) {
      releaseReader(reader.value);
      return true;
    }
  }
  return false;
}

/** Selectors: in:NAME / --member NAME, ws:home, ws:all; explicit ones never widen. */
/**
 * A query whose `file:` values all begin with a member's name (`file:express/lib/router/`,
 * as workspace pages print paths) searches those members for the paths inside them; any
 * other query is unchanged. An agent trial's `file:express/lib/response.js` matched nothing
 * and said only `0 hits` per member.
 */
export function withMemberPaths(ws: WorkspaceContext, q: ParsedQuery): ParsedQuery {
  if (q.members.length > 0 || ws.member !== undefined || q.fileInclude.length === 0) return q;
  const split = q.fileInclude.map((f) => memberPrefixed(ws, f));
  if (split.some((x) => x === undefined)) return q;
  const found = split.map((x) => x!);
  return {
    ...q,
    members: [...new Set(found.map((x) => x.member.name))],
    fileInclude: found.map((x) => x.path),
  };
}

export function selectMembers(ws: WorkspaceContext, q: ParsedQuery): Outcome<Selected> {
  const names = [...new Set([...q.members, ...(ws.member !== undefined ? [ws.member] : [])])];
  const all = ws.members;
  if (names.length > 0) {
    const unknown = names.filter((n) => !all.some((m) => m.name === n));
    if (unknown.length)
      return fail(
        'unknown_member',
        `in:${unknown[0]} names no member of ${ws.config.file} (members: ${all.map((m) => m.name).join(', ')}); use one of those names`,
      );
    return ok({ targets: all.filter((m) => names.includes(m.name)), scope: 'members', widen: false });
  }
  if (q.workspace === 'all') return ok({ targets: [...all], scope: 'all', widen: false });
  const home = ws.home ? all.find((m) => m.name === ws.home!.name) : undefined;
  if (q.workspace === 'home') {
    if (!home)
      return fail(
        'no_home',
        `ws:home needs an invocation inside a member of ${ws.config.file}; cd into one, or use in:NAME or ws:all`,
      );
    return ok({ targets: [home], scope: 'home', widen: false });
  }
  if (home) return ok({ targets: [home], scope: 'home', widen: true });
  return ok({ targets: [...all], scope: 'all', widen: false });
}

function requestFor(
  host: Host,
  m: MemberTarget,
  query: ParsedQuery,
  share: number,
  noDaemon: boolean,
  scopes: ScopeSetting | undefined,
): MemberSearchRequest {
  return {
    host,
    name: m.name,
    root: m.root,
    configuredRoot: m.configuredRoot,
    cacheDir: m.cacheDir,
    worktree: m.worktree,
    ...(m.parentCacheDir ? { parentCacheDir: m.parentCacheDir } : {}),
    query,
    // Without a daemon nothing else would ever index a plain member; an unpublished
    // worktree instead answers from its parent while a background indexer catches up.
    indexIfMissing: noDaemon || !m.worktree,
    share,
    ...(scopes && scopes !== 'shared' ? { scopes } : {}),
  };
}

function unavailableResult(m: MemberTarget): MemberSearchResult {
  return {
    name: m.name,
    state: 'unavailable',
    reason: m.unavailableReason ?? 'root is unavailable',
    hits: [],
    found: 0,
    truncated: false,
    ownerCache: m.cacheDir,
    elapsedMs: 0,
  };
}

async function searchTargets(
  targets: readonly MemberTarget[],
  q: ParsedQuery,
  share: number,
  opts: WorkspaceSearchOptions,
  deadlineAt?: number,
): Promise<MemberSearchResult[]> {
  const live = targets.filter((m) => m.available);
  const host = opts.host ?? CLIENT_HOST;
  const coordinating = coordinates(host);
  // The coordinator demand-starts member daemons; each keeps its own root fresh.
  if (coordinating) await ensureMemberDaemons(live);
  const results = await runMemberSearches(
    host,
    live.map((m) => requestFor(host, m, q, share, opts.noDaemon, opts.scopes)),
    deadlineAt,
  );
  const byName = new Map(results.map((r) => [r.name, r]));
  if (!coordinating && (opts.background ?? !opts.noDaemon)) {
    for (const m of live)
      if (byName.get(m.name)?.needsIndex) startBackgroundIndex(m.root, m.cacheDir, m.parentCacheDir);
  }
  return targets.map((m) => byName.get(m.name) ?? unavailableResult(m));
}

function ownerFields(m: MemberTarget, r: MemberSearchResult): OwnerFields {
  const fields: OwnerFields = { root_id: rootIdentity(m.root) };
  if (m.worktree) {
    const info = gitInfo(m.root);
    fields.worktree = true;
    if (info.ok && info.value.insideWorkTree) fields.git_common_dir = info.value.commonDir;
  }
  // The parent's index is read over the worktree root: `ctx` must know whose index it is.
  if (r.fallback) {
    fields.owner = 'parent_index';
    fields.owner_root = m.configuredRoot;
  }
  return fields;
}

function toEntry(
  m: MemberTarget,
  r: MemberSearchResult,
  h: SearchHit,
  owner: OwnerFields,
  differing: ReadonlySet<string>,
): LiveSourceEntry | CommitEntry {
  if (h.commit)
    return { ...hitEntry({ root: m.root, member: m.name, cacheDir: r.ownerCache }, r.generation ?? 0, h), ...owner };
  // A definition re-extracted from the worktree's bytes belongs to no published generation.
  const reextracted = h.lane === 'worktree-definitions';
  return {
    ...liveSourceEntry(
      { root: m.root, member: m.name, cacheDir: reextracted ? m.cacheDir : r.ownerCache },
      reextracted ? 0 : (r.generation ?? 0),
      h,
    ),
    ...owner,
    ...(differing.has(h.path) && !reextracted ? { differs: true } : {}),
    ...(reextracted ? { reextracted: true as const } : {}),
  };
}

export interface WorkspaceSearchData extends SearchData {
  /** Member name → percent-encoded root of every member with a hit in the set. */
  readonly members: Readonly<Record<string, string>>;
  /** Scoped searches: the sections of the stored set (global ranking first). */
  readonly scoped?: ScopedLayout;
}

export async function runWorkspaceSearch(
  ws: WorkspaceContext,
  asked: ParsedQuery,
  opts: WorkspaceSearchOptions,
): Promise<Outcome<WorkspaceSearchData>> {
  const q = withMemberPaths(ws, asked);
  const selected = selectMembers(ws, q);
  if (!selected.ok) return selected;
  const { targets, widen } = selected.value;
  let scope = selected.value.scope;
  const host = opts.host ?? CLIENT_HOST;
  const coordinating = coordinates(host);
  const deadlineAt = coordinating
    ? Date.now() + limitFromEnv('TRUFFLEPIG_QUERY_DEADLINE_MS', QUERY_DEADLINE_MS)
    : undefined;
  let results = await searchTargets(targets, q, memberShare(MAX_HITS_PER_SET, targets.length), opts, deadlineAt);
  // A daemon-backed query waits a while for an unpublished home (a worktree home has
  // already answered from its member's index).
  if (
    coordinating &&
    scope === 'home' &&
    results[0].state === 'warming' &&
    !targets[0].worktree &&
    (await publishedWithin(host, targets[0], deadlineAt!))
  ) {
    results = [
      (await searchTargets([targets[0]], q, memberShare(MAX_HITS_PER_SET, targets.length), opts, deadlineAt))[0],
      ...results.slice(1),
    ];
  }
  let searched = targets;
  // Home without hits widens; a warming, unavailable or incomplete home does not (its
  // silence is not evidence of absence).
  if (widen && results[0].state === 'complete' && results[0].found === 0 && ws.members.length > 1) {
    const others = ws.members.filter((m) => m.name !== targets[0].name);
    const share = memberShare(MAX_HITS_PER_SET, ws.members.length);
    results = [results[0], ...(await searchTargets(others, q, share, opts, deadlineAt))];
    searched = [targets[0], ...others];
    scope = 'home_widened';
  }
  if (
    results.every((r) => r.state === 'timed_out' || r.state === 'unavailable') &&
    results.some((r) => r.state === 'timed_out')
  ) {
    return fail(
      'timed_out',
      `no selected member answered within the query deadline (${results
        .filter((r) => r.state === 'timed_out')
        .map((r) => r.name)
        .join(', ')} timed out); retry, or select fewer members`,
    );
  }
  if (results.every((r) => r.state === 'unavailable')) {
    const why = results.map((r) => `${r.name}: ${r.reason ?? 'unavailable'}`).join('; ');
    return fail(
      'workspace_unavailable',
      `no selected member is available (${why}); fix the member paths in ${ws.config.file} or select another member`,
    );
  }
  const targetOf = new Map(searched.map((m) => [m.name, m]));
  const owners = new Map(results.map((r) => [r.name, ownerFields(targetOf.get(r.name)!, r)]));
  const differing = new Map(results.map((r) => [r.name, new Set(r.fallback?.differingPaths ?? [])]));
  const standingOf = fusedStanding(q);
  const entriesOf = (lists: { member: string; hits: readonly SearchHit[] }[]) =>
    fuseMembers(lists, standingOf).map((f) => {
      const r = results.find((x) => x.name === f.member)!;
      return toEntry(targetOf.get(f.member)!, r, f.hit, owners.get(f.member)!, differing.get(f.member)!);
    });
  const globalEntries = entriesOf(results.map((r) => ({ member: r.name, hits: r.hits })));
  // Scopes apply to the fused list: each scope's member rankings are fused by rank, as the global one is.
  const scoped =
    opts.scopes !== undefined && needsScopedSearch(q, opts.scopes)
      ? layoutSections(
          scopeLabel(opts.scopes),
          globalEntries,
          groupScopes(results.map((r) => r.groups ?? [])).map((scope) => ({
            scope,
            entries: entriesOf(
              results.map((r) => ({
                member: r.name,
                hits: r.groups?.find((g) => sameScope(g.scope, scope))?.hits ?? [],
              })),
            ),
          })),
        )
      : undefined;
  const entries = scoped ? scoped.entries : globalEntries;
  const members: Record<string, string> = {};
  for (const e of entries) if (e.member !== undefined) members[e.member] = e.root;
  const anyTruncated = results.some((r) => r.truncated);
  const store = openResultStore(ws.resultsDir);
  const lineMatch = lineMatchOf(q);
  const saved = store.save(
    {
      ...(lineMatch ? { lines: lineMatch } : {}),
      query: q.input,
      truncated: anyTruncated || (scoped?.cut ?? false),
      words: snippetTerms(q),
      members,
      workspace: ws.config.file,
      ...(scoped ? { scopes: scoped.label, sections: scoped.sections } : {}),
      ...(opts.page ? { page: opts.page } : {}),
    },
    entries,
  );
  if (!saved.ok) return fail(saved.error.code, saved.error.message);
  let coverage = workspaceCoverage(
    results.map((r): CoverageMember => {
      const m = targetOf.get(r.name)!;
      return { result: r, configuredRoot: m.configuredRoot, root: m.root, worktree: m.worktree };
    }),
    scope,
    scoped ? scoped.sections[0].count : entries.length,
    saved.value.truncated || anyTruncated,
  );
  if (scoped)
    coverage = addGitLogCoverage(
      coverage,
      results.map((r) => [r.name, r.gitLog] as const),
    );
  return ok({
    query: q.input,
    setId: saved.value.id,
    offset: 0,
    entries: entries.slice(0, saved.value.stored),
    truncated: saved.value.truncated || anyTruncated,
    coverage: coverage.json,
    coverageLine: coverage.line,
    words: snippetTerms(q),
    members,
    ...(scoped ? { scoped } : {}),
    ...(lineMatch ? { lineMatch } : {}),
  });
}

/**
 * A `sym:` hit's standing on a fused page, which its member's ranking gives no lanes for:
 * a definition (a hit with a kind) before a file that only imports or mentions the name,
 * whichever member ranked it, then by rank within its member. A categorical tier, as the
 * lanes' tiers are, never a score: an import-only `flask/app.py` (flask's 2nd) stood before
 * werkzeug's `sansio/request.py` `class Request` (werkzeug's 2nd) for `search sym:Request`
 * (a workspace trial).
 */
function symbolStanding(q: ParsedQuery, h: SearchHit): { tier: number; score: number } | undefined {
  return q.mode === 'sym' ? { tier: h.kind !== undefined ? 0 : 1, score: 0 } : undefined;
}

/**
 * The standing of a query's hits on a fused page: its lane standing in its member, and for a word spelled
 * as code that is no compound identifier (`Retry`, `Session`: `spelledWord`), whose members
 * rank without identifier tiers, a definition spelled as the query before any file of the
 * same tier that only uses or mentions the word, whichever member ranked it. A categorical
 * tier, never a score: a requests workspace's `search Retry` put three requests files
 * (`self.max_retries = Retry(0, read=False)`, `class RetryError`, a status code's "retry")
 * before urllib3's `class Retry`, its own member's first (a workspace trial).
 */
function fusedStanding(q: ParsedQuery): (h: SearchHit) => { tier: number; score: number } | undefined {
  const spelled = q.mode === 'free' && !q.identifier ? spelledWord(q) : undefined;
  return (h) => {
    if (h.fusion === undefined) return symbolStanding(q, h);
    if (spelled === undefined) return h.fusion;
    const defines = h.kind !== undefined && h.name !== undefined && lastSegment(h.name) === spelled;
    return { tier: h.fusion.tier * 2 + (defines ? 0 : 1), score: h.fusion.score };
  };
}
