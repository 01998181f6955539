/**
 * The shared kit of every verb: the options a command takes, the answer it gives
 * (`CommandResult`: stdout already within the budget), the budget rules, and the stores a
 * handle may live in. Verbs in facade/, navigation/ and history-verbs/ build on it, so it
 * lives in core: nothing here runs a search.
 */
import type { ReconcileProgress } from '@trufflepig/index';
import { CONTEXT_LINES_MAX, fitError, internalErrorOf, renderObject, type OutputFormat } from '@trufflepig/render';
import type { ResultStore, SetPageShape } from '@trufflepig/result-cache';
import { resolveContext, type Context, type ContextOptions } from './context';
import type { CodedError } from '@trufflepig/base/outcome';
import type { Outcome, TpError } from './errors';
import { renderedResult, type RenderChoice } from './render-choice';
import { openResultStore } from './result-store';
import { resolveRoot } from './root';

export interface CommandOptions extends ContextOptions {
  readonly budget?: number;
  readonly limit?: number;
  /**
   * Output format; JSON when not given (this programmatic API's default). The CLI's
   * default is lines (docs/spec/retrieval.md §4): its option parsers and the daemon handler set it.
   */
  readonly format?: OutputFormat;
  /** `-C N`: context lines around each evidence line of a search hit (0..CONTEXT_LINES_MAX). */
  readonly context?: number;
  /** Launch and contact no background process; index in the foreground. */
  readonly noDaemon?: boolean;
  /** `--scopes`: docs/spec/per-source.md scope mode; wins over a workspace's [retrieval] scopes. */
  readonly scopes?: 'shared' | 'per_source';
  /**
   * Also render the answer as JSON, from the same data under the same budget (`json`
   * of the result): the MCP front end shows the model the lines text and hands its client
   * the structured form, and both must name the same result set.
   */
  readonly alsoJson?: boolean;
  readonly onProgress?: (p: ReconcileProgress) => void;
}

/** The page shape a request gave explicitly (`-n`, `-C`), kept with its set so that `more` pages alike. */
export function pageShapeOf(opts: Pick<CommandOptions, 'limit' | 'context'>): SetPageShape | undefined {
  const shape = {
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
    ...(opts.context !== undefined ? { context: opts.context } : {}),
  };
  return Object.keys(shape).length > 0 ? shape : undefined;
}

/** The `page` field of a set's meta for a request (absent when it gave no shape). */
export function withPageShape(opts: Pick<CommandOptions, 'limit' | 'context'>): { page?: SetPageShape } {
  const page = pageShapeOf(opts);
  return page ? { page } : {};
}

/**
 * The options `more` renders a set's page with: its own `-n` and `-C`, else those the set's
 * first page was given (a `search -n 5` continues 5 at a time).
 */
export function continuedOptions(opts: CommandOptions, shape: SetPageShape | undefined): CommandOptions {
  const limit = opts.limit ?? shape?.limit;
  const context = opts.context ?? shape?.context;
  return { ...opts, ...(limit !== undefined ? { limit } : {}), ...(context !== undefined ? { context } : {}) };
}

/** What a command prints: stdout is already within the budget. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 2;
  /** The JSON rendering of the same answer, when `alsoJson` asked for it and stdout is lines. */
  readonly json?: string;
  /** An error answer's code (exit 2), for a host that acts on it (a daemon still building its first index). */
  readonly errorCode?: string;
}

/** An error as a command's answer: fitted to the budget (render's fitError), exit 2. */
export function errorResult(err: CodedError, budget: number): CommandResult {
  const r = fitError(err, budget);
  return { stdout: r.stdout, stderr: r.stderr, exitCode: 2, errorCode: err.code };
}

/** An unexpected exception as a command's answer: one coded `internal_error` line, no stack. */
export function internalErrorResult(err: unknown, budget: number): CommandResult {
  return errorResult(internalErrorOf(err), budget);
}

/** A plain object's answer; `lines` renders it in lines format when its shape has a view of its own. */
export function objectResult<T extends Record<string, unknown>>(
  value: T,
  budget: number,
  choice: OutputFormat | RenderChoice = 'json',
  lines?: (value: T) => string,
): CommandResult {
  return renderedResult(typeof choice === 'string' ? { format: choice } : choice, (format) =>
    renderObject(value, { budget, format, lines }),
  );
}

/** The budget of a response: -b wins, then the workspace's [output].budget, then the default. */
function budgetFor(opts: CommandOptions, ctx: Context | undefined, fallback: number): number {
  if (opts.budget !== undefined) return opts.budget;
  if (ctx?.kind === 'workspace' && ctx.ws.config.budget !== undefined) return ctx.ws.config.budget;
  return fallback;
}

/**
 * The budget of an answer given before (or without) running the command (usage and
 * internal errors): -b, else the workspace's [output].budget, else `fallback`.
 */
export function responseBudget(opts: CommandOptions, fallback: number): number {
  if (opts.budget !== undefined) return opts.budget;
  try {
    const ctx = resolveContext(opts);
    return budgetFor(opts, ctx.ok ? ctx.value : undefined, fallback);
  } catch {
    return fallback;
  }
}

export async function withContext(
  opts: CommandOptions,
  fallbackBudget: number,
  run: (ctx: Context, budget: number) => Promise<CommandResult>,
): Promise<CommandResult> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return errorResult(ctx.error, budgetFor(opts, undefined, fallbackBudget));
  return run(ctx.value, budgetFor(opts, ctx.value, fallbackBudget));
}

/** A `-C` value outside 0..CONTEXT_LINES_MAX (or not a whole number): the bad_arguments error, else undefined. */
export function contextLinesError(c: number | undefined): TpError | undefined {
  if (c === undefined || (Number.isInteger(c) && c >= 0 && c <= CONTEXT_LINES_MAX)) return undefined;
  return {
    code: 'bad_arguments',
    message: `-C takes a whole number of context lines from 0 to ${CONTEXT_LINES_MAX} (not ${String(c)}), e.g. -C 2`,
  };
}

/** A `-C` value outside 0..CONTEXT_LINES_MAX (or not a whole number): the bad_arguments answer, else undefined. */
export function contextError(opts: CommandOptions, budget: number): CommandResult | undefined {
  const err = contextLinesError(opts.context);
  return err ? errorResult(err, budget) : undefined;
}

/**
 * Result stores a handle may live in: the workspace's own, then the single-root store of
 * the invocation's root (a set made with --no-workspace stays readable inside a workspace).
 */
export function storesFor(ctx: Context, opts: CommandOptions): ResultStore[] {
  if (ctx.kind === 'single') return [openResultStore(ctx.root.resultsDir)];
  const stores = [openResultStore(ctx.ws.resultsDir)];
  const local = resolveRoot({ ...opts, root: ctx.ws.home?.root ?? opts.root });
  if (local.ok) stores.push(openResultStore(local.value.resultsDir));
  return stores;
}

export function firstKnown<T>(stores: readonly ResultStore[], read: (s: ResultStore) => Outcome<T>): Outcome<T> {
  let first: Outcome<T> | undefined;
  for (const store of stores) {
    const out = read(store);
    if (out.ok || out.error.code !== 'unknown_result') return out;
    first ??= out;
  }
  return first!;
}
