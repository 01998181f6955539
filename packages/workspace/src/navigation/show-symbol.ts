// `show sym:NAME [file: lang: kind:]` (docs/spec/retrieval.md §6) as the facade runs it:
// open the targets (home widening to the other members, as search does), let
// @trufflepig/navigation choose and cut the definition, read it once and verify it
// against the indexed revision, save the set, and hand render a ShowInput: the best
// definition, one line per other definition (`also`, at most SYM_ALSO_MAX) and one line
// counting its reference sites (`refs NAME` lists them).
import { dottedAsOwned, parseQuery, type ParsedQuery } from '@trufflepig/index';
import { fileUri } from '@trufflepig/base/stored-path';
import {
  definitionBody,
  definitionCandidates,
  definitionEntry,
  definitionsViaImports,
  noDefinition,
  qualifiedName,
  referenceCount,
  tooLargeMentions,
  tooLargeUnsearchedFields,
  tooLargeNotes,
  withDecorations,
  SYM_ALSO_MAX,
  SYM_MEMBERS_MAX,
  type Candidate,
  type ImportTrail,
  type NavTarget,
} from '@trufflepig/navigation';
import { counted, printedLines, printedPath, type ShowInput } from '@trufflepig/render';
import { formatHandle, type ResultEntry, type ResultStore } from '@trufflepig/result-cache';
import type { Context } from '../core/context';
import { fail, ok, type Outcome } from '../core/errors';
import { readOnce } from '../core/live';
import { closeTargets, openMembers, openTargets } from './open';

/** A member of the definition listed after its head (a class's methods, a struct's fields). */
export interface SymbolMember {
  /** The member's file when it is not the definition's (a Go method in another file of its package). */
  readonly path?: string;
  readonly line: number;
  readonly endLine: number;
  readonly kind: string;
  readonly name: string;
  /** `static`, `async`, `get`, `private`, ... when any. */
  readonly modifiers?: readonly string[];
}

/** Another definition of the name (`also`), with the handle that reads it. */
export interface OtherDefinition {
  readonly handle: string;
  readonly member?: string;
  /** Root-relative, as printed. */
  readonly path: string;
  readonly line: number;
  readonly endLine: number;
  readonly kind: string;
  readonly name: string;
}

/** What a `show sym:` read says beside the definition's rows: its one owner is showSymbol. */
export interface SymbolContext {
  /** Members listed after a head (when the rows are only the definition's head). */
  readonly members?: readonly SymbolMember[];
  /** Members left out of `members`. */
  readonly membersMore?: number;
  readonly also: readonly OtherDefinition[];
  /** Other definitions left out of `also`. */
  readonly alsoMore?: number;
  /** Reference sites of the name, and the command that lists them. */
  readonly refs: {
    readonly sites: number;
    readonly files: number;
    readonly next: string;
    /** Code files too large to index that mention the name: their sites are not counted. */
    readonly too_large_paths?: readonly string[];
    /** Code files too large to index past the query's live bound, not read for the name (navigation tooLargeUnsearchedFields). */
    readonly too_large_unsearched?: number;
    readonly too_large_unsearched_paths?: readonly string[];
  };
  /** The import trail followed to the definition (from the invocation's file), when one was. */
  readonly import?: { readonly via: readonly string[]; readonly followed: number; readonly candidates: number };
}

/** The JSON of a symbol context as the CLI's `show --json` carries it (snake_case keys). */
function contextJson(c: SymbolContext): Record<string, unknown> {
  return {
    ...(c.members
      ? {
          members: c.members.map((m) => ({
            ...(m.path !== undefined ? { path: m.path } : {}),
            line: m.line,
            end_line: m.endLine,
            kind: m.kind,
            name: m.name,
            ...(m.modifiers ? { modifiers: m.modifiers } : {}),
          })),
          ...(c.membersMore !== undefined ? { members_more: c.membersMore } : {}),
        }
      : {}),
    also: c.also.map((d) => ({
      handle: d.handle,
      ...(d.member !== undefined ? { member: d.member } : {}),
      path: d.path,
      line: d.line,
      end_line: d.endLine,
      kind: d.kind,
      name: d.name,
    })),
    ...(c.alsoMore !== undefined ? { also_more: c.alsoMore } : {}),
    refs: c.refs,
    ...(c.import ? { import: c.import } : {}),
  };
}

/** The definitions `show sym:` chose, best first, in the targets it opened; the best one read and verified. */
interface Chosen {
  readonly targets: readonly NavTarget[];
  readonly q: ParsedQuery;
  readonly found: readonly Candidate[];
  readonly trail?: ImportTrail;
  /** The best definition, spanning its decorators and doc comment. */
  readonly best: Candidate;
  readonly live: { readonly bytes: Buffer; readonly revision: string };
}

/**
 * Open the targets of `sym:NAME [filters]` (home widening to the other members, as search
 * does), choose the definitions, read the best once and verify it, then hand them to
 * `use`; the targets are closed after it. `show sym:` and `ctx sym:` choose alike.
 */
async function withChosenDefinition<T>(
  ctx: Context,
  words: readonly string[],
  cwd: string,
  use: (chosen: Chosen) => Outcome<T>,
): Promise<Outcome<T>> {
  const parsed = parseQuery(words);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  const asked = parsed.value;
  if (asked.mode !== 'sym' || !asked.text)
    return fail(
      'bad_query',
      'show sym: takes a name, e.g. show sym:TokenBucket or show sym:TokenBucket::refill file:src/',
    );
  const nav = await openTargets(ctx, asked, cwd);
  if (!nav.ok) return nav;
  const targets = [...nav.value.targets];
  // `sym:QuerySet.filter` is `QuerySet::filter` where nothing is named with the dots.
  const q = dottedAsOwned(
    targets.map((t) => t.reader),
    nav.value.query,
  );
  try {
    let found = definitionCandidates(targets, q, true);
    let trail: ImportTrail | undefined;
    if (found.length === 0) ({ found, trail } = definitionsViaImports(targets, q));
    // Home without a definition widens to the other members, as search does.
    if (found.length === 0 && nav.value.widenTo.length > 0) {
      const more = await openMembers(ctx.host, nav.value.widenTo, cwd);
      targets.push(...more.targets);
      found = definitionCandidates(targets, q, true);
      if (found.length === 0) ({ found, trail } = definitionsViaImports(targets, q));
    }
    if (found.length === 0) return elsewhereOrNone(ctx, targets, q, cwd);
    const chosen = found[0];
    const live = readOnce(chosen.target.root, chosen.def.file.path);
    if (!live.ok)
      return fail(
        'source_missing',
        `${printedPath(chosen.def.file.path)} was moved or deleted since indexing; run index, then retry`,
      );
    if (live.revision !== chosen.def.file.revision)
      return fail(
        'stale_source',
        `${printedPath(chosen.def.file.path)} changed since it was indexed; run index, then retry`,
      );
    // Read with its decorators (`@property`), which its handle then spans too.
    const best = { ...chosen, def: withDecorations(chosen.def, live.bytes) };
    return use({ targets, q, found, ...(trail ? { trail } : {}), best, live });
  } finally {
    closeTargets(targets);
  }
}

/**
 * The handle of the definition `show sym:` reads, in a set of its own (`ctx sym:NAME`): the
 * same choice and errors, without reading its body, its other definitions or its sites.
 */
export function symbolHandle(
  ctx: Context,
  words: readonly string[],
  cwd: string,
  store: ResultStore,
): Promise<Outcome<{ readonly handle: string; readonly others: number }>> {
  return withChosenDefinition(ctx, words, cwd, ({ q, best, found }) => {
    const saved = store.save(
      { query: `ctx ${words.join(' ')}`, truncated: false, words: [q.text.split('::').pop()!.toLowerCase()] },
      [definitionEntry(best.target, best.def)],
    );
    return saved.ok
      ? ok({ handle: formatHandle(saved.value.id, 1), others: found.length - 1 })
      : fail(saved.error.code, saved.error.message);
  });
}

export function showSymbol(
  ctx: Context,
  words: readonly string[],
  cwd: string,
  store: ResultStore,
  /** The budget the reader asked for, if any: a long type that fits in it is read whole. */
  askedBudget?: number,
): Promise<Outcome<ShowInput & { readonly symbol: SymbolContext }>> {
  return withChosenDefinition(ctx, words, cwd, ({ targets, q, found, trail, best, live }) => {
    const name = q.text.split('::').pop()!;
    const others = found.slice(1);
    // Each read with its doc comment and decorators, as the best one is: `show` of an `also`
    // handle had printed the definition without the comment above it. A file changed since
    // indexing keeps the indexed span (show answers stale_source for it anyway).
    const also = others.slice(0, SYM_ALSO_MAX).map((c) => {
      const read = readOnce(c.target.root, c.def.file.path);
      return read.ok && read.revision === c.def.file.revision ? { ...c, def: withDecorations(c.def, read.bytes) } : c;
    });
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
    // `PATH:A-B`, or `PATH:A` for a one-line definition, as hit lines print spans.
    const where = (member: string | undefined, p: string, line: number, endLine: number) =>
      `${member ? `${member}/` : ''}${p}:${printedLines(line, endLine)}`;
    const alsoRows = also.map((c, i): OtherDefinition => ({
      handle: handle(i + 1),
      ...(c.target.member ? { member: c.target.member } : {}),
      path: printedPath(c.def.file.path),
      line: c.def.startLine,
      endLine: c.def.endLine,
      kind: c.def.kind,
      name: qualifiedName(c.def),
    }));
    // Counted and named with the filters asked: `show sym:ZodType::parseAsync in:zod
    // file:src/v3` read zod's 187 sites in 69 files and `refs ZodType::parseAsync` (a trial).
    const refs = referenceCount(targets, name, q);
    // Without `kind:`: the count is of the name's sites, which `refs` narrows by kind and then
    // counts fewer (`refs: 212 sites in 43 files (refs KV kind:interface)` answered 177, an etcd trial).
    const refsCommand = words
      .filter((w) => !/^kind:/i.test(w))
      .map((w) => (/^sym:/i.test(w) ? q.text : w))
      .join(' ');
    // Sites in a file too large to index are in no count: `show sym:sqlite3_prepare_v2` read
    // `refs: 4 sites in 3 files` while sqlite3.c held the definition and dozens of calls.
    const tooLarge = tooLargeMentions(targets, q);
    const body = definitionBody(
      best.target,
      best.def,
      live.bytes,
      askedBudget !== undefined ? { wholeWithinTokens: askedBudget } : {},
    );
    const listed = body.members.slice(0, SYM_MEMBERS_MAX);
    // A member in another file (a Go method in another file of the package) names that file.
    const memberLine = (d: (typeof listed)[number]) =>
      d.file.id === best.def.file.id ? String(d.startLine) : `${printedPath(d.file.path)}:${d.startLine}`;
    const memberText =
      listed.map((d) => [memberLine(d), ...d.modifiers, d.name].join(' ')).join(', ') +
      (body.members.length > listed.length
        ? `, +${body.members.length - listed.length} more (${[...new Set([best.def.file.path, ...body.members.map((m) => m.file.path)])].map((p) => `map ${printedPath(p)}`).join(', ')})`
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
    const symbol: SymbolContext = {
      ...(body.restStart !== undefined
        ? {
            members: listed.map((d) => ({
              ...(d.file.id !== best.def.file.id ? { path: printedPath(d.file.path) } : {}),
              line: d.startLine,
              endLine: d.endLine,
              kind: d.kind,
              name: d.name,
              ...(d.modifiers.length ? { modifiers: d.modifiers } : {}),
            })),
            ...(body.members.length > listed.length ? { membersMore: body.members.length - listed.length } : {}),
          }
        : {}),
      also: alsoRows,
      ...(others.length > also.length ? { alsoMore: others.length - also.length } : {}),
      refs: {
        sites: refs.sites,
        files: refs.files,
        next: `refs ${refsCommand}`,
        ...(tooLarge.mentioning.length ? { too_large_paths: tooLarge.mentioning } : {}),
        ...(tooLarge.unsearched.length ? tooLargeUnsearchedFields(tooLarge.unsearched) : {}),
      },
      ...(importTrail ? { import: importTrail } : {}),
    };
    const extraLines: [string, string][] = [
      ...(memberText ? [['members', memberText] as [string, string]] : []),
      ...alsoRows.map((d): [string, string] => [
        'also',
        `${d.handle} ${where(d.member, d.path, d.line, d.endLine)} ${d.kind} ${d.name}`,
      ]),
      ...(others.length > also.length
        ? [['also', `+${others.length - also.length} more definitions (search sym:${name})`] as [string, string]]
        : []),
      ...(importTrail
        ? [['followed', `${importTrail.followed} hops via ${importTrail.via.join(' -> ')}`] as [string, string]]
        : []),
      // The index counts a name's occurrences, not whose member each is: for `A::b`, say it
      // counts every `b` (an agent trial read `15 sites in 2 files` beside `refs A::b`'s 13 in 1),
      // and that refs lists A's (`19 sites of autoCommit` read as a contradiction of refs'
      // 3, a PHP trial).
      [
        'refs',
        `${counted(refs.sites, 'site')}${name !== q.text ? ` of the name ${name}` : ''} in ${counted(refs.files, 'file')} (refs ${refsCommand}${name !== q.text ? ` lists ${ownerOf(q.text)}'s` : ''})${tooLargeNotes(
          tooLarge,
          name,
        )
          .map((w) => `; ${w}`)
          .join('')}`,
      ],
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
      extra: contextJson(symbol),
      extraLines,
      symbol,
    });
  });
}

/**
 * no_definition for members a selector or --member chose, naming the unselected members
 * that define the name: `--member flask show sym:cached_property` had said only that no
 * definition is indexed, while werkzeug defines it (a workspace trial). The readers opened
 * here join `targets`, which the caller closes.
 */
async function elsewhereOrNone(
  ctx: Context,
  targets: NavTarget[],
  q: ParsedQuery,
  cwd: string,
): Promise<Outcome<never>> {
  const none = noDefinition(targets, q);
  if (ctx.kind !== 'workspace' || none.ok) return none;
  const searched = new Set(targets.map((t) => t.member));
  const others = ctx.ws.members.filter((m) => !searched.has(m.name));
  if (others.length === 0) return none;
  const more = await openMembers(ctx.host, others, cwd);
  targets.push(...more.targets);
  const found = definitionCandidates(more.targets, q, true);
  if (found.length === 0) return none;
  const members = [...new Set(found.map((c) => c.target.member!))].slice(0, 3);
  const defined = members
    .map((m) => {
      const first = found.find((c) => c.target.member === m)!;
      return `${m}/${printedPath(first.def.file.path)}:${first.def.startLine}`;
    })
    .join(', ');
  const name = q.text.split('::').pop()!;
  return fail(
    none.error.code,
    `no definition of ${name} in ${[...searched].join(', ')}; another member defines it: ${defined}; select it with in:${members[0]}${ctx.ws.member !== undefined ? ', or drop --member' : ''}`,
  );
}

/** The owner a qualified name asks for, as typed: `Configuration` of `Configuration::autoCommit`. */
function ownerOf(text: string): string {
  const parts = text.split('::');
  return parts.length > 1 ? parts[parts.length - 2] : text;
}
