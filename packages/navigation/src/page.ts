// Pages of the navigation lists `refs` and `map` (docs/spec/retrieval.md §4, §7). Lines: one short
// row per item under a header naming the set once (`show SET:N` reads row N), rows grouped
// under their file; JSON: every field of every row, as search pages carry them.
import { OWNER_KINDS } from '@trufflepig/index';
import { fileUri, percentDecode } from '@trufflepig/base/stored-path';
import { isTypeDeclarationPath, pathStanding } from '@trufflepig/rank';
import {
  escapeLineField,
  escapeSourceLine,
  FIELD,
  fitRowPage,
  jsonLine,
  printedLines,
  printedPath,
  rowPageFooter,
  rowPageNote,
  type OutputFormat,
  type SetRowsPage,
} from '@trufflepig/render';
import { formatCursor, formatHandle, type LiveSourceEntry } from '@trufflepig/result-cache';
import { NAV_PAGE_ROWS_MAX, NAV_TEXT_MAX_CHARS } from './limits';

export type NavVerb = 'refs' | 'map';

/** A page of a refs or map set (its rows are file spans). */
export interface NavPageInput extends SetRowsPage<LiveSourceEntry> {
  readonly verb: NavVerb;
  readonly members?: Readonly<Record<string, string>>;
  /**
   * The definition a refs header names (refsMainDefinition of the whole set). A page from a
   * cursor holds only the rows after it: without this, page 2 of `refs
   * bfd_check_format_matches` named bfd-in2.h where page 1 named bfd/format.c.
   */
  readonly main?: string;
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

function hitJson(e: LiveSourceEntry, handle: string): Record<string, unknown> {
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
export function refsMainDefinition(entries: readonly LiveSourceEntry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const e of entries)
    if (e.definition !== undefined) counts.set(e.definition, (counts.get(e.definition) ?? 0) + 1);
  // Code before tests before build output (a bundle's own copy resolves its many sites), an
  // implementation before a TypeScript declaration file's types of it, then most sites.
  // A workspace prints `MEMBER/PATH:LINE`: the path's own directories decide (trpc's
  // `trpc/dist/initTRPC.cjs` had stood as hand-written code, and its bundle's copy headed
  // `refs getParseFn` over `src/`, a workspace trial).
  const members = new Set(entries.map((e) => e.member).filter((m) => m !== undefined));
  const standing = (d: string) => {
    const printed = d.slice(0, d.lastIndexOf(':'));
    const slash = printed.indexOf('/');
    const p = slash > 0 && members.has(printed.slice(0, slash)) ? printed.slice(slash + 1) : printed;
    return 2 * pathStanding(p) + (isTypeDeclarationPath(p) ? 1 : 0);
  };
  let best: string | undefined;
  for (const [d, n] of counts)
    if (best === undefined || standing(d) < standing(best) || (standing(d) === standing(best) && n > counts.get(best)!))
      best = d;
  return best;
}

/**
 * `map` row name: bare right after a sibling, or right after its owner when the owner's
 * lines hold it (a class and its methods); else `Owner::name`: a Go method after its
 * receiver's one-line `type` row names the receiver (an agent trial read `type Attributes`
 * then a bare `walkChildNodes` as a method of the struct named further up). `#` marks a
 * #private name.
 */
function mapName(e: LiveSourceEntry, previous: LiveSourceEntry | undefined): string {
  const parts = (e.name ?? '').split('::');
  const bare = parts[parts.length - 1];
  const owner = parts.length > 1 ? parts.slice(0, -1).join('::') : undefined;
  const mods = e.modifiers ?? [];
  const name = mods.includes('#') ? `#${bare}` : bare;
  if (owner === undefined || previous === undefined) return owner === undefined ? name : `${owner}::${name}`;
  const prevParts = (previous.name ?? '').split('::');
  const prevOwner = prevParts.slice(0, -1).join('::');
  const holds = previous.start_line <= e.start_line && e.end_line <= previous.end_line;
  // The owner row may be qualified itself (`Shop::Cart` owning `Cart::total`).
  const ownerRow = previous.name === owner || (previous.name ?? '').endsWith(`::${owner}`);
  const follows =
    (previous.kind !== undefined && OWNER_KINDS.has(previous.kind) && ownerRow && holds) || prevOwner === owner;
  return follows ? name : `${owner}::${name}`;
}

function mapRow(e: LiveSourceEntry, previous: LiveSourceEntry | undefined): string {
  if (e.kind === 'file') {
    const names = (e.names ?? []).join(' ');
    return `${printedLines(e.start_line, e.end_line)}${names ? ` ${names}` : ''}`;
  }
  const mods = (e.modifiers ?? []).filter((m) => m !== '#');
  return [printedLines(e.start_line, e.end_line), ...mods, e.kind ?? '', mapName(e, previous)].join(' ');
}

function refsRow(e: LiveSourceEntry, main: string | undefined): string {
  const roles = e.roles ?? [String(e.role)];
  const repeats = e.repeats !== undefined && e.repeats > roles.length ? ` ×${e.repeats}` : '';
  const resolution = e.resolution === 'resolved' ? '' : ` ${String(e.resolution)}`;
  // A declaration is its own definition: no arrow back to its own line.
  const own = `${e.member !== undefined ? `${e.member}/` : ''}${printedPath(e.path)}:${e.start_line}`;
  const target =
    e.definition !== undefined && e.definition !== main && e.definition !== own ? ` → ${e.definition}` : '';
  const within = e.within !== undefined ? ` in ${e.within}` : '';
  const text = e.text ? `: ${cut(e.text, NAV_TEXT_MAX_CHARS)}` : '';
  return `${e.start_line} ${roles.join('+')}${repeats}${resolution}${target}${within}${text}`;
}

function pageLines(input: NavPageInput, count: number, max: number): string {
  const shown = input.entries.slice(0, count);
  const main = input.verb === 'refs' ? (input.main ?? refsMainDefinition(input.entries)) : undefined;
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
    const sameFile = (r: LiveSourceEntry) => r.path === e.path && r.member === e.member;
    // A local function inside the row above it (`acquire::predicate` inside the method
    // `acquire`) is no context for the next row: the row holding it is (an ESLint trial read
    // `ScopeManager::acquireAll` qualified after it, every other method bare).
    const holds = (outer: LiveSourceEntry, inner: LiveSourceEntry) =>
      outer.start_line <= inner.start_line && inner.end_line <= outer.end_line;
    let j = i - 1;
    while (
      j > 0 &&
      sameFile(shown[j - 1]) &&
      !OWNER_KINDS.has(shown[j - 1].kind ?? '') &&
      holds(shown[j - 1], shown[j]) &&
      !holds(shown[j - 1], e)
    )
      j--;
    const previous = j >= 0 && sameFile(shown[j]) ? shown[j] : undefined;
    out += `${row} ${escapeSourceLine(input.verb === 'map' ? mapRow(e, previous) : refsRow(e, main))}\n`;
  });
  for (const [name, root] of Object.entries(input.members ?? {})) {
    if (shown.some((e) => e.member === name)) out += `member: ${escapeLineField(name)}\t${escapeLineField(root)}\n`;
  }
  return (
    out +
    rowPageFooter(
      input,
      count < input.entries.length ? formatCursor(input.setId, input.offset + count) : undefined,
      rowPageNote(input, count, max),
    )
  );
}

/** As many rows as `limit` and the budget allow; at least the header and footer, or a retry hint. */
export function renderNavPage(
  input: NavPageInput,
  opts: { format: OutputFormat; budget: number; limit?: number },
): NavPageOutput {
  const what = `one row of this ${input.verb} page`;
  const max = Math.min(input.entries.length, opts.limit ?? NAV_PAGE_ROWS_MAX);
  return fitRowPage({
    format: opts.format,
    budget: opts.budget,
    max,
    render: (n) => (opts.format === 'json' ? pageJson(input, n) : pageLines(input, n, max)),
    setId: input.setId,
    tooSmallFor: { empty: what, oneRow: what },
  });
}
