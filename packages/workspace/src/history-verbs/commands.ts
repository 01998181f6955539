// The history verbs as commands (docs/history.md): `hist TARGET` and `blame TARGET` read
// Git directly in this process, save one change entry per row (tag `change`, a typed
// ChangeRecord) and print a budgeted page; `show` of such a handle reads the change back
// from Git objects, verified; `more` pages on with the same rows. `since` and `diff`
// compare a revision with the working tree (history-verbs/compare.ts; history-verbs/diff-command.ts).
import {
  blameRange,
  encodedPath,
  gitPathOf,
  lineCount,
  mapToHead,
  openRepo,
  pathPrinter,
  readChange,
  renderChange,
  renderChangeSide,
  renderHistoryPage,
  rootPathOf,
  walkHistory,
  BLAME_MOVE_MIN_CHARS,
  type Blame,
  type ChangeSideName,
  type HeadMapping,
  type HistCommit,
  type HistWalk,
  type Repo,
} from '@trufflepig/history';
import { percentEncode } from '@trufflepig/base/stored-path';
import { verbSpec } from '@trufflepig/cli-surface';
import { DEFAULT_BUDGET, lineStarts, printedPath, type OutputFormat, type RenderResult } from '@trufflepig/render';
import {
  changeOf,
  formatHandle,
  parseHandle,
  type ChangeEntry,
  type ChangeRecord,
  type ResultEntry,
  type ResultStore,
  type StoredSet,
} from '@trufflepig/result-cache';
import {
  errorResult,
  firstKnown,
  storesFor,
  withContext,
  withPageShape,
  type CommandOptions,
  type CommandResult,
} from '../core/command-kit';
import type { Context } from '../core/context';
import { diffMore } from './diff-command';
import {
  compareCoverage,
  compareWorkingTree,
  definitionEntries,
  describe,
  fileNotes,
  short,
  wholeFileEntry,
  type CompareRequest,
} from './compare';
import { cacheBaseOf, historyIndexForWalk } from './log-index';
import { historyTarget, type HistoryTarget } from './target';
import { resolveRoot } from '../core/root';
import { renderedResult } from '../core/render-choice';

function changeEntry(t: HistoryTarget, repo: Repo, c: HistCommit, whole: boolean): ChangeEntry {
  const lines = (r?: { start: number; end: number }) => (r ? { start_line: r.start, end_line: r.end } : {});
  const change: ChangeRecord = {
    repo: encodedPath(repo.top),
    commit: c.commit,
    ...(c.parents[0] !== undefined ? { parent: c.parents[0] } : {}),
    after: { path: encodedPath(c.after.path), ...lines(c.after.range) },
    ...(c.before ? { before: { path: encodedPath(c.before.path), ...lines(c.before.range) } } : {}),
    ...(whole ? { whole_file: true } : {}),
    date: c.date,
    subject: c.subject,
    added: c.added,
    deleted: c.deleted,
    ...(c.event !== undefined ? { event: c.event } : {}),
    ...(c.parents.length > 1 ? { merge: true } : {}),
  };
  return {
    tag: 'change',
    root: percentEncode(t.root),
    ...(t.member !== undefined ? { member: t.member } : {}),
    path: rootPathOf(repo, c.after.path),
    revision: c.commit,
    generation: 0,
    start: 0,
    end: 0,
    start_line: c.after.range?.start ?? 0,
    end_line: c.after.range?.end ?? 0,
    ...(t.name !== undefined ? { name: t.name } : {}),
    change,
  };
}

function histCoverage(
  repo: Repo,
  t: HistoryTarget,
  head: HeadMapping,
  walk: HistWalk | undefined,
  index?: { state: string },
): { json: Record<string, unknown>; line: string } {
  const n = walk?.commits.length ?? 0;
  const json: Record<string, unknown> = {
    commits: n,
    first_parent: true,
    ...(repo.head ? { head: repo.head } : {}),
    moves: walk?.moves ?? 0,
    scanned: walk?.scanned ?? 0,
    // Where the files' logs were read: the history index (state, records from it) or Git; the answer is the same.
    ...(index ? { history_index: { state: index.state, records: walk?.fromIndex ?? 0 } } : {}),
    complete: walk !== undefined && walk.cut === undefined && walk.shallow === undefined,
    ...(walk?.cut ? { cut: walk.cut } : {}),
    ...(walk?.shallow ? { shallow: walk.shallow } : {}),
    ...(head.uncommitted ? { uncommitted: head.uncommitted } : {}),
    ...(!head.inHead ? { not_in_head: true } : {}),
  };
  const parts = [
    repo.head ? `${n} commit${n === 1 ? '' : 's'}, first-parent from HEAD ${short(repo.head)}` : 'no commits yet',
  ];
  if (walk?.moves) parts.push(`${walk.moves} move${walk.moves > 1 ? 's' : ''} followed`);
  if (repo.head && !head.inHead) parts.push(`${printedPath(t.path)} is not in HEAD (not committed yet)`);
  else if (head.inHead && head.target === undefined) parts.push('every line of the target is uncommitted');
  if (walk?.cut) parts.push(`stopped early: ${walk.cut.detail} (older commits not read)`);
  if (walk?.shallow)
    parts.push(`shallow clone: no commits before ${short(walk.shallow.commit)} (${walk.shallow.date.slice(0, 10)})`);
  if (json.complete === true) parts.push('complete');
  return { json, line: parts.join('; ') };
}

interface PageMeta {
  readonly verb: 'hist' | 'blame' | 'since';
  readonly query: string;
  readonly target: string;
  readonly coverage: Record<string, unknown>;
  readonly coverageLine: string;
  readonly notes: string[];
  /** `since`: a word or two after each file's path line. */
  readonly fileNotes?: Record<string, string>;
}

function printerOf(entries: readonly ResultEntry[]): (p: string) => string {
  const first = entries.find((e): e is ChangeEntry => e.tag === 'change');
  return first ? pathPrinter(first.change.repo, first.root) : (p) => p;
}

function page(
  set: { id: string; entries: readonly ResultEntry[] },
  offset: number,
  meta: PageMeta,
  truncated: boolean,
  opts: CommandOptions,
  budget: number,
): CommandResult {
  const printPath = printerOf(set.entries);
  return renderedResult(opts, (format) =>
    renderHistoryPage(
      {
        verb: meta.verb,
        query: meta.query,
        target: meta.target,
        setId: set.id,
        offset,
        entries: set.entries.slice(offset),
        coverage: meta.coverage,
        coverageLine: meta.coverageLine,
        truncated,
        notes: meta.notes,
        printPath,
        ...(meta.fileNotes ? { fileNotes: meta.fileNotes } : {}),
      },
      { format, budget, ...(opts.limit !== undefined ? { limit: opts.limit } : {}) },
    ),
  );
}

function saveAndPage(
  ctx: Context,
  opts: CommandOptions,
  budget: number,
  meta: PageMeta,
  entries: ResultEntry[],
): CommandResult {
  const saved = storesFor(ctx, opts)[0].save(
    {
      query: meta.query,
      truncated: false,
      words: [],
      nav: meta.verb,
      target: meta.target,
      coverage: meta.coverage,
      coverageLine: meta.coverageLine,
      notes: meta.notes,
      ...(meta.fileNotes ? { fileNotes: meta.fileNotes } : {}),
      ...withPageShape(opts),
    },
    entries,
  );
  if (!saved.ok) return errorResult(saved.error, budget);
  return page(
    { id: saved.value.id, entries: entries.slice(0, saved.value.stored) },
    0,
    meta,
    saved.value.truncated,
    opts,
    budget,
  );
}

/**
 * The usage error of a history verb given no words, the same whether the CLI or a daemon
 * answers it: the CLI surface's table owns the text.
 */
export const HISTORY_VERB_USAGE: Readonly<Record<'hist' | 'blame' | 'since' | 'diff', string>> = {
  hist: verbSpec('hist').usage ?? '',
  blame: verbSpec('blame').usage ?? '',
  since: verbSpec('since').usage ?? '',
  diff: verbSpec('diff').usage ?? '',
};

/** Run a history verb on its target and the target's repository (errors answered for it). */
function onTarget(
  verb: string,
  words: readonly string[],
  opts: CommandOptions,
  run: (ctx: Context, budget: number, t: HistoryTarget, repo: Repo) => Promise<CommandResult> | CommandResult,
): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const t = await historyTarget(words, ctx, storesFor(ctx, opts), opts.cwd ?? process.cwd(), verb);
    if (!t.ok) return errorResult(t.error, budget);
    const repo = openRepo(t.value.root);
    if (!repo.ok) return errorResult(repo.error, budget);
    return run(ctx, budget, t.value, repo.value);
  });
}

/** `hist TARGET`: the first-parent commits that changed the target, newest first, each with a change handle. */
export function histCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return onTarget('hist', words, opts, async (ctx, budget, t, repo) => {
    const gitPath = gitPathOf(repo, t.path);
    const head = mapToHead(repo, {
      path: gitPath,
      ...(t.range ? { range: t.range } : {}),
      ...(t.name ? { name: t.name } : {}),
    });
    if (!head.ok) return errorResult(head.error, budget);
    let walk: HistWalk | undefined;
    let index: { state: string } | undefined;
    if (head.value.target !== undefined) {
      const cache = resolveRoot({ ...opts, root: t.root });
      const found = cache.ok
        ? historyIndexForWalk(repo, cacheBaseOf(cache.value.cacheDir), opts.noDaemon !== true)
        : undefined;
      index = found;
      const w = await walkHistory(repo, head.value.target, found?.index ? { index: found.index } : {});
      if (!w.ok) return errorResult(w.error, budget);
      walk = w.value;
    }
    const coverage = histCoverage(repo, t, head.value, walk, index);
    const u = head.value.uncommitted;
    const notes = u ? [`uncommitted: +${u.added} -${u.deleted} inside the target (in no commit yet)`] : [];
    const entries = (walk?.commits ?? []).map((c) => changeEntry(t, repo, c, t.range === undefined));
    return saveAndPage(
      ctx,
      opts,
      budget,
      {
        verb: 'hist',
        query: `hist ${words.join(' ')}`,
        target: describe(t),
        coverage: coverage.json,
        coverageLine: coverage.line,
        notes,
      },
      entries,
    );
  });
}

function blameEntries(t: HistoryTarget, repo: Repo, blame: Blame): ResultEntry[] {
  const starts = lineStarts(t.bytes);
  const byteOf = (line: number) => starts[line - 1] ?? t.bytes.length;
  const base = {
    root: percentEncode(t.root),
    ...(t.member !== undefined ? { member: t.member } : {}),
    path: t.path,
    generation: 0,
    ...(t.name !== undefined ? { name: t.name } : {}),
  };
  return blame.runs.map((run): ResultEntry => {
    const lines = { start_line: run.lines.start, end_line: run.lines.end };
    const c = run.commit !== undefined ? blame.commits.get(run.commit) : undefined;
    if (run.commit === undefined || run.orig === undefined || c === undefined) {
      // Lines in no commit yet: a handle to the current bytes, verified like a search hit's.
      const end = run.lines.end < starts.length ? starts[run.lines.end] - 1 : t.bytes.length;
      return {
        ...base,
        tag: 'live_source',
        revision: t.revision,
        start: byteOf(run.lines.start),
        end: Math.max(byteOf(run.lines.start), end),
        ...lines,
      };
    }
    const change: ChangeRecord = {
      repo: encodedPath(repo.top),
      commit: run.commit,
      ...(c.previous ? { parent: c.previous.commit } : {}),
      after: { path: encodedPath(run.orig.path), start_line: run.orig.range.start, end_line: run.orig.range.end },
      ...(c.previous ? { before: { path: encodedPath(c.previous.path) } } : {}),
      date: c.date,
      subject: c.subject,
      ...(c.previous ? {} : { event: repo.shallow.has(run.commit) ? 'boundary' : 'added' }),
    };
    return { ...base, tag: 'change', revision: run.commit, start: 0, end: 0, ...lines, change };
  });
}

/** `blame TARGET`: for each run of the target's lines, the commit that last changed it (-w -M -C). */
export function blameCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return onTarget('blame', words, opts, (ctx, budget, t, repo) => {
    const range = t.range ?? { start: 1, end: Math.max(1, lineCount(t.bytes)) };
    const blame = blameRange(repo, gitPathOf(repo, t.path), range);
    if (!blame.ok) return errorResult(blame.error, budget);
    const entries = blameEntries(t, repo, blame.value);
    const lines = entries.reduce((n, e) => n + e.end_line - e.start_line + 1, 0);
    const uncommitted = entries
      .filter((e) => e.tag === 'live_source')
      .reduce((n, e) => n + e.end_line - e.start_line + 1, 0);
    const commits = new Set(entries.map((e) => changeOf(e)?.commit).filter(Boolean)).size;
    const cut = blame.value.cutLines;
    const coverage = {
      lines,
      runs: entries.length,
      commits,
      uncommitted_lines: uncommitted,
      options: `-w -M${BLAME_MOVE_MIN_CHARS} -C${BLAME_MOVE_MIN_CHARS}`,
      ...(cut > 0 ? { cut_lines: cut } : {}),
      ...(repo.shallow.size > 0 ? { shallow: true } : {}),
    };
    const line = [
      `${lines} lines, ${entries.length} runs, ${commits} commits${uncommitted ? `, ${uncommitted} lines uncommitted` : ''}; whitespace-only and moved lines keep their older commit`,
      ...(cut > 0 ? [`the last ${cut} lines of the target are not blamed (at most ${lines} a call)`] : []),
      ...(repo.shallow.size > 0 ? ['shallow clone: lines older than its history name its oldest commit'] : []),
    ].join('; ');
    return saveAndPage(
      ctx,
      opts,
      budget,
      {
        verb: 'blame',
        query: `blame ${words.join(' ')}`,
        target: describe(t),
        coverage,
        coverageLine: line,
        notes: [],
      },
      entries,
    );
  });
}

/** `more` on a hist, blame, since or diff set: the same rows from the cursor on, else undefined. */
export function historyMore(
  set: StoredSet,
  offset: number,
  opts: CommandOptions,
  budget: number,
): CommandResult | undefined {
  const m = set.meta;
  if (m.nav === 'diff') return diffMore(set, offset, opts, budget);
  if (m.nav !== 'hist' && m.nav !== 'blame' && m.nav !== 'since') return undefined;
  const meta: PageMeta = {
    verb: m.nav,
    query: m.query,
    target: m.target ?? '',
    coverage: m.coverage ?? {},
    coverageLine: m.coverageLine ?? '',
    notes: m.notes ?? [],
    ...(m.fileNotes ? { fileNotes: m.fileNotes } : {}),
  };
  return page(set, offset, meta, m.truncated, opts, budget);
}

/** `since` words: `REV [TARGET]` or `--uncommitted [TARGET]` (against HEAD); a usage message otherwise. */
export function parseSinceWords(words: readonly string[]): CompareRequest | { usage: string } {
  const uncommitted = words.includes('--uncommitted');
  const rest = words.filter((w) => w !== '--uncommitted');
  if (uncommitted) return { rev: 'HEAD', uncommitted, target: rest };
  if (rest.length === 0)
    return {
      usage: 'since needs a REV (a commit: HEAD~3, main, a hash), or --uncommitted, e.g. trufflepig since HEAD~5',
    };
  return { rev: rest[0], uncommitted, target: rest.slice(1) };
}

/** `since REV [TARGET]`, `since --uncommitted [TARGET]`: definitions added, removed and changed since REV, by file. */
export function sinceCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const parsed = parseSinceWords(words);
    if ('usage' in parsed) return errorResult({ code: 'bad_arguments', message: parsed.usage }, budget);
    const compared = await compareWorkingTree(ctx, opts, parsed, 'since', false);
    if (!compared.ok) return errorResult(compared.error, budget);
    const c = compared.value;
    const entries = c.since.files.flatMap((f) => {
      const whole = wholeFileEntry(c, f);
      return [...definitionEntries(c, f), ...(whole ? [whole] : [])];
    });
    const coverage = compareCoverage(c, parsed, entries);
    const what = c.target ? describe(c.target) : `working tree ${coverage.against}`;
    return saveAndPage(
      ctx,
      opts,
      budget,
      {
        verb: 'since',
        query: `since ${words.join(' ')}`,
        target: what,
        coverage: coverage.json,
        coverageLine: coverage.line,
        notes: [],
        fileNotes: fileNotes(c, parsed.uncommitted),
      },
      entries,
    );
  });
}

/** `show` words: one target (a `sym:` one takes filters) and `--side before|after`; a usage message otherwise. */
export function parseShowWords(
  words: readonly string[],
): { target: string; side?: ChangeSideName } | { usage: string } {
  if (words[0]?.startsWith('sym:')) return { target: words.join(' ') };
  const rest: string[] = [];
  let side: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--side') side = words[++i] ?? '';
    else if (w.startsWith('--side=')) side = w.slice('--side='.length);
    else rest.push(w);
  }
  if (side !== undefined && side !== 'before' && side !== 'after')
    return { usage: '--side takes before or after, e.g. show SET:N --side before' };
  if (rest.length !== 1)
    return {
      usage:
        'show takes one HANDLE (SET:ORDINAL), a continuation, path:P[:A-B], or sym:NAME [file: lang: kind:]; --side before|after for a change handle',
    };
  return { target: rest[0], ...(side !== undefined ? { side } : {}) };
}

/**
 * `show` of a change handle (or its continuation), read back from Git objects; undefined
 * when `target` is no change handle (the caller shows it as any other).
 */
export function showChange(
  target: string,
  side: ChangeSideName | undefined,
  stores: readonly ResultStore[],
  opts: CommandOptions,
  budget: number,
): CommandResult | undefined {
  const cont = /^(.+)~(\d+)$/.exec(target.trim());
  const handleText = cont ? cont[1] : target.trim();
  if (!parseHandle(handleText).ok) return undefined;
  const resolved = firstKnown(stores, (s) => s.resolve(handleText));
  if (!resolved.ok || resolved.value.entry.tag !== 'change' || resolved.value.entry.change === undefined)
    return undefined;
  const { entry, set, ordinal } = resolved.value;
  const record = entry.change!;
  const read = readChange(record, entry.root);
  if (!read.ok) return errorResult(read.error, budget);
  const input = {
    handle: formatHandle(set.id, ordinal),
    ...(entry.member !== undefined ? { member: entry.member } : {}),
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    record,
    read: read.value,
    printPath: pathPrinter(record.repo, entry.root),
  };
  const from = cont ? Number(cont[2]) : undefined;
  const render = (format: OutputFormat) =>
    side !== undefined
      ? renderChangeSide(input, side, { format, budget, ...(from !== undefined ? { fromByte: from } : {}) })
      : renderChange(input, { format, budget, ...(from !== undefined ? { from } : {}) });
  const first = render(opts.format ?? 'json');
  if (!first.ok) return errorResult(first.error, budget);
  const plain = (r: RenderResult) => ({ stdout: r.stdout, ...(r.stderr !== undefined ? { stderr: r.stderr } : {}) });
  return renderedResult(opts, (format) => {
    const r = format === (opts.format ?? 'json') ? first : render(format);
    return r.ok ? plain(r.value) : { stdout: '' };
  });
}
