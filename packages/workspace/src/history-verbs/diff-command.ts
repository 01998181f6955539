// `diff REV [--target T]`, `diff --uncommitted [--target T]` (docs/history.md): since's
// comparison of REV with the working tree, printed as a diff: the changed definitions
// first, each with its hunk rows, then the hunks outside every definition, each change a
// handle `show` reads back (verified: REV's blob hashed, the working file's revision).
// The first page's rows come from the bytes compared; `more` reads each change back.
import { hunkView, pathPrinter, readChange, renderDiffPage, type DiffView, type SinceFile } from '@trufflepig/history';
import { counted, DEFAULT_BUDGET } from '@trufflepig/render';
import { changeOf, type ChangeEntry, type ResultEntry, type StoredSet } from '@trufflepig/result-cache';
import {
  errorResult,
  storesFor,
  withContext,
  withPageShape,
  type CommandOptions,
  type CommandResult,
} from '../core/command-kit';
import {
  compareCoverage,
  compareWorkingTree,
  definitionEntries,
  describe,
  fileNotes,
  outsideEntries,
  type CompareRequest,
} from './compare';
import { renderedResult } from '../core/render-choice';

const USAGE =
  'diff takes a REV (HEAD~3, main, a hash) or --uncommitted, then optionally --target TARGET (a handle, path:P[:A-B], sym:NAME [filters]), e.g. trufflepig diff HEAD~2 --target sym:refill';

/** `diff` words: `REV [--target T...]` or `--uncommitted [--target T...]`; a usage message otherwise. */
export function parseDiffWords(words: readonly string[]): CompareRequest | { usage: string } {
  let uncommitted = false;
  let target: string[] | undefined;
  const positional: string[] = [];
  for (const w of words) {
    if (w === '--uncommitted') uncommitted = true;
    else if (target !== undefined) target.push(w);
    else if (w === '--target') target = [];
    else if (w.startsWith('--target=')) target = [w.slice('--target='.length)].filter(Boolean);
    else positional.push(w);
  }
  if (target !== undefined && target.length === 0) return { usage: `--target needs a TARGET; ${USAGE}` };
  if (uncommitted && positional.length > 0)
    return {
      usage: `diff --uncommitted compares HEAD with the working tree and takes no REV (${positional[0]}); ${USAGE}`,
    };
  if (!uncommitted && positional.length === 0) return { usage: USAGE };
  if (positional.length > 1)
    return {
      usage: `diff takes one REV; a target goes after --target (diff ${positional[0]} --target ${positional[1]})`,
    };
  return { rev: uncommitted ? 'HEAD' : positional[0], uncommitted, target: target ?? [] };
}

/** Rows of a change from the bytes `since` compared (read back when they were not kept): what `show` of its handle prints. */
function viewFrom(f: SinceFile, e: ResultEntry): DiffView {
  if (f.afterBytes === undefined) return viewRead(e);
  const c = changeOf(e)!;
  const range = (s: { start_line?: number; end_line?: number }) => ({ start: s.start_line ?? 1, end: s.end_line ?? 0 });
  const before =
    c.before !== undefined && f.beforeBytes !== undefined
      ? { bytes: f.beforeBytes, range: range(c.before) }
      : undefined;
  return hunkView(before, { bytes: f.afterBytes ?? Buffer.alloc(0), range: range(c.after) });
}

/** Rows of a stored change read back from Git and the working tree, as `show` reads it (an error in words when it cannot be). */
function viewRead(e: ResultEntry): DiffView {
  const read = readChange(changeOf(e)!, e.root);
  return read.ok
    ? hunkView(read.value.before, read.value.after)
    : { error: `${read.error.code}: ${read.error.message}` };
}

interface DiffMeta {
  readonly query: string;
  readonly target: string;
  readonly coverage: Record<string, unknown>;
  readonly coverageLine: string;
  readonly fileNotes: Record<string, string>;
}

function page(
  set: { id: string; entries: readonly ResultEntry[] },
  offset: number,
  meta: DiffMeta,
  truncated: boolean,
  opts: CommandOptions,
  budget: number,
  view: (e: ResultEntry) => DiffView,
): CommandResult {
  const first = set.entries.find((e): e is ChangeEntry => e.tag === 'change');
  const printPath = first ? pathPrinter(first.change.repo, first.root) : (p: string) => p;
  const entries = set.entries.slice(offset);
  // One view per change for both renderings (lines, and JSON beside them for MCP).
  const memo = new Map<number, DiffView>();
  const viewOf = (i: number) => {
    let v = memo.get(i);
    if (v === undefined) memo.set(i, (v = view(entries[i])));
    return v;
  };
  return renderedResult(opts, (format) =>
    renderDiffPage(
      {
        query: meta.query,
        target: meta.target,
        setId: set.id,
        offset,
        entries,
        view: viewOf,
        coverage: meta.coverage,
        coverageLine: meta.coverageLine,
        truncated,
        printPath,
        fileNotes: meta.fileNotes,
      },
      { format, budget, ...(opts.limit !== undefined ? { limit: opts.limit } : {}) },
    ),
  );
}

/** `diff REV [--target T]`, `diff --uncommitted [--target T]`: the changed definitions with their hunks, then the hunks outside them. */
export function diffCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  return withContext(opts, DEFAULT_BUDGET, async (ctx, budget) => {
    const parsed = parseDiffWords(words);
    if ('usage' in parsed) return errorResult({ code: 'bad_arguments', message: parsed.usage }, budget);
    const compared = await compareWorkingTree(ctx, opts, parsed, 'diff', true);
    if (!compared.ok) return errorResult(compared.error, budget);
    const c = compared.value;
    const defs = c.since.files.flatMap((f) => definitionEntries(c, f).map((e) => ({ e, f })));
    const outside = c.since.files.flatMap((f) => outsideEntries(c, f).map((e) => ({ e, f })));
    const listed = [...defs, ...outside];
    const entries = listed.map((x) => x.e);
    const coverage = compareCoverage(
      c,
      parsed,
      entries,
      { definitions: defs.length, hunks: outside.length },
      ` (${counted(defs.length, 'definition')}, ${counted(outside.length, 'hunk')} outside definitions)`,
    );
    const meta: DiffMeta = {
      query: `diff ${words.join(' ')}`,
      target: c.target ? describe(c.target) : `working tree ${coverage.against}`,
      coverage: coverage.json,
      coverageLine: coverage.line,
      fileNotes: fileNotes(c, parsed.uncommitted),
    };
    const saved = storesFor(ctx, opts)[0].save(
      { ...meta, truncated: false, words: [], nav: 'diff', notes: [], ...withPageShape(opts) },
      entries,
    );
    if (!saved.ok) return errorResult(saved.error, budget);
    const fileOf = new Map<ResultEntry, SinceFile>(listed.map((x) => [x.e, x.f]));
    return page(
      { id: saved.value.id, entries: entries.slice(0, saved.value.stored) },
      0,
      meta,
      saved.value.truncated,
      opts,
      budget,
      (e) => viewFrom(fileOf.get(e)!, e),
    );
  });
}

/** `more` on a diff set: the changes from the cursor on, each read back from Git and the working tree. */
export function diffMore(set: StoredSet, offset: number, opts: CommandOptions, budget: number): CommandResult {
  const m = set.meta;
  const meta: DiffMeta = {
    query: m.query,
    target: m.target ?? '',
    coverage: m.coverage ?? {},
    coverageLine: m.coverageLine ?? '',
    fileNotes: m.fileNotes ?? {},
  };
  return page(set, offset, meta, m.truncated, opts, budget, viewRead);
}
