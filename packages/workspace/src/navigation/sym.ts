// `show sym:NAME [file: lang: kind:]` (docs/spec/retrieval.md §6): the best definition, read and
// verified, then one line per other definition (`also`, ≤ 5) and one line counting its
// reference sites (`refs NAME` lists them). Imports are followed when no definition
// carries the name. A definition longer than SYM_BODY_MAX_LINES prints its head and its
// members instead of its body, with a `next` that reads the body on.
import * as path from 'node:path';
import {
  declarationRank,
  isCallableKind,
  kindTier,
  nearestDefinedNames,
  parseQuery,
  type IndexedDefinition,
  type ParsedQuery,
} from '@trufflepig/index';
import { fileUri } from '@trufflepig/base/stored-path';
import { fileStanding, isVendoredPath } from '@trufflepig/rank';
import { counted, printedPath, type ShowInput, type ShownRow, type SourceRow } from '@trufflepig/render';
import { formatHandle, type ResultEntry, type ResultStore } from '@trufflepig/result-cache';
import type { Context } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import {
  NEAREST_NAMES_SHOWN,
  SYM_ALSO_MAX,
  SYM_BODY_MAX_LINES,
  SYM_HEAD_MAX_LINES,
  SYM_MEMBERS_MAX,
  SYM_OUTLINE_MEMBERS_MIN,
} from '../core/limits';
import { readOnce } from '../core/live';
import { definitionEntry, qualifiedName } from './entries';
import { fileFilter, filterWords, kindFilter } from './filter';
import { foldDocstring } from './fold';
import { modifiersOf, SECOND_GROUP } from './map';
import { closeTargets, openMembers, openTargets, type NavTarget } from './open';
import { followImport, type ImportTrail } from './resolve';
import { useRowsOf } from './uses';
import { rowsOf } from '../core/show';

interface Candidate {
  readonly target: NavTarget;
  readonly def: IndexedDefinition;
}

/** Leading directories a file shares with the invocation directory. */
function sharedDirs(here: string | undefined, file: string): number {
  if (here === undefined) return -1;
  const a = here.split('/').filter(Boolean);
  const b = path.posix
    .dirname(file)
    .split('/')
    .filter((s) => s && s !== '.');
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * Kind tier, then hand-written code before tests and build output (minified files
 * included), then the repository's own code before vendored dependencies (express's
 * `res.send` before `node_modules/finalhandler`'s `send`), then a definition before a declaration (a C function before its
 * prototype in a header), then top-level before a member (`url_for` the function before
 * `Flask::url_for`: an unqualified name is what an import names), then nearest the
 * invocation directory, then path, span, member.
 */
function compareCandidates(x: Candidate, y: Candidate): number {
  const key = (c: Candidate): (number | string)[] => [
    kindTier(c.def.kind),
    fileStanding(c.def.file),
    isVendoredPath(c.def.file.path) ? 1 : 0,
    declarationRank(c.def.kind, c.def.file.path),
    c.def.container === null ? 0 : 1,
    -sharedDirs(c.target.here, c.def.file.path),
    c.def.file.path,
    c.def.start,
    c.target.member ?? '',
  ];
  const a = key(x);
  const b = key(y);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

function candidates(targets: readonly NavTarget[], q: ParsedQuery, filtered: boolean): Candidate[] {
  const parts = q.text.split('::');
  const name = parts[parts.length - 1];
  const container = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const out: Candidate[] = [];
  for (const t of targets) {
    const fileOk = filtered ? fileFilter(t.reader, q) : () => true;
    const kindOk = filtered ? kindFilter(q) : () => true;
    for (const def of t.reader.definitions(name, container === undefined ? {} : { container })) {
      if (fileOk(def.file) && kindOk(def.kind)) out.push({ target: t, def });
    }
  }
  return out.sort(compareCandidates);
}

/** Definitions reached by following imports that bind the name (aliases, re-exports). */
function viaImports(targets: readonly NavTarget[], q: ParsedQuery): { found: Candidate[]; trail?: ImportTrail } {
  const name = q.text.split('::').pop()!;
  for (const t of targets) {
    const fileOk = fileFilter(t.reader, q);
    for (const imp of t.reader.importsOf(name)) {
      const trail = followImport(t.reader, imp, imp.alias === name ? (imp.name ?? undefined) : name);
      const found = trail.definitions
        .filter((d) => fileOk(d.file) && kindFilter(q)(d.kind))
        .map((def) => ({ target: t, def }));
      if (found.length) return { found: found.sort(compareCandidates), trail };
    }
  }
  return { found: [] };
}

/** Occurrences of the name in the index (every role, every file): what `refs NAME` would list, counted without reading a file. */
function referenceCount(targets: readonly NavTarget[], name: string): { sites: number; files: number } {
  let sites = 0;
  let files = 0;
  for (const t of targets) {
    for (const u of useRowsOf(t.reader, name)) {
      sites += u.count;
      files++;
    }
  }
  return { sites, files };
}

/** Definitions directly inside `def` (not inside one of its members), in source order. */
function membersOf(t: NavTarget, def: IndexedDefinition): IndexedDefinition[] {
  const inside = t.reader
    .fileDefinitions(def.file.path)
    .filter((d) => d.start >= def.start && d.end <= def.end && !(d.start === def.start && d.end === def.end))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const out: IndexedDefinition[] = [];
  for (const d of inside) if (!out.some((m) => d.start >= m.start && d.end <= m.end)) out.push(d);
  return out;
}

interface Body {
  readonly rows: readonly ShownRow[];
  /** Byte where the rows left out start, when the head stands for a long body. */
  readonly restStart?: number;
  readonly members: readonly (IndexedDefinition & { readonly modifiers: readonly string[] })[];
}

/**
 * The rows `show sym:` prints: the whole definition when it is at most SYM_BODY_MAX_LINES
 * long, callable, or has fewer than SYM_OUTLINE_MEMBERS_MIN members; else its head (up to its first member, at most SYM_HEAD_MAX_LINES
 * lines) with its members listed, the rest left to the continuation.
 */
function bodyOf(t: NavTarget, def: IndexedDefinition, bytes: Buffer): Body {
  const body = wholeOrHead(t, def, bytes);
  if (def.file.lang !== 'python') return body;
  const where = `show path:${printedPath(def.file.path)}`;
  const member = t.member ? ` --member ${t.member}` : '';
  const rows = foldDocstring(body.rows, (a, b) => `${where}:${a}-${b}${member}`);
  return { ...body, rows };
}

function wholeOrHead(
  t: NavTarget,
  def: IndexedDefinition,
  bytes: Buffer,
): Omit<Body, 'rows'> & { readonly rows: readonly SourceRow[] } {
  const rows = rowsOf(bytes, def.start, def.end);
  if (def.endLine - def.startLine + 1 <= SYM_BODY_MAX_LINES) return { rows, members: [] };
  // A long function (a method, a macro) is read whole, cut by the
  // budget and continued by `next` like any read: its body is the answer, and its inner
  // helpers are no outline of it. A type or module is summarised by its members.
  if (isCallableKind(def.kind)) return { rows, members: [] };
  const inside = membersOf(t, def);
  // Fewer members than this outline nothing (a kernel struct whose fields sit in one
  // anonymous inner struct shows as `members: 530 __randomize_layout, 745 cpu_bitmap`):
  // the body is read instead, cut by the budget like a function's.
  if (inside.length < SYM_OUTLINE_MEMBERS_MIN) return { rows, members: [] };
  const firstMember = inside[0].startLine;
  // Methods and nested types first, then fields and properties, as `map` orders them.
  const members = [
    ...inside.filter((d) => !SECOND_GROUP.has(d.kind)),
    ...inside.filter((d) => SECOND_GROUP.has(d.kind)),
  ]
    .map((d) => {
      const modifiers = modifiersOf(bytes, d);
      return {
        ...d,
        name: modifiers.includes('#') && !d.name.startsWith('#') ? `#${d.name}` : d.name,
        modifiers: modifiers.filter((m) => m !== '#'),
      };
    })
    // A getter and its setter (Python's @property and @x.setter) are one member to a reader.
    .filter((d, i, all) => i === 0 || all[i - 1].name !== d.name || all[i - 1].kind !== d.kind);
  // The head ends at its first blank row: the signature and the doc comment's first
  // paragraph say what the definition is; the rest of a long docstring is the body's.
  const blank = rows.findIndex((r, i) => i > 0 && r.text.trim() === '');
  const headLines = Math.max(
    1,
    Math.min(SYM_HEAD_MAX_LINES, firstMember - def.startLine, blank > 0 ? blank : Infinity),
  );
  if (headLines >= rows.length) return { rows, members: [] };
  return { rows: rows.slice(0, headLines), restStart: rows[headLines].start, members };
}

/**
 * The best definition of `q` in `targets` alone (no widening), following imports when no
 * definition carries the name: what `show sym:` reads, for verbs that need one target
 * (the history verbs, which never look across members).
 */
export function bestDefinition(
  targets: readonly NavTarget[],
  q: ParsedQuery,
): Outcome<{ target: NavTarget; def: IndexedDefinition }> {
  let found = candidates(targets, q, true);
  if (found.length === 0) found = viaImports(targets, q).found;
  return found.length ? ok(found[0]) : noDefinition(targets, q);
}

function noDefinition(targets: readonly NavTarget[], q: ParsedQuery): Outcome<never> {
  const filters = filterWords(q);
  if (filters) {
    const loose = candidates(targets, q, false)[0];
    const best = loose
      ? `; best without them: ${loose.target.member ? `${loose.target.member}/` : ''}${printedPath(loose.def.file.path)}:${loose.def.startLine} (${loose.def.kind})`
      : '; there is none without them either';
    return fail('no_definition', `no definition of ${q.text} matches ${filters}${best}`);
  }
  const name = q.text.split('::').pop()!;
  const nearest = [...new Set(targets.flatMap((t) => nearestDefinedNames(t.reader, name)))].slice(
    0,
    NEAREST_NAMES_SHOWN,
  );
  const hint = nearest.length ? `; nearest defined: ${nearest.join(', ')}` : '';
  return fail(
    'no_definition',
    `no definition of ${q.text} is indexed${hint}; try: ${nearest.length ? `show sym:${nearest[0]}, ` : ''}search ${name} (text), or refs ${q.text}`,
  );
}

export async function showSymbol(
  ctx: Context,
  words: readonly string[],
  cwd: string,
  store: ResultStore,
): Promise<Outcome<ShowInput>> {
  const parsed = parseQuery(words);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  const q = parsed.value;
  if (q.mode !== 'sym' || !q.text)
    return fail(
      'bad_query',
      'show sym: takes a name, e.g. show sym:TokenBucket or show sym:TokenBucket::refill file:src/',
    );
  const nav = await openTargets(ctx, q, cwd);
  if (!nav.ok) return nav;
  const targets = [...nav.value.targets];
  try {
    let found = candidates(targets, q, true);
    let trail: ImportTrail | undefined;
    if (found.length === 0) ({ found, trail } = viaImports(targets, q));
    // Home without a definition widens to the other members, as search does.
    if (found.length === 0 && nav.value.widenTo.length > 0) {
      const more = await openMembers(ctx.host, nav.value.widenTo, cwd);
      targets.push(...more.targets);
      found = candidates(targets, q, true);
      if (found.length === 0) ({ found, trail } = viaImports(targets, q));
    }
    if (found.length === 0) return noDefinition(targets, q);
    const best = found[0];
    const live = readOnce(best.target.root, best.def.file.path);
    if (!live.ok)
      return fail(
        'source_missing',
        `${printedPath(best.def.file.path)} was moved or deleted since indexing; run index, then retry`,
      );
    if (live.revision !== best.def.file.revision)
      return fail(
        'stale_source',
        `${printedPath(best.def.file.path)} changed since it was indexed; run index, then retry`,
      );
    const name = q.text.split('::').pop()!;
    const others = found.slice(1);
    const also = others.slice(0, SYM_ALSO_MAX);
    const entries: ResultEntry[] = [
      definitionEntry(best.target, best.def),
      ...also.map((c) => definitionEntry(c.target, c.def)),
    ];
    const saved = store.save(
      { query: `show ${words.join(' ')}`, truncated: false, words: [name.toLowerCase()] },
      entries,
    );
    if (!saved.ok) return fail(saved.error.code, saved.error.message);
    const handle = (i: number) => formatHandle(saved.value.id, i + 1);
    const where = (member: string | undefined, p: string, line: number) => `${member ? `${member}/` : ''}${p}:${line}`;
    const alsoRows = also.map((c, i) => ({
      handle: handle(i + 1),
      ...(c.target.member ? { member: c.target.member } : {}),
      path: printedPath(c.def.file.path),
      line: c.def.startLine,
      end_line: c.def.endLine,
      kind: c.def.kind,
      name: qualifiedName(c.def),
    }));
    const refs = referenceCount(targets, name);
    const body = bodyOf(best.target, best.def, live.bytes);
    const listed = body.members.slice(0, SYM_MEMBERS_MAX);
    const memberText =
      listed.map((d) => [d.startLine, ...d.modifiers, d.name].join(' ')).join(', ') +
      (body.members.length > listed.length
        ? `, +${body.members.length - listed.length} more (map ${printedPath(best.def.file.path)})`
        : '');
    const importTrail = trail
      ? {
          via: trail.via.map(
            (v) =>
              `${printedPath(v.path)}:${v.line} ${v.spelled}${v.name && !v.spelled.endsWith(v.name) ? ` ${v.name}` : ''}${v.alias ? ` as ${v.alias}` : ''}`,
          ),
          followed: trail.followed,
          candidates: trail.definitions.length,
        }
      : undefined;
    const extra: Record<string, unknown> = {
      ...(body.restStart !== undefined
        ? {
            members: listed.map((d) => ({
              line: d.startLine,
              end_line: d.endLine,
              kind: d.kind,
              name: d.name,
              ...(d.modifiers.length ? { modifiers: d.modifiers } : {}),
            })),
            ...(body.members.length > listed.length ? { members_more: body.members.length - listed.length } : {}),
          }
        : {}),
      also: alsoRows,
      ...(others.length > also.length ? { also_more: others.length - also.length } : {}),
      refs: { sites: refs.sites, files: refs.files, next: `refs ${q.text}` },
      ...(importTrail ? { import: importTrail } : {}),
    };
    const extraLines: [string, string][] = [
      ...(memberText ? [['members', memberText] as [string, string]] : []),
      ...alsoRows.map((d): [string, string] => [
        'also',
        `${d.handle} ${where(d.member, d.path, d.line)}-${d.end_line} ${d.kind} ${d.name}`,
      ]),
      ...(others.length > also.length
        ? [['also', `+${others.length - also.length} more definitions (search sym:${name})`] as [string, string]]
        : []),
      ...(importTrail
        ? [['followed', `${importTrail.followed} hops via ${importTrail.via.join(' -> ')}`] as [string, string]]
        : []),
      ['refs', `${counted(refs.sites, 'site')} in ${counted(refs.files, 'file')} (refs ${q.text})`],
    ];
    const first = handle(0);
    return ok({
      handle: first,
      ...(best.target.member ? { member: best.target.member } : {}),
      path: best.def.file.path,
      uri: fileUri(best.target.root, best.def.file.path),
      revision: live.revision,
      verified: 'revision',
      name: qualifiedName(best.def),
      kind: best.def.kind,
      rows: body.rows,
      extent: { startLine: best.def.startLine, endLine: best.def.endLine },
      ...(body.restStart !== undefined ? { next: `${first}~${body.restStart}` } : {}),
      continuation: (next: number) => `${first}~${next}`,
      extra,
      extraLines,
    });
  } finally {
    closeTargets(targets);
  }
}
