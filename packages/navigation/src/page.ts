// Pages of the navigation lists `refs` and `map` (docs/spec/retrieval.md §4, §7). Lines: one short
// row per item under a header naming the set once (`show SET:N` reads row N), rows grouped
// under their file; JSON: every field of every row, as search pages carry them.
import { OWNER_KINDS } from '@trufflepig/index';
import { fileUri, percentDecode } from '@trufflepig/base/stored-path';
import { isTypeDeclarationPath, pathStanding } from '@trufflepig/rank';
import {
  budgetTooSmall,
  escapeLineField,
  FIELD,
  jsonLine,
  printedLines,
  printedPath,
  setIdSlack,
  withinBudget,
  type OutputFormat,
} from '@trufflepig/render';
import { formatCursor, formatHandle, type ResultEntry } from '@trufflepig/result-cache';
import { NAV_PAGE_ROWS_MAX, NAV_TEXT_MAX_CHARS } from './limits';

export type NavVerb = 'refs' | 'map';

export interface NavPageInput {
  readonly verb: NavVerb;
  /** What was asked (`refs NAME filters`, `map PATH`). */
  readonly query: string;
  readonly setId: string;
  /** Offset of entries[0] in the set. */
  readonly offset: number;
  /** The set's entries from `offset` on. */
  readonly entries: readonly ResultEntry[];
  readonly coverage: Readonly<Record<string, unknown>>;
  readonly coverageLine: string;
  readonly truncated: boolean;
  readonly members?: Readonly<Record<string, string>>;
}

export interface NavPageOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Entry keys a navigation row carries beyond the standard hit fields (JSON, in this order). */
const ROW_KEYS = [
  'role',
  'roles',
  'resolution',
  'definition',
  'within',
  'text',
  'modifiers',
  'names',
  'repeats',
] as const;

function hitJson(e: ResultEntry, handle: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...(e.member !== undefined ? { member: e.member } : {}),
    handle,
    path: printedPath(e.path),
    uri: fileUri(percentDecode(e.root), e.path),
    start_line: e.start_line,
    end_line: e.end_line,
    start: e.start,
    end: e.end,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.kind !== undefined ? { kind: e.kind } : {}),
    sources: e.sources ?? [],
  };
  for (const k of ROW_KEYS) if (e[k] !== undefined && !(k === 'repeats' && e[k] === 1)) out[k] = e[k];
  return out;
}

function pageJson(input: NavPageInput, count: number): string {
  const shown = input.entries.slice(0, count);
  const used = Object.fromEntries(
    Object.entries(input.members ?? {}).filter(([m]) => shown.some((e) => e.member === m)),
  );
  return jsonLine({
    query: input.query,
    set: input.setId,
    hits: shown.map((e, i) => hitJson(e, formatHandle(input.setId, input.offset + i + 1))),
    coverage: input.coverage,
    ...(count < input.entries.length ? { next: formatCursor(input.setId, input.offset + count) } : {}),
    ...(input.truncated ? { truncated: true } : {}),
    ...(Object.keys(used).length ? { members: used } : {}),
  });
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The most frequent `definition` of refs rows: named once in the header, not on every row. */
function mainDefinition(entries: readonly ResultEntry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const e of entries)
    if (typeof e.definition === 'string') counts.set(e.definition, (counts.get(e.definition) ?? 0) + 1);
  // Code before tests before build output (a bundle's own copy resolves its many sites), an
  // implementation before a TypeScript declaration file's types of it, then most sites.
  const standing = (d: string) => {
    const p = d.slice(0, d.lastIndexOf(':'));
    return 2 * pathStanding(p) + (isTypeDeclarationPath(p) ? 1 : 0);
  };
  let best: string | undefined;
  for (const [d, n] of counts)
    if (best === undefined || standing(d) < standing(best) || (standing(d) === standing(best) && n > counts.get(best)!))
      best = d;
  return best;
}

/** `map` row name: bare right after its owner or a sibling, else `Owner::name`; `#` marks a #private name. */
function mapName(e: ResultEntry, previous: ResultEntry | undefined): string {
  const parts = String(e.name ?? '').split('::');
  const bare = parts[parts.length - 1];
  const owner = parts.length > 1 ? parts.slice(0, -1).join('::') : undefined;
  const mods = Array.isArray(e.modifiers) ? (e.modifiers as string[]) : [];
  const name = mods.includes('#') ? `#${bare}` : bare;
  if (owner === undefined || previous === undefined) return owner === undefined ? name : `${owner}::${name}`;
  const prevParts = String(previous.name ?? '').split('::');
  const prevOwner = prevParts.slice(0, -1).join('::');
  const follows = (OWNER_KINDS.has(String(previous.kind)) && previous.name === owner) || prevOwner === owner;
  return follows ? name : `${owner}::${name}`;
}

function mapRow(e: ResultEntry, previous: ResultEntry | undefined): string {
  if (e.kind === 'file') {
    const names = Array.isArray(e.names) ? (e.names as string[]).join(' ') : '';
    return `${printedLines(e.start_line, e.end_line)}${names ? ` ${names}` : ''}`;
  }
  const mods = (Array.isArray(e.modifiers) ? (e.modifiers as string[]) : []).filter((m) => m !== '#');
  return [printedLines(e.start_line, e.end_line), ...mods, String(e.kind ?? ''), mapName(e, previous)].join(' ');
}

function refsRow(e: ResultEntry, main: string | undefined): string {
  const roles = Array.isArray(e.roles) ? (e.roles as string[]) : [String(e.role)];
  const repeats = typeof e.repeats === 'number' && e.repeats > roles.length ? ` ×${e.repeats}` : '';
  const resolution = e.resolution === 'resolved' ? '' : ` ${String(e.resolution)}`;
  const target = typeof e.definition === 'string' && e.definition !== main ? ` → ${e.definition}` : '';
  const within = typeof e.within === 'string' ? ` in ${e.within}` : '';
  const text = typeof e.text === 'string' && e.text ? `: ${cut(e.text, NAV_TEXT_MAX_CHARS)}` : '';
  return `${e.start_line} ${roles.join('+')}${repeats}${resolution}${target}${within}${text}`;
}

function pageLines(input: NavPageInput, count: number): string {
  const shown = input.entries.slice(0, count);
  const main = input.verb === 'refs' ? mainDefinition(input.entries) : undefined;
  const files = input.verb === 'map' && shown.every((e) => e.kind === 'file');
  let out = `${escapeLineField(input.query)}${main ? ` → ${escapeLineField(main)}` : ''}${FIELD}(show ${input.setId}:N reads row N)\n`;
  // A map of one file names it in the header already (`map PATH`): no group line repeats it.
  let group = input.verb === 'map' ? (input.query.match(/^map (\S+)$/)?.[1] ?? '') : '';
  shown.forEach((e, i) => {
    const where = `${e.member !== undefined ? `${e.member}/` : ''}${printedPath(e.path)}`;
    const row = input.offset + i + 1;
    if (files) {
      out += `${row} ${escapeLineField(where)} ${escapeLineField(mapRow(e, undefined))}\n`;
      return;
    }
    if (where !== group) {
      out += `${escapeLineField(where)}\n`;
      group = where;
    }
    const previous =
      i > 0 && shown[i - 1].path === e.path && shown[i - 1].member === e.member ? shown[i - 1] : undefined;
    out += `${row} ${escapeLineField(input.verb === 'map' ? mapRow(e, previous) : refsRow(e, main))}\n`;
  });
  for (const [name, root] of Object.entries(input.members ?? {})) {
    if (shown.some((e) => e.member === name)) out += `member: ${escapeLineField(name)}\t${escapeLineField(root)}\n`;
  }
  out += `coverage: ${escapeLineField(input.coverageLine)}\n`;
  if (count < input.entries.length) out += `next: more ${formatCursor(input.setId, input.offset + count)}\n`;
  if (input.truncated) out += 'truncated: true\n';
  return out;
}

/** The largest n in [0, max] with fits(n), for fits monotone (true up to some n). */
function largest(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** As many rows as `limit` and the budget allow; at least the header and footer, or a retry hint. */
export function renderNavPage(
  input: NavPageInput,
  opts: { format: OutputFormat; budget: number; limit?: number },
): NavPageOutput {
  const budget = Math.max(0, Math.floor(opts.budget));
  if (budget === 0) return { stdout: '', stderr: '' };
  const render = (n: number) => (opts.format === 'json' ? pageJson(input, n) : pageLines(input, n));
  const max = Math.min(input.entries.length, opts.limit ?? NAV_PAGE_ROWS_MAX);
  const n = largest(max, (k) => k === 0 || withinBudget(render(k), budget));
  const text = render(n);
  if (n > 0 && withinBudget(text, budget)) return { stdout: text, stderr: '' };
  if (max === 0 && withinBudget(text, budget)) return { stdout: text, stderr: '' };
  // As search pages answer: a fitting status line, and a retry hint on stderr whose budget
  // also fits the other set id a retry renders (setIdSlack).
  const smallest = render(Math.min(1, max));
  const tooSmall = budgetTooSmall(
    smallest,
    budget,
    opts.format,
    `one row of this ${input.verb} page`,
    setIdSlack(input, smallest),
  );
  return { stdout: tooSmall.stdout, stderr: tooSmall.stderr ?? '' };
}
