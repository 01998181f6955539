import { IndexReader, reconcile, type ReconcileProgress } from '@trufflepig/index';
import {
  DEFAULT_BUDGET, DEFAULT_LIMIT, DEFAULT_SHOW_BUDGET, renderError, renderObject, renderSearchPage, renderShow,
  type OutputFormat, type ShowInput,
} from '@trufflepig/render';
import { ResultStore } from '@trufflepig/result-cache';
import type { Outcome, TpError } from './errors';
import { resolveRoot, type ResolvedRoot, type RootOptions } from './root';
import { coverageOf, pageHits, pageOfSet, runSearch, type SearchData } from './search';
import { showHandle, showPath } from './show';

export interface CommandOptions extends RootOptions {
  readonly budget?: number;
  readonly limit?: number;
  readonly format?: OutputFormat;
  /** Launch and contact no background process (the only mode until the daemon exists). */
  readonly noDaemon?: boolean;
  readonly onProgress?: (p: ReconcileProgress) => void;
}

/** What a command prints: stdout is already within the budget. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 2;
}

function errorResult(err: TpError, budget: number): CommandResult {
  const r = renderError(err, { budget });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: 2 };
}

function withRoot(opts: CommandOptions, budget: number, run: (r: ResolvedRoot) => Promise<CommandResult>): Promise<CommandResult> {
  const r = resolveRoot(opts);
  if (!r.ok) return Promise.resolve(errorResult(r.error, budget));
  return run(r.value);
}

function renderPage(data: SearchData, opts: CommandOptions): CommandResult {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  const out = renderSearchPage(
    {
      query: data.query, setId: data.setId, offset: data.offset, hits: pageHits(data, limit), limit,
      coverage: data.coverage, coverageLine: data.coverageLine, truncated: data.truncated,
    },
    { format: opts.format ?? 'json', budget: opts.budget ?? DEFAULT_BUDGET },
  );
  return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0 };
}

export function searchCommand(words: readonly string[], opts: CommandOptions): Promise<CommandResult> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  return withRoot(opts, budget, async (r) => {
    const data = await runSearch(r, words, { indexIfMissing: true, store: new ResultStore(r.resultsDir) });
    return data.ok ? renderPage(data.value, opts) : errorResult(data.error, budget);
  });
}

export function moreCommand(cursor: string, opts: CommandOptions): Promise<CommandResult> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  return withRoot(opts, budget, async (r) => {
    const page = new ResultStore(r.resultsDir).page(cursor.trim());
    if (!page.ok) return errorResult(page.error, budget);
    return renderPage(pageOfSet(page.value.set, page.value.offset), opts);
  });
}

export function showCommand(target: string, opts: CommandOptions): Promise<CommandResult> {
  const budget = opts.budget ?? DEFAULT_SHOW_BUDGET;
  return withRoot(opts, budget, async (r) => {
    let input: Outcome<ShowInput>;
    if (target.startsWith('path:')) input = showPath(r, target.slice('path:'.length));
    else if (target.startsWith('sym:')) {
      input = { ok: false, error: { code: 'not_available', message: 'show sym: is not available yet (structural navigation lands later); use: search sym:NAME, then show HANDLE' } };
    } else input = showHandle(target.trim(), new ResultStore(r.resultsDir));
    if (!input.ok) return errorResult(input.error, budget);
    const out = renderShow(input.value, { format: opts.format ?? 'json', budget });
    return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0 };
  });
}

export function indexCommand(opts: CommandOptions): Promise<CommandResult> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  return withRoot(opts, budget, async (r) => {
    const rep = await reconcile(r.root, { cacheDir: r.cacheDir, onProgress: opts.onProgress });
    if (!rep.ok) return errorResult(rep.error, budget);
    const v = rep.value;
    const out = renderObject({
      root: r.root, cache: r.cacheDir, generation: v.generation, published: v.published, files: v.files, parsed: v.parsed,
      reused: v.reused, removed: v.removed, excluded: v.excluded, parse_failures: v.parseFailures,
      unsearched: Object.fromEntries(Object.entries(v.unsearched).filter(([, n]) => n > 0)),
      source_bytes: v.sourceBytes, duration_ms: v.durationMs,
    }, { budget });
    return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0 };
  });
}

export function statusCommand(opts: CommandOptions): Promise<CommandResult> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  return withRoot(opts, budget, async (r) => {
    const reader = await IndexReader.open(r.cacheDir, r.root);
    if (!reader.ok) {
      const out = renderObject({ root: r.root, cache: r.cacheDir, state: reader.error.code === 'index_warming' ? 'warming' : 'unavailable', reason: reader.error.message, daemon: 'none' }, { budget });
      return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0 };
    }
    try {
      const cov = coverageOf(reader.value.coverage(), false, undefined, 0).json;
      delete cov.hits;
      const out = renderObject({ root: r.root, cache: r.cacheDir, state: 'published', daemon: 'none', coverage: cov }, { budget });
      return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0 };
    } finally {
      reader.value.close();
    }
  });
}
