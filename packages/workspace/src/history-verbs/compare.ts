// What `since` and `diff` share: REV (or HEAD with --uncommitted) compared with the working
// tree of one root (a target's owner, else the workspace member, else the root), and the
// change entries of its definitions (and for `diff` of the hunks outside them), each a
// `change` record whose after side is the working tree file (verified when `show` reads it).
import {
  encodedPath,
  gitPathOf,
  openRepo,
  resolveRevision,
  rootPathOf,
  sinceRevision,
  NO_WORKTREE_FILE,
  SINCE_FILES_MAX,
  type DefChange,
  type OutsideHunk,
  type Repo,
  type Revision,
  type Since,
  type SinceFile,
} from '@trufflepig/history';
import { percentEncode } from '@trufflepig/base/stored-path';
import { counted, printedPath } from '@trufflepig/render';
import type { ChangeEntry, ChangeRecord, ResultEntry } from '@trufflepig/result-cache';
import { storesFor, type CommandOptions } from '../core/command-kit';
import type { Context } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { historyMember, historyTarget, type HistoryTarget } from './target';

export const short = (id: string) => id.slice(0, 7);

/** The target as a page's header names it (`b.ts:2-6 gamma`, `b.ts (whole file)`). */
export function describe(t: HistoryTarget): string {
  const where = `${t.member !== undefined ? `${t.member}/` : ''}${printedPath(t.path)}`;
  return t.range
    ? `${where}:${t.range.start}-${t.range.end}${t.name !== undefined ? ` ${t.name}` : ''}`
    : `${where} (whole file)`;
}

/** What was asked: a revision (HEAD for --uncommitted) and the target's words (none: everything). */
export interface CompareRequest {
  readonly rev: string;
  readonly uncommitted: boolean;
  readonly target: readonly string[];
}

export interface Comparison {
  readonly root: string;
  readonly member?: string;
  readonly target?: HistoryTarget;
  readonly repo: Repo;
  readonly base: Revision;
  readonly since: Since;
}

/** REV against the working tree under the root the request addresses (a workspace needs a member, as every history verb). */
export async function compareWorkingTree(
  ctx: Context,
  opts: CommandOptions,
  req: CompareRequest,
  verb: string,
  hunks: boolean,
): Promise<Outcome<Comparison>> {
  let target: HistoryTarget | undefined;
  let root: string;
  let member: string | undefined;
  if (req.target.length > 0) {
    const t = await historyTarget(req.target, ctx, storesFor(ctx, opts), opts.cwd ?? process.cwd(), verb);
    if (!t.ok) return t;
    target = t.value;
    root = t.value.root;
    member = t.value.member;
  } else if (ctx.kind === 'workspace') {
    const m = historyMember(ctx, verb);
    if (!m.ok) return m;
    root = m.value.root;
    member = m.value.name;
  } else root = ctx.root.root;
  const repo = openRepo(root);
  if (!repo.ok) return fail(repo.error.code, repo.error.message);
  const base = resolveRevision(repo.value, req.rev);
  if (!base.ok) return fail(base.error.code, base.error.message);
  const since = sinceRevision(repo.value, root, base.value, {
    uncommitted: req.uncommitted,
    hunks,
    ...(target ? { only: gitPathOf(repo.value, target.path) } : {}),
  });
  if (!since.ok) return fail(since.error.code, since.error.message);
  return ok({
    root,
    ...(member !== undefined ? { member } : {}),
    ...(target ? { target } : {}),
    repo: repo.value,
    base: base.value,
    since: since.value,
  });
}

/** Words after a file's path line: how it changed, and with --uncommitted where the change is. */
export function fileNote(f: SinceFile, repo: Repo, uncommitted: boolean): string {
  const words: string[] = [];
  if (f.status === 'added') words.push('new file');
  else if (f.status === 'untracked') words.push('untracked');
  else if (f.status === 'deleted') words.push('deleted');
  else if (f.beforePath !== undefined) words.push(`renamed from ${printedPath(rootPathOf(repo, f.beforePath))}`);
  if (uncommitted)
    words.push(...[f.staged ? 'staged' : '', f.unstaged && f.status !== 'untracked' ? 'unstaged' : ''].filter(Boolean));
  return words.join(', ');
}

/** Each compared file's note, by printed path. */
export function fileNotes(c: Comparison, uncommitted: boolean): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const f of c.since.files) {
    const note = fileNote(f, c.repo, uncommitted);
    if (note) notes[printedPath(rootPathOf(c.repo, f.path))] = note;
  }
  return notes;
}

/** Whether a definition change concerns the target (its name, else its lines). */
function concerns(c: DefChange, t: HistoryTarget | undefined): boolean {
  if (t === undefined || t.range === undefined) return true;
  if (t.name !== undefined) return c.name === t.name;
  const r = c.after ?? c.before!;
  return r.start <= t.range.end && r.end >= t.range.start;
}

/** Whether a hunk outside definitions concerns the target: a whole file, or lines it touches (a named target never). */
function hunkConcerns(h: OutsideHunk, t: HistoryTarget | undefined): boolean {
  if (t === undefined || t.range === undefined) return true;
  if (t.name !== undefined) return false;
  return h.after.start <= t.range.end && Math.max(h.after.end, h.after.start) >= t.range.start;
}

/** The change entry of one file's change: a since record, the working tree on its after side. */
function entryMaker(c: Comparison, f: SinceFile) {
  const common = {
    repo: encodedPath(c.repo.top),
    commit: c.base.commit,
    worktree: f.revision ?? NO_WORKTREE_FILE,
    date: c.base.date,
    subject: c.base.subject,
  };
  return (
    change: Omit<ChangeRecord, keyof typeof common>,
    lines: { start: number; end: number },
    extra: Pick<ChangeEntry, 'name' | 'kind' | 'outside'> = {},
  ): ChangeEntry => ({
    tag: 'change',
    root: percentEncode(c.root),
    ...(c.member !== undefined ? { member: c.member } : {}),
    path: rootPathOf(c.repo, f.path),
    revision: f.revision ?? NO_WORKTREE_FILE,
    generation: 0,
    start: 0,
    end: 0,
    start_line: lines.start,
    end_line: lines.end,
    ...extra,
    change: { ...common, ...change },
  });
}

const sideOf = (path: string, r: { start: number; end: number }) => ({ path, start_line: r.start, end_line: r.end });

/** The definition changes of every compared file (in file order), narrowed to the target. */
export function definitionEntries(c: Comparison, f: SinceFile): ChangeEntry[] {
  if (f.skipped !== undefined) return [];
  const entry = entryMaker(c, f);
  const beforePath = encodedPath(f.beforePath ?? f.path);
  return f.changes
    .filter((x) => concerns(x, c.target))
    .map((d) => {
      const after = d.after ?? { start: 1, end: 0 };
      return entry(
        {
          after: sideOf(encodedPath(f.path), after),
          ...(d.before ? { before: sideOf(beforePath, d.before) } : {}),
          added: d.added,
          deleted: d.deleted,
          ...(d.whitespaceOnly ? { whitespace_only: true } : {}),
        },
        after,
        { name: d.name, ...(d.kind !== undefined ? { kind: d.kind } : {}) },
      );
    });
}

/** `since`: a file with no definition change is one whole-file row (a document, an edit between definitions). */
export function wholeFileEntry(c: Comparison, f: SinceFile): ChangeEntry | undefined {
  if (
    f.skipped !== undefined ||
    !f.fileCounts ||
    f.fileCounts.added + f.fileCounts.deleted === 0 ||
    (c.target !== undefined && c.target.range !== undefined)
  )
    return undefined;
  const hadBefore = f.status !== 'added' && f.status !== 'untracked';
  return entryMaker(c, f)(
    {
      after: { path: encodedPath(f.path) },
      ...(hadBefore ? { before: { path: encodedPath(f.beforePath ?? f.path) } } : {}),
      whole_file: true,
      added: f.fileCounts.added,
      deleted: f.fileCounts.deleted,
    },
    { start: 1, end: 0 },
  );
}

/** `diff`: the file's hunks outside its definition changes, each its own entry (lines on both sides). */
export function outsideEntries(c: Comparison, f: SinceFile): ChangeEntry[] {
  if (f.skipped !== undefined || f.outside === undefined) return [];
  const entry = entryMaker(c, f);
  const hadBefore = f.status !== 'added' && f.status !== 'untracked';
  const beforePath = encodedPath(f.beforePath ?? f.path);
  return f.outside
    .filter((h) => hunkConcerns(h, c.target))
    .map((h) =>
      entry(
        {
          after: sideOf(encodedPath(f.path), h.after),
          ...(hadBefore ? { before: sideOf(beforePath, h.before) } : {}),
          added: h.added,
          deleted: h.deleted,
          ...(h.whitespaceOnly ? { whitespace_only: true } : {}),
        },
        h.after,
        { outside: true },
      ),
    );
}

/** The coverage both verbs report (`extra` adds the verb's own counts), and its line. */
export function compareCoverage(
  c: Comparison,
  req: CompareRequest,
  entries: readonly ResultEntry[],
  extra: Record<string, unknown> = {},
  extraWords = '',
): { json: Record<string, unknown>; line: string; against: string } {
  const files = c.since.files;
  const skipped = files.filter((f) => f.skipped !== undefined);
  const shownFiles = new Set(entries.map((e) => e.path)).size;
  const against = `${req.uncommitted ? 'uncommitted (staged and unstaged) against HEAD' : `since ${req.rev}`} ${short(c.base.commit)}`;
  const json: Record<string, unknown> = {
    since: c.base.commit,
    subject: c.base.subject,
    uncommitted: req.uncommitted,
    files_changed: files.length + c.since.cutFiles,
    files: shownFiles,
    changes: entries.length,
    ...extra,
    ...(skipped.length
      ? { not_compared: Object.fromEntries(skipped.map((f) => [printedPath(rootPathOf(c.repo, f.path)), f.skipped!])) }
      : {}),
    ...(c.since.cutFiles ? { cut_files: c.since.cutFiles } : {}),
    complete: c.since.cutFiles === 0 && skipped.length === 0,
  };
  const line = [
    `${counted(entries.length, 'change')} in ${counted(shownFiles, 'file')}${extraWords}, ${against}`,
    ...(skipped.length
      ? [`${skipped.length} files not compared (${[...new Set(skipped.map((f) => f.skipped))].join('; ')})`]
      : []),
    ...(c.since.cutFiles
      ? [`only the first ${SINCE_FILES_MAX} changed files were compared (${c.since.cutFiles} more)`]
      : []),
  ].join('; ');
  return { json, line, against };
}
