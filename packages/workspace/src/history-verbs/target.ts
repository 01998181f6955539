// What a history verb (`hist`, `blame`) is about: a handle's span, `path:P[:A-B]`, or the
// best definition of `sym:NAME [filters]`, as lines of a file in the working tree, read
// once and verified. Inside a workspace a path or a name is looked up in one member only
// (--member, else home; workspace contract: one revision is never resolved across
// repositories); a handle goes to the member that owns it.
import { parseQuery, quoteInput } from '@trufflepig/index';
import { percentDecode } from '@trufflepig/base/stored-path';
import { printedPath } from '@trufflepig/render';
import type { ResultStore } from '@trufflepig/result-cache';
import type { Context, MemberTarget } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { firstKnown } from '../core/command-kit';
import { readOnce } from '../core/live';
import { closeTargets, openMembers, openTargets } from '../navigation/open';
import { bestDefinition, qualifiedName } from '@trufflepig/navigation';
import { checkOwner } from '../core/owner';
import { showPath } from '../core/show';
import { settleHandle } from '../core/settle';

export interface HistoryTarget {
  /** The owner root (canonical, absolute). */
  readonly root: string;
  readonly member?: string;
  /** Root-relative path, percent-encoded. */
  readonly path: string;
  /** Lines of the working tree's file; undefined: the whole file. */
  readonly range?: { readonly start: number; readonly end: number };
  readonly name?: string;
  /** The bytes read (verified against the handle or index where there is one) and their revision. */
  readonly bytes: Buffer;
  readonly revision: string;
}

/** The member a history verb addresses inside a workspace: --member, else home; never all of them. */
export function historyMember(ctx: Extract<Context, { kind: 'workspace' }>, verb: string): Outcome<MemberTarget> {
  const ws = ctx.ws;
  const name = ws.member ?? ws.home?.name;
  if (name === undefined) {
    return fail(
      'member_required',
      `${verb} inside workspace ${ws.config.name} needs a member: one revision is never resolved across repositories; run it inside a member, or pass --member NAME (members: ${ws.members.map((m) => m.name).join(', ')})`,
    );
  }
  const m = ws.members.find((x) => x.name === name)!;
  if (!m.available)
    return fail(
      'member_unavailable',
      `member ${m.name} is unavailable (${m.unavailableReason ?? 'missing root'}); fix its path in ${ws.config.file}`,
    );
  return ok(m);
}

const CONTINUATION = /~\d+$/;

function fromHandle(
  words: readonly string[],
  stores: readonly ResultStore[],
  ctx: Context,
  verb: string,
): Outcome<HistoryTarget> {
  if (words.length !== 1 || CONTINUATION.test(words[0]))
    return fail(
      'bad_arguments',
      `${verb} takes one HANDLE (SET:N from search, show sym:, map or refs), path:P[:A-B], or sym:NAME [filters]`,
    );
  const resolved = firstKnown(stores, (s) => s.resolve(words[0].trim()));
  if (!resolved.ok) return fail(resolved.error.code, resolved.error.message);
  const entry = resolved.value.entry;
  if (entry.tag !== 'live_source')
    return fail(
      'bad_arguments',
      `${words[0]} is a ${entry.tag} entry; ${verb} takes a handle to current source (search, show sym:, map, refs), path:P or sym:NAME`,
    );
  if (
    ctx.kind === 'workspace' &&
    ctx.ws.member !== undefined &&
    entry.member !== undefined &&
    entry.member !== ctx.ws.member
  ) {
    return fail(
      'bad_arguments',
      `${words[0]} belongs to member ${entry.member}, not --member ${ctx.ws.member}; drop --member or pass a handle of that member`,
    );
  }
  const root = percentDecode(entry.root).toString('utf8');
  const owner = checkOwner(entry, root);
  if (!owner.ok) return owner;
  const live = readOnce(root, entry.path);
  if (!live.ok)
    return fail('source_missing', `${printedPath(entry.path)} cannot be read now (${live.message}); search again`);
  if (live.revision !== entry.revision)
    return fail(
      'stale_source',
      `${printedPath(entry.path)} changed since the search, so the handle's lines may no longer be the target; search again`,
    );
  return ok({
    root,
    ...(entry.member !== undefined ? { member: entry.member } : {}),
    path: entry.path,
    range: { start: entry.start_line, end: entry.end_line },
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    bytes: live.bytes,
    revision: live.revision,
  });
}

/** The root (and member) a path or a name is looked up in. */
function lookupRoot(ctx: Context, verb: string): Outcome<{ root: string; cacheDir: string; member?: MemberTarget }> {
  if (ctx.kind === 'single') return ok({ root: ctx.root.root, cacheDir: ctx.root.cacheDir });
  const m = historyMember(ctx, verb);
  return m.ok ? ok({ root: m.value.root, cacheDir: m.value.cacheDir, member: m.value }) : m;
}

function fromPath(spec: string, ctx: Context, verb: string): Outcome<HistoryTarget> {
  const where = lookupRoot(ctx, verb);
  if (!where.ok) return where;
  const read = showPath({ root: where.value.root, cacheDir: where.value.cacheDir, resultsDir: '' }, spec);
  if (!read.ok) return read;
  const rows = read.value.rows;
  // A range was asked for when the path read is not the whole text after `path:`.
  const ranged = /:\d+(-\d+)?$/.test(spec) && printedPath(read.value.path) !== spec && rows.length > 0;
  const live = readOnce(where.value.root, read.value.path);
  if (!live.ok || live.revision !== read.value.revision)
    return fail('stale_source', `${quoteInput(spec)} changed while it was read; retry`);
  return ok({
    root: where.value.root,
    ...(where.value.member ? { member: where.value.member.name } : {}),
    path: read.value.path,
    ...(ranged ? { range: { start: rows[0].line, end: rows[rows.length - 1].line } } : {}),
    bytes: live.bytes,
    revision: live.revision,
  });
}

async function fromSymbol(
  words: readonly string[],
  ctx: Context,
  cwd: string,
  verb: string,
): Promise<Outcome<HistoryTarget>> {
  const parsed = parseQuery(words);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  const q = parsed.value;
  if (q.mode !== 'sym' || !q.text)
    return fail('bad_query', `${verb} sym: takes a name, e.g. ${verb} sym:TokenBucket::refill file:src/`);
  if (q.members.length > 0 || q.workspace !== null)
    return fail(
      'bad_arguments',
      `${verb} looks in one member (--member NAME, else home), never across members; drop in:/ws: and pass --member`,
    );
  let opened;
  if (ctx.kind === 'single') {
    const nav = await openTargets(ctx, q, cwd);
    if (!nav.ok) return nav;
    opened = nav.value.targets;
  } else {
    const m = historyMember(ctx, verb);
    if (!m.ok) return m;
    const nav = await openMembers(ctx.host, [m.value], cwd);
    if (nav.targets.length === 0)
      return fail(
        'member_unavailable',
        `member ${m.value.name} has no index to look ${q.text} up in (${nav.skipped[0]?.reason ?? 'unavailable'}); run index`,
      );
    opened = nav.targets;
  }
  try {
    const best = bestDefinition(opened, q);
    if (!best.ok) return best;
    const { target, def } = best.value;
    const live = readOnce(target.root, def.file.path);
    if (!live.ok)
      return fail(
        'source_missing',
        `${printedPath(def.file.path)} was moved or deleted since indexing; run index, then retry`,
      );
    if (live.revision !== def.file.revision)
      return fail('stale_source', `${printedPath(def.file.path)} changed since it was indexed; run index, then retry`);
    return ok({
      root: target.root,
      ...(target.member !== undefined ? { member: target.member } : {}),
      path: def.file.path,
      range: { start: def.startLine, end: def.endLine },
      name: qualifiedName(def),
      bytes: live.bytes,
      revision: live.revision,
    });
  } finally {
    closeTargets(opened);
  }
}

/** The target of `verb WORDS`: a handle, `path:P[:A-B]` or `sym:NAME [filters]`. */
export function historyTarget(
  words: readonly string[],
  ctx: Context,
  stores: readonly ResultStore[],
  cwd: string,
  verb: string,
): Promise<Outcome<HistoryTarget>> | Outcome<HistoryTarget> {
  const first = words[0] ?? '';
  if (first.startsWith('sym:')) return fromSymbol(words, ctx, cwd, verb);
  if (first.startsWith('path:')) {
    if (words.length !== 1) return fail('bad_arguments', `${verb} path:P[:A-B] takes no other words`);
    return fromPath(first.slice('path:'.length), ctx, verb);
  }
  // A provisional span is narrowed first (core/settle.ts): the lines are the handle's as printed.
  return settleHandle(ctx.host, stores, first).then(() => fromHandle(words, stores, ctx, verb));
}
