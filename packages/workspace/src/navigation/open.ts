// The indexes a navigation verb reads: the single root, or the selected workspace
// members (each opened on its own, never a competing writer).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_MAX_BYTES, type ParsedQuery } from '@trufflepig/index';
import { percentDecode } from '@trufflepig/base/stored-path';
import type { NavTarget } from '@trufflepig/navigation';
import { printedPath } from '@trufflepig/render';
import type { LiveSourceEntry } from '@trufflepig/result-cache';
import { checkOwner, ownerIndexOptions } from '../core/owner';
import type { Context, MemberTarget, WorkspaceContext } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { selectMembers, withMemberPaths } from '../federation/federate';
import { cutReason } from '../federation/member-search';
import { openReader } from '../core/search';
import type { Host } from '../core/host';
import type { SearchScope } from '../federation/coverage';
import { openPublished, releaseReader } from '../core/reader-pool';

export type { NavTarget } from '@trufflepig/navigation';

export interface NavSkipped {
  readonly member: string;
  readonly state: 'warming' | 'unavailable';
  readonly reason: string;
}

export interface NavTargets {
  readonly targets: NavTarget[];
  readonly skipped: NavSkipped[];
  readonly scope?: SearchScope;
  /** Home without results may widen to these members (unopened yet). */
  readonly widenTo: readonly MemberTarget[];
  readonly ws?: WorkspaceContext;
  /**
   * The query as the targets read it: in a workspace, `file:MEMBER/path` selects MEMBER
   * and filters on the path inside it (withMemberPaths), as search reads it.
   */
  readonly query: ParsedQuery;
}

function relativeHere(root: string, cwd: string): string | undefined {
  const rel = path.relative(root, cwd);
  return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
}

export async function openMembers(
  host: Host,
  members: readonly MemberTarget[],
  cwd: string,
): Promise<{ targets: NavTarget[]; skipped: NavSkipped[] }> {
  const targets: NavTarget[] = [];
  const skipped: NavSkipped[] = [];
  for (const m of members) {
    if (!m.available) {
      skipped.push({ member: m.name, state: 'unavailable', reason: m.unavailableReason ?? 'missing root' });
      continue;
    }
    const reader = await openReader(host, m.root, m.cacheDir, m.parentCacheDir);
    if (!reader.ok) {
      skipped.push({
        member: m.name,
        state: reader.error.code === 'index_locked' ? 'warming' : 'unavailable',
        reason: cutReason(reader.error.message),
      });
      continue;
    }
    const here = relativeHere(m.root, cwd);
    targets.push({
      member: m.name,
      root: m.root,
      cacheDir: m.cacheDir,
      reader: reader.value,
      ...(here !== undefined ? { here } : {}),
    });
  }
  return { targets, skipped };
}

/** Targets of a navigation request: selectors as for search (home widens only when asked to by the caller). */
export async function openTargets(ctx: Context, q: ParsedQuery, cwd: string): Promise<Outcome<NavTargets>> {
  if (ctx.kind === 'single') {
    if (q.members.length > 0 || q.workspace !== null)
      return fail(
        'no_workspace',
        'workspace selectors (in:NAME, ws:home, ws:all) need a workspace; pass --workspace FILE or run inside a member',
      );
    const reader = await openReader(ctx.host, ctx.root.root, ctx.root.cacheDir);
    if (!reader.ok) return reader;
    const here = relativeHere(ctx.root.root, cwd);
    return ok({
      targets: [
        {
          root: ctx.root.root,
          cacheDir: ctx.root.cacheDir,
          reader: reader.value,
          ...(here !== undefined ? { here } : {}),
        },
      ],
      skipped: [],
      widenTo: [],
      query: q,
    });
  }
  const query = withMemberPaths(ctx.ws, q);
  const selected = selectMembers(ctx.ws, query);
  if (!selected.ok) return selected;
  const opened = await openMembers(ctx.host, selected.value.targets, cwd);
  const widenTo = selected.value.widen ? ctx.ws.members.filter((m) => m.name !== selected.value.targets[0].name) : [];
  if (opened.targets.length === 0 && widenTo.length === 0) {
    return fail(
      'workspace_unavailable',
      `no selected member is available (${opened.skipped.map((s) => `${s.member}: ${s.reason}`).join('; ')}); fix the member paths in ${ctx.ws.config.file} or select another member`,
    );
  }
  return ok({ ...opened, scope: selected.value.scope, widenTo, ws: ctx.ws, query });
}

export function closeTargets(targets: readonly NavTarget[]): void {
  for (const t of targets) releaseReader(t.reader);
}

/** Open the handle's owner and refuse a handle the owner's graph has moved past. */
export async function openOwner(host: Host, entry: LiveSourceEntry): Promise<Outcome<NavTarget>> {
  const root = percentDecode(entry.root).toString('utf8');
  const owner = checkOwner(entry, root);
  if (!owner.ok) return owner;
  const cache = entry.cache;
  if (!cache || !fs.existsSync(cache))
    return fail('stale_result', `the index this handle came from is gone; search again`);
  const reader = await openPublished(host, cache, root, ownerIndexOptions(entry));
  if (!reader.ok)
    return fail(
      'stale_result',
      `the index this handle came from cannot be opened (${reader.error.code}); search again`,
    );
  if (reader.value.generation !== entry.generation) {
    const now = reader.value.generation;
    releaseReader(reader.value);
    return fail(
      'stale_result',
      `the index moved from generation ${entry.generation} to ${now} since this handle was made; search again for current context`,
    );
  }
  const file = reader.value.fileByPath(entry.path);
  // A hit in a file too large to index (a `re:` or `"literal"` scan read it live) has no
  // structure to give context from; its revision was never on record, and calling that
  // `changed in the index` sent an agent to search again for the same answer (a trial on
  // the SQLite amalgamation).
  if (file?.excluded === 'too_large') {
    releaseReader(reader.value);
    const p = printedPath(entry.path);
    return fail(
      'no_indexed_path',
      `${p} is too large to index (${file.size.toLocaleString('en-US')} bytes, over the ${FILE_MAX_BYTES.toLocaleString('en-US')}-byte bound): it has no definitions or callers to give; show the handle to read the hit, search re:PATTERN file:${p} to find more of it`,
    );
  }
  if (!file || file.revision !== entry.revision) {
    releaseReader(reader.value);
    return fail(
      'stale_result',
      `${printedPath(entry.path)} changed in the index since this handle was made; search again`,
    );
  }
  return ok({
    ...(entry.member !== undefined ? { member: entry.member } : {}),
    root,
    cacheDir: cache,
    reader: reader.value,
  });
}
