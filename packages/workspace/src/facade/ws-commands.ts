// `ws show`, `ws status`, `ws discover`: inspect a workspace locally; start nothing.
import * as path from 'node:path';
import { coverageState, percentEncode } from '@trufflepig/index';
import { escapeLineField } from '@trufflepig/render';
import { canonicalRoot, checkRoots, gitInfo } from '@trufflepig/member-root';
import { MAX_MEMBERS, MAX_NAME_LENGTH, RESERVED_NAMES, type WorkspaceConfig } from '@trufflepig/config';
import type { MemberTarget, WorkspaceContext } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { standInLabel } from '../federation/fallback';
import { openPublished, releaseReader } from '../core/reader-pool';
import { CLIENT_HOST, type Host } from '../core/host';
import { cacheBaseOf, historyIndexReport } from '../history-verbs/log-index';
import { coordinatorDir, rootDaemonStatus } from '../serving/launch/daemon-control';

/** A member as `ws show` reports it. */
export type MemberShowRow = {
  path: string;
  root: string;
  available: boolean;
  reason?: string;
  worktree?: string;
  home?: true;
};

/** A daemon asked without starting one: its pid and generation, or `none`. */
export type DaemonSummary = 'none' | { state: 'serving'; pid: unknown; generation?: unknown };

/** A member as `ws status` reports it: `ws show`'s row plus its publication, coverage, history and daemon. */
export type MemberStatusRow = MemberShowRow & {
  cache: string;
  state: string;
  reconcile_failed?: unknown;
  generation?: number;
  indexed_files?: number;
  unsearched?: Readonly<Record<string, number>>;
  parse_failures?: number;
  excluded?: Readonly<Record<string, number>>;
  seed?: unknown;
  history?: Readonly<Record<string, unknown>>;
  daemon?: DaemonSummary;
};

/** `ws show`: configuration, home, roots and availability. */
export type WsShow = {
  workspace: string;
  config: string;
  selected_by: string;
  home: { name: string; root: string; worktree?: true; label?: string } | null;
  budget?: number;
  scopes: WorkspaceConfig['scopes'];
  semantic: Readonly<Record<string, unknown>>;
  members: Record<string, MemberShowRow>;
};

/** `ws status`: `ws show` plus the coordinator's daemon and each member's status. */
export type WsStatus = Omit<WsShow, 'members'> & { daemon: DaemonSummary; members: Record<string, MemberStatusRow> };

function memberShow(ws: WorkspaceContext, m: MemberTarget): MemberShowRow {
  const declared = ws.config.members.find((x) => x.name === m.name)!;
  const row: MemberShowRow = {
    path: declared.path,
    root: percentEncode(m.configuredRoot),
    available: m.available,
  };
  if (!m.available) row.reason = m.unavailableReason ?? 'missing root';
  if (m.worktree) row.worktree = percentEncode(m.root);
  if (ws.home?.name === m.name) row.home = true;
  return row;
}

/** Configuration, home, roots and availability. */
export function wsShowObject(ws: WorkspaceContext): WsShow {
  const c = ws.config;
  return {
    workspace: c.name,
    config: c.file,
    selected_by: ws.selectedBy,
    home: ws.home
      ? {
          name: ws.home.name,
          root: percentEncode(ws.home.root),
          ...(ws.home.worktree ? { worktree: true as const, label: standInLabel(ws.home.name, ws.home.root) } : {}),
        }
      : null,
    ...(c.budget !== undefined ? { budget: c.budget } : {}),
    scopes: c.scopes,
    // Semantic retrieval is not built yet: the setting is read and reported, never applied.
    semantic: { ...c.semantic, status: 'not available in this version' },
    members: Object.fromEntries(ws.members.map((m) => [m.name, memberShow(ws, m)])),
  };
}

/**
 * A member's history index, as `status` reports a root's, without the file path (ws show
 * names the cache): members of one repository share it (it is keyed by the Git common directory).
 */
function memberHistory(m: MemberTarget): { history?: Record<string, unknown> } {
  const report = historyIndexReport(m.root, cacheBaseOf(m.cacheDir));
  if (!report) return {};
  const { file: _file, ...rest } = report;
  return { history: rest };
}

type MemberState = Omit<MemberStatusRow, keyof MemberShowRow | 'daemon'> & { reason?: string };

async function memberStatus(host: Host, m: MemberTarget): Promise<MemberState> {
  const row: MemberState = { cache: m.cacheDir, state: 'unavailable' };
  if (!m.available) return { ...row, reason: m.unavailableReason ?? 'missing root' };
  const reader = await openPublished(host, m.cacheDir, m.root);
  if (!reader.ok) {
    row.state = reader.error.code === 'index_warming' ? 'warming' : 'unavailable';
    row.reason = reader.error.message;
    if (m.worktree && m.parentCacheDir) {
      const parent = await openPublished(host, m.parentCacheDir, m.configuredRoot);
      row.seed = parent.ok
        ? { state: 'pending', parent_generation: parent.value.generation }
        : { state: 'no_parent_index' };
      if (parent.ok) releaseReader(parent.value);
    }
    return { ...row, ...memberHistory(m) };
  }
  try {
    const cov = reader.value.coverage();
    const unsearched = Object.values(cov.unsearched).reduce((a, b) => a + b, 0);
    Object.assign(row, {
      state: coverageState(cov),
      ...(cov.reconcile_failed ? { reconcile_failed: cov.reconcile_failed } : {}),
      generation: cov.generation,
      indexed_files: cov.indexed_files,
      ...(unsearched > 0 ? { unsearched: cov.unsearched } : {}),
      ...(cov.parse_failures ? { parse_failures: cov.parse_failures } : {}),
      ...(Object.keys(cov.excluded).length ? { excluded: cov.excluded } : {}),
    });
    if (m.worktree) row.seed = reader.value.seed() ?? { state: 'not_seeded' };
    return { ...row, ...memberHistory(m) };
  } finally {
    releaseReader(reader.value);
  }
}

/** `ws show` plus publication generations, coverage, the history index and a worktree's seed outcome per member. */
export async function wsStatusObject(ws: WorkspaceContext, host: Host = CLIENT_HOST): Promise<WsStatus> {
  const shown = wsShowObject(ws);
  const members: Record<string, MemberStatusRow> = {};
  for (const m of ws.members)
    members[m.name] = {
      ...memberShow(ws, m),
      ...(await memberStatus(host, m)),
      ...(m.available ? { daemon: daemonSummary(await rootDaemonStatus(m.cacheDir)) } : {}),
    };
  // The coordinator, asked as a root's status asks its daemon (this process when it is the
  // one answering). It had been `daemon: none` whatever ran (an agent trial counted five).
  const daemon: DaemonSummary =
    host.name === 'client'
      ? daemonSummary(await rootDaemonStatus(coordinatorDir(ws)))
      : { state: 'serving', pid: process.pid };
  return { ...shown, daemon, members };
}

/** A running daemon's pid and generation, or `none`. */
function daemonSummary(status: Record<string, unknown> | 'none'): DaemonSummary {
  if (status === 'none') return 'none';
  return {
    state: 'serving',
    pid: status.pid,
    ...(status.generation !== undefined ? { generation: status.generation } : {}),
  };
}

/**
 * A value in a few words for a lines row: `binary 3, symlink 1` for a record, items joined
 * by `; ` for a list, `none` for nothing. Nested records read `key (…)`.
 */
function compact(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? value.map(compact).join('; ') : 'none';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (!entries.length) return 'none';
    return entries
      .map(([k, v]) =>
        v !== null && typeof v === 'object' && !Array.isArray(v) ? `${k} (${compact(v)})` : `${k} ${compact(v)}`,
      )
      .join(', ');
  }
  return String(value);
}

/** One member's row: what a reader needs to trust its answers or to act (the reason holds the next step). */
function memberRow(name: string, m: MemberShowRow | MemberStatusRow): string {
  const parts = [`member ${name}: ${m.path}${m.home ? ' (home)' : ''}`];
  if (m.worktree) parts.push(`worktree ${m.worktree}`);
  const status = 'state' in m ? m : undefined;
  if (status) {
    parts.push(status.state);
    if (m.reason) parts.push(`(${m.reason})`);
    if (status.generation !== undefined) parts.push(`generation ${status.generation}`);
    if (status.indexed_files !== undefined) parts.push(`${status.indexed_files} files`);
    if (status.excluded) parts.push(`excluded ${compact(status.excluded)}`);
    if (status.parse_failures) parts.push(`${status.parse_failures} parse failures (status --member ${name})`);
    if (status.unsearched) parts.push(`unsearched ${compact(status.unsearched)}`);
    if (status.reconcile_failed) parts.push(`reconcile failed (${compact(status.reconcile_failed)})`);
    if (status.seed !== undefined) parts.push(`seed ${compact(status.seed)}`);
    if (status.daemon !== undefined) parts.push(`daemon ${compact(status.daemon)}`);
  } else {
    parts.push(m.available ? 'available' : 'unavailable');
    if (m.reason) parts.push(`(${m.reason})`);
  }
  return parts.join('  ');
}

/**
 * Lines format of `ws show` and `ws status`: the workspace's fields, one row per member,
 * and the members' history indexes once per distinct report (members of one repository
 * share one; the same note three times had been most of a three-member answer). Roots and
 * caches are in the JSON.
 */
export function wsLines(value: WsShow | WsStatus): string {
  const rows = [
    `workspace: ${value.workspace}`,
    `config: ${value.config}`,
    `selected_by: ${value.selected_by}`,
    `home: ${value.home ? `${value.home.name}${value.home.label ? ` (${value.home.label})` : ''}` : 'none'}`,
    ...(value.budget !== undefined ? [`budget: ${value.budget}`] : []),
    `scopes: ${compact(value.scopes)}`,
    `semantic: ${compact(value.semantic)}`,
    ...('daemon' in value ? [`daemon: ${compact(value.daemon)}`] : []),
  ];
  const histories = new Map<string, string[]>();
  for (const [name, m] of Object.entries(value.members)) {
    rows.push(memberRow(name, m));
    const history = 'history' in m ? m.history : undefined;
    if (history === undefined) continue;
    const text = compact(history);
    histories.set(text, [...(histories.get(text) ?? []), name]);
  }
  for (const [text, names] of histories)
    rows.push(`history${histories.size > 1 ? ` of ${names.join(', ')}` : ''}: ${text}`);
  return rows.map((r) => escapeLineField(r)).join('\n') + '\n';
}

function memberName(dir: string, taken: Set<string>): string {
  const cleaned =
    path
      .basename(dir)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, MAX_NAME_LENGTH - 3) || 'member';
  // A directory called __proto__ or constructor proposes a name the configuration accepts.
  const base = RESERVED_NAMES.has(cleaned) ? `${cleaned}-member` : cleaned;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

function tomlString(value: string): string {
  return JSON.stringify(value); // a TOML basic string is a JSON string for these characters
}

/**
 * `ws discover PATH...`: validate the given directories and propose a configuration.
 * Applies nothing, fetches nothing, and looks at no directory it was not given.
 */
export function wsDiscover(paths: readonly string[], cwd: string): Outcome<Record<string, unknown>> {
  if (paths.length === 0)
    return fail('bad_arguments', 'ws discover needs directories, e.g. trufflepig ws discover ~/src/app ~/src/lib');
  if (paths.length > MAX_MEMBERS)
    return fail('config_member_count', `a workspace holds at most ${MAX_MEMBERS} members; give fewer directories`);
  const roots: string[] = [];
  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    const c = canonicalRoot(abs);
    if (!c.ok) return fail(c.error.code, `${p}: ${c.error.message}`);
    roots.push(c.value);
  }
  const conflicts = checkRoots(roots);
  if (conflicts.length)
    return fail(
      conflicts[0].kind === 'duplicate' ? 'config_duplicate_root' : 'config_overlapping_root',
      conflicts.map((c) => c.message).join('; '),
    );
  const taken = new Set<string>();
  const members = roots.map((root) => {
    const git = gitInfo(root);
    const notes: string[] = [];
    if (git.ok && git.value.insideWorkTree) {
      if (git.value.linkedWorktree) notes.push('a linked Git worktree: consider its main checkout as the member root');
      if (git.value.topLevel !== root) notes.push(`inside the Git repository ${git.value.topLevel}, not its top level`);
    } else notes.push('not a Git repository (no worktrees or commit history for it)');
    return { name: memberName(root, taken), root, notes };
  });
  const name = memberName(path.basename(cwd), new Set());
  const toml = [
    '[workspace]',
    `name = ${tomlString(name)}`,
    `members = [${members.map((m) => tomlString(m.name)).join(', ')}]`,
    '',
    ...members.flatMap((m) => [`[members.${m.name}]`, `path = ${tomlString(m.root)}`, '']),
  ].join('\n');
  return ok({
    proposal: {
      workspace: { name, members: members.map((m) => m.name) },
      members: Object.fromEntries(
        members.map((m) => [m.name, { path: m.root, ...(m.notes.length ? { notes: m.notes } : {}) }]),
      ),
    },
    toml,
    applied: false,
    next: `save the toml as trufflepig.workspace.toml (paths may be made relative to that file), or list it in the registry`,
  });
}
