import {
  phraseWords,
  identifierCompoundWords,
  fileStanding,
  fuseLanes,
  fuseMembers,
  LANE_FILE_CAP,
  filePrior,
  nonCodeSiblingGroup,
  pathPrior,
  priorContext,
  spreadSiblings,
  spreadTwins,
  resolveScopes,
  WEIGHT_ANY_TERM,
  WEIGHT_DEFAULT,
  WEIGHT_PHRASE,
  type ScopeMode,
} from '@trufflepig/rank';
import { DOCS_TAG, queryLanguageOf, TEST_TAG } from '../classify';
import { qualifiedName, ROLE } from '../extract/facts';
import { LANE_REGION_SCAN_MAX, PRUNE_COMMON_WORD_REGIONS, PRUNE_MIN_CONTENT_WORDS, REGEX_DEADLINE_MS } from '../limits';
import type { PruneSettings } from './prune';
import { definitionCountOfKind, definitionsNamed, isDefinedName } from '../store/definitions';
import { allRows } from '../store/sql';
import { diagnoseFilters } from './diagnosis';
import { ftsExpression, ftsRegions } from './fts';
import { GIT_LOG_TAG, searchCommits } from './commits';
import type { RegexScanReport, ScopeGroup, SearchHit, SearchOutcome, Truncation } from './hit';
import {
  declarationRank,
  definitionHomeRank,
  definitionLane,
  mentionLane,
  filenameLane,
  ftsLane,
  identifierLane,
  identifierTiers,
  kindTier,
  kindWordLane,
  otherLines,
  useRows,
  type HitLane,
  type IdentifierLane,
  type LaneContext,
} from './lanes';
import { findLiteral, hashedLive, literalMatchesCase, liveHit, readLiveUnhashed, regexScan } from './live';
import { definitionKinds, hasFilters, parseQuery, type ParsedQuery } from './parse';
import { dottedAsOwned, ownedMemberOf } from './dotted';
import { unparsedCodeMentioning } from './mentions';
import { regexPrefilter, trigramsOf, type TrigramQuery } from '../trigram/regex';
import { evaluateQuery, hasFile } from '../trigram/evaluate';
import { trigramFiles } from '../store/trigrams';
import type { IndexedFile, IndexReader } from './reader';

function firstRegionOf(
  reader: IndexReader,
): (f: IndexedFile) => { start: number; end: number; sl: number; el: number } {
  return (f) => {
    const r = allRows(reader.db, 'SELECT start, end, sl, el FROM region WHERE file = ? ORDER BY start LIMIT 1', [
      f.id,
    ])[0];
    return r
      ? { start: Number(r[0]), end: Number(r[1]), sl: Number(r[2]), el: Number(r[3]) }
      : { start: 0, end: 0, sl: 1, el: 1 };
  };
}

function wholeFile(f: IndexedFile, lane: string): SearchHit {
  return {
    path: f.path,
    start: 0,
    end: f.size,
    startLine: 1,
    endLine: Math.max(1, f.lines - (f.size > 0 ? 1 : 0)),
    lane,
    kind: 'file',
    revision: f.revision,
    tags: f.tags,
    lang: queryLanguageOf(f.lang),
  };
}

/** A ranking and how to rank again within a scope: the same candidate lists, restricted to documents whose tags pass `keep`. */
interface Ranked {
  readonly hits: SearchHit[];
  readonly within: (keep: (tags: readonly string[]) => boolean) => SearchHit[];
}

/** The fusion tier of a file excluded from content indexing: after every identifier tier (lanes.ts identifierTiers, 0–3). */
const EXCLUDED_FILE_TIER = 4;

function rankFree(ctx: LaneContext): Ranked {
  const q = ctx.query;
  const kindFile = q.kinds.includes('file');
  const prior = priorContext({
    words: q.words,
    fileFilters: q.fileInclude,
    languages: q.languages,
    kindFile,
    identifier: q.identifier,
  });
  const lanes: HitLane[] = [];
  /** Paths whose hits a lane verified against their live bytes (a file too large to index among them). */
  const readLive = new Set<string>();
  const structural = definitionKinds(q).length > 0;
  let defs: HitLane | undefined;
  let uses: IdentifierLane | undefined;
  if (q.text) {
    defs = definitionLane(ctx);
    lanes.push(defs);
    // A definition query (`kind:fn switchMap`) answers definitions only: the uses lane's
    // import lines and call sites were hits without a kind (an agent trial on rxjs).
    if (q.identifier && !structural) {
      uses = identifierLane(ctx, q.text.split('::').pop()!);
      lanes.push(uses);
    }
  }
  // The identifier is defined or used somewhere (uses is set for identifier queries only).
  const occurs = !!defs && !!uses && (defs.entries.length > 0 || uses.entries.length > 0);
  if (structural) {
    lanes.push(kindWordLane(ctx));
  } else if (q.words.length > 0) {
    const spelled = spelledLanes(ctx, occurs);
    for (const lane of [...spelled.leading, ...spelled.trailing]) for (const e of lane.entries) readLive.add(e.path);
    // `Request.json` names a member its owner defines: that definition leads, before the files
    // spelling the text (`await request.json()` had stood first, a Python trial), as the
    // definitions of an identifier lead its uses.
    if (defs !== undefined && defs.entries.length > 0 && ownedMemberOf(q.text) !== undefined)
      lanes.splice(1, 0, ...spelled.leading);
    else lanes.unshift(...spelled.leading);
    if (q.words.length >= 2 && !q.identifier) {
      lanes.push(ftsLane(ctx, 'phrase', 'phrase', WEIGHT_PHRASE));
      // Each hyphenated or dotted token is also the phrase it spells (`x-forwarded-for`).
      for (const p of q.phrases ?? [])
        if (p.length < q.words.length) lanes.push(ftsLane(ctx, 'compound', 'phrase', WEIGHT_PHRASE, p));
      lanes.push(ftsLane(ctx, 'all_terms', 'all', WEIGHT_DEFAULT));
    }
    // Then its parts, but never a compound's stopwords alone (every `if`, `for`, `x`).
    // An identifier that occurs somewhere is ranked by its definitions and uses (and the
    // fusion tiers of identifierTiers); the files that only mention it (a guide, a config)
    // come from an unscored lane: BM25 over every region spelling it was a third of a
    // served `kfree` on the kernel (23,905 regions; docs/ranking.md, 2026-12-05). Mentions
    // rank after every file that uses the identifier (identifierTiers): when the uses lane's
    // cap cut some of those, a mention listed after the cut would stand where a file that
    // uses it belongs, so there are none (kmalloc: 2,602 files use it, the lane keeps 1,000).
    if (occurs) {
      if (!uses?.cut)
        lanes.push(mentionLane(ctx, new Set([...(defs?.entries ?? []), ...(uses?.entries ?? [])].map((e) => e.path))));
    } else if (!q.standalone || q.standalone.length > 0)
      lanes.push(ftsLane(ctx, 'any_term', 'any', WEIGHT_ANY_TERM, q.standalone));
    // An identifier that occurs somewhere is asked for by name: a path naming only some of
    // its parts (`ops.go` for parseBinaryOps) is noise. One that occurs nowhere may be a
    // guess, and any path naming a part of it is a lead.
    lanes.push(filenameLane(ctx, firstRegionOf(ctx.reader), { partial: !occurs }));
    lanes.push(...spelled.trailing);
  } else if (kindFile || !q.text) {
    // `kind:file` or filters alone (`file:src/ lang:rust`): list the eligible files.
    lanes.push({
      name: 'files',
      weight: WEIGHT_DEFAULT,
      entries: ctx.reader
        .files()
        .filter(ctx.eligible)
        .map((f) => ({ path: f.path, start: 0, end: f.size, payload: wholeFile(f, 'files') })),
    });
  }
  const byName = q.identifier && defs ? identifierTiers(ctx, q.text, defs) : undefined;
  // A file not indexed for its content (a `.pyc`, an image) stays findable by its path, after
  // every file whose content holds the evidence, unless files are what is asked for: an
  // agent trial's `search Environment` spent a hit on `__pycache__/environment.cpython-311.pyc`.
  // One too large to index whose live bytes a lane found the text in holds evidence.
  const tierOf = kindFile
    ? byName
    : (p: string): number =>
        ctx.reader.fileByPath(p)?.excluded && !readLive.has(p) ? EXCLUDED_FILE_TIER : byName ? byName(p) : 0;
  // Fusion asks once per entry of every lane: a path in five lanes is asked five times.
  const priors = new Map<string, number>();
  const priorOf = (p: string): number => {
    let value = priors.get(p);
    if (value === undefined) {
      const f = ctx.reader.fileByPath(p);
      value = f ? filePrior(f, prior) : pathPrior(p, prior);
      priors.set(p, value);
    }
    return value;
  };
  // One fusion pass over the given lanes: the global ranking, or (docs/spec/per-source.md) one
  // scope's own ranking from the same candidate lists, so a scope costs one pass.
  const fuse = (ranked: readonly HitLane[]): SearchHit[] => {
    const fused = fuseLanes(ranked, { prior: priorOf, tierOf });
    if (kindFile && !structural) return fused.map((x) => wholeFile(ctx.reader.fileByPath(x.path)!, x.lane));
    const also = structural ? definitionLinesByPath(ranked) : undefined;
    return fused.map((x) => {
      const { alsoLines: _ownLane, ...hit } = x.representative.payload;
      const further = [...(also?.get(hit.path) ?? [])].filter((l) => l !== hit.startLine).sort((a, b) => a - b);
      return {
        ...hit,
        ...(further.length > 0 ? { alsoLines: further } : {}),
        fusion: { tier: x.tier, score: x.score },
      };
    });
  };
  return {
    hits: fuse(lanes),
    within: (keep) =>
      fuse(lanes.map((lane) => ({ ...lane, entries: lane.entries.filter((e) => keep(e.payload.tags)) }))),
  };
}

const ROLE_ORDER = [
  ROLE.declaration,
  ROLE.module,
  ROLE.member,
  ROLE.local,
  ROLE.import,
  ROLE.call,
  ROLE.type,
  ROLE.reference,
];

function bestRoleRank(roles: number): number {
  const i = ROLE_ORDER.findIndex((r) => (roles & r) !== 0);
  return i < 0 ? ROLE_ORDER.length : i;
}

/** `sym:NAME`: exact, case-sensitive occurrences, declarations first, then modules, members, locals, imports. */
function rankSymbol(ctx: LaneContext): SearchHit[] {
  const text = ctx.query.text;
  if (text.includes('::')) return definitionLane(ctx).entries.map((e) => e.payload);
  const kinds = definitionKinds(ctx.query);
  const declaredKinds = new Map<
    number,
    { kind: string; name: string; at: { start: number; end: number; line: number } }
  >();
  // Every definition's first line per file: a hit lists its file's others (Java's 8
  // `tryAdvance` overloads in Spliterator.java were one hit and no word of seven).
  const definitionLines = new Map<number, number[]>();
  // Stable: definitions at the same offset stay in file order.
  for (const d of definitionsNamed(ctx.reader.db, text).sort((a, b) => a.start - b.start)) {
    if (kinds.length === 0 || kinds.includes(d.kind)) {
      const lines = definitionLines.get(d.file);
      if (lines) lines.push(d.startLine);
      else definitionLines.set(d.file, [d.startLine]);
    }
    // A file's strongest definition speaks for it: `class X` before a binding `X = core.X`,
    // a C function before its prototype.
    const seen = declaredKinds.get(d.file);
    const stronger =
      !seen ||
      kindTier(d.kind) < kindTier(seen.kind) ||
      (kindTier(d.kind) === kindTier(seen.kind) && declarationRank(d.kind) < declarationRank(seen.kind));
    if (stronger && (kinds.length === 0 || kinds.includes(d.kind)))
      declaredKinds.set(d.file, {
        kind: d.kind,
        name: qualifiedName(d),
        at: { start: d.nameStart, end: d.nameEnd, line: d.startLine },
      });
  }
  // Among declaring files, a definition beats a binding of the same name (docs/spec/retrieval.md §6).
  const declarationTier = (u: { file: number; roles: number }) =>
    (u.roles & ROLE.declaration) !== 0 ? kindTier(declaredKinds.get(u.file)?.kind ?? '') : 0;
  // Then a definition before a declaration of the same tier (a C prototype), after non-test before test.
  const declarationOnly = (u: { file: number; roles: number }, path: string) =>
    (u.roles & ROLE.declaration) !== 0 ? declarationRank(declaredKinds.get(u.file)?.kind ?? '', path) : 0;
  // Then the file the definition is at home in (named after it; a header's C macro or type).
  const bareName = text.split('::').pop() ?? text;
  const home = (u: { file: number; roles: number }, path: string) =>
    (u.roles & ROLE.declaration) !== 0 ? definitionHomeRank(bareName, declaredKinds.get(u.file)?.kind ?? '', path) : 0;
  // A name no identifier occurrence spells is still declared (Java's `package java.util`,
  // PHP's `namespace App\\Console`): its declaring files stand in for their uses.
  const uses = useRows(ctx, text);
  const used = new Set(uses.map((u) => u.file));
  for (const [file, d] of declaredKinds)
    if (!used.has(file))
      uses.push({ file, count: 1, roles: ROLE.declaration, start: d.at.start, end: d.at.end, line: d.at.line });
  return uses
    .map((u) => ({ u, f: ctx.reader.file(u.file)! }))
    .filter(({ u, f }) => f && ctx.eligible(f) && (kinds.length === 0 || declaredKinds.has(u.file)))
    .sort(
      (a, b) =>
        bestRoleRank(a.u.roles) - bestRoleRank(b.u.roles) ||
        declarationTier(a.u) - declarationTier(b.u) ||
        fileStanding(a.f) - fileStanding(b.f) ||
        declarationOnly(a.u, a.f.path) - declarationOnly(b.u, b.f.path) ||
        home(a.u, a.f.path) - home(b.u, b.f.path) ||
        b.u.count - a.u.count ||
        (a.f.path < b.f.path ? -1 : 1),
    )
    .map(({ u, f }) => {
      const decl = declaredKinds.get(u.file);
      // A declaring file's hit is its strongest definition, not its first declaration: the
      // body of `switchMap`, not the first of its overload signatures (an agent trial on rxjs).
      const at = decl && u.roles & ROLE.declaration ? decl.at : { start: u.start, end: u.end, line: u.line };
      const alsoLines = decl ? otherLines(definitionLines.get(u.file), at.line) : [];
      return {
        path: f.path,
        start: at.start,
        end: at.end,
        startLine: at.line,
        endLine: at.line,
        lane: 'symbol',
        revision: f.revision,
        tags: f.tags,
        lang: queryLanguageOf(f.lang),
        name: decl?.name ?? text,
        ...(decl && u.roles & ROLE.declaration ? { kind: decl.kind } : {}),
        ...(alsoLines.length > 0 ? { alsoLines } : {}),
      };
    });
}

interface LiteralOptions {
  /** Only files spelling the text in the case typed (a literal with a capital letter). */
  readonly exactCase?: boolean;
  /**
   * When the files whose trigrams hold the text are read beside the phrase's: `always` (a
   * quoted literal: every file holding it must be found), or `when_no_phrase` (a hyphenated
   * token of a free query, one lane among several: only when no region has its words as a
   * phrase, so that a common token does not read thousands of files per search).
   */
  readonly substrings?: 'always' | 'when_no_phrase';
  /**
   * Whether files too large to index are among the candidates (a quoted literal: what rg -F
   * finds, within TOO_LARGE_LIVE_BYTES_MAX; those left are recorded in ctx.tooLargeUnread;
   * a compound identifier alone that the index neither defines nor uses: spelledLanes). A
   * hyphenated token of a free query reads indexed files only, as the rest of free text.
   */
  readonly tooLarge?: boolean;
}

/**
 * Files holding `text` as spelled (ASCII case-insensitive, verified in the live bytes),
 * those spelling it in the same case first, each hit at its first such occurrence.
 * Candidates: the files whose regions match the phrase of `words`, best first, then the
 * files whose trigrams hold all of the text's (a literal is a substring, as `rg -F` reads
 * it: `"jinja2-cache"` inside `_jinja2-cache-`, `"4-byte"` inside `64-byte`, which no
 * phrase of whole words finds), by path prior and path; every eligible file when the text
 * has neither words nor a trigram. `exactCase` keeps only the same-case files. The
 * trigram-only candidates are read until `ctx.deadlineAt`; a read cut there truncates.
 */
function literalHits(
  ctx: LaneContext,
  text: string,
  words: readonly string[],
  lane: string,
  { exactCase = false, substrings = 'always', tooLarge = false }: LiteralOptions = {},
): SearchHit[] {
  const needle = Buffer.from(text, 'utf8');
  // Files too large to index are among a quoted literal's candidates (no phrase, no trigram
  // rules them out): a literal is what rg -F would find, and rg reads them.
  let files = ctx.reader.eligibleFiles(ctx.query);
  if (tooLarge) {
    const live = ctx.reader.liveScanFiles(ctx.query);
    files = live.files;
    ctx.tooLargeUnread = live.tooLargeUnread;
  }
  const best = new Map<number, number>();
  if (words.length > 0) {
    const regions = ftsRegions(ctx.reader.db, ftsExpression(words, 'phrase'));
    if (regions.length >= LANE_REGION_SCAN_MAX) ctx.truncated = true;
    for (const r of regions) best.set(r.file, Math.max(best.get(r.file) ?? 0, r.score));
  }
  // regexCandidates is undefined for a text shorter than a trigram: every file when there
  // are no words either, else the phrase's alone.
  const trigramCandidates =
    substrings === 'when_no_phrase' && best.size > 0
      ? []
      : (regexCandidates(ctx.reader, files, trigramsOf(new Set([text]))) ?? (words.length === 0 ? files : []));
  // A file too large to index has no phrase to meet: when asked for, it is read whether or
  // not the phrase met other files.
  const bySubstring =
    tooLarge && trigramCandidates.length === 0 ? files.filter((f) => f.excluded === 'too_large') : trigramCandidates;
  const prior = priorContext({
    words,
    fileFilters: ctx.query.fileInclude,
    languages: ctx.query.languages,
    kindFile: false,
    identifier: false,
  });
  // Build output (a bundle, a source map, a minified file) after every other file, not
  // only scaled down: rxjs' `rxjs.umd.js.map` holds every line of the library, and its
  // score outweighed the demotion (`search "the"` put it first, an agent trial).
  // Judged once per file, not per comparison: sorting the kernel's 10,000 files holding
  // `"GFP_KERNEL"` judged their paths ~260,000 times (0.4 s of a 1.9 s search).
  const built = (f: IndexedFile) => (prior.demoteGenerated && fileStanding(f) === 2 ? 1 : 0);
  const byPhrase = files
    .filter((f) => best.has(f.id))
    .map((f) => ({ f, built: built(f), score: best.get(f.id)! * pathPrior(f.path, prior) }))
    .sort((a, b) => a.built - b.built || b.score - a.score || (a.f.path < b.f.path ? -1 : 1))
    .map((x) => x.f);
  const substringOnly = bySubstring
    .filter((f) => !best.has(f.id))
    .map((f) => ({ f, built: built(f), prior: pathPrior(f.path, prior) }))
    .sort((a, b) => a.built - b.built || b.prior - a.prior || (a.f.path < b.f.path ? -1 : 1))
    .map((x) => x.f);
  // A file that spells the text exactly as typed comes before one that holds it only in
  // another case (`"MAX_CONTENT_LENGTH"`: the config key before a file of
  // `max_content_length` parameters), and its hit sits on that spelling; the order within
  // each group is the candidate order above.
  const exact: SearchHit[] = [];
  const otherCase: SearchHit[] = [];
  // Hashed only when it holds the text: a file too large to index is a candidate of every
  // literal, and hashing the kernel's 32 MiB of them took ~150 ms a search that found nothing.
  const verify = (f: IndexedFile) => {
    const bytes = readLiveUnhashed(ctx.reader.root, f);
    if (!bytes) return;
    const same = bytes.indexOf(needle);
    if (same >= 0) {
      exact.push(liveHit(f, hashedLive(bytes), same, same + needle.length, lane));
      return;
    }
    const at = exactCase ? -1 : findLiteral(bytes, needle);
    if (at >= 0) otherCase.push(liveHit(f, hashedLive(bytes), at, at + needle.length, lane));
  };
  for (const f of byPhrase) verify(f);
  for (const f of substringOnly) {
    if (ctx.deadlineAt !== undefined && Date.now() > ctx.deadlineAt) {
      ctx.truncated = true;
      break;
    }
    verify(f);
  }
  return [...exact, ...otherCase];
}

/**
 * `"literal"`: the phrase lane alone, verified against the live bytes; with a capital
 * letter matched as typed, else ASCII case-insensitive (literalMatchesCase).
 */
function rankLiteral(ctx: LaneContext): { hits: SearchHit[]; truncated: boolean } {
  const text = ctx.query.text;
  const hits = literalHits(ctx, text, ctx.query.words, 'literal', {
    exactCase: literalMatchesCase(text),
    tooLarge: true,
  });
  return { hits, truncated: ctx.truncated };
}

/**
 * A lane per hyphenated or dotted token of a free query (`fetch-retries`, `os.path`): the
 * files that spell it exactly. It is a phrase lane (docs/spec/retrieval.md §2: weight 2), first in
 * the fusion so that such a file's hit sits on the spelling rather than on `fetchRetries`
 * or `fetch ... retries` (docs/spec/retrieval.md §4: the phrase it spells first, then its parts).
 */
function spelledLanes(
  ctx: LaneContext,
  occurs: boolean,
): { readonly leading: HitLane[]; readonly trailing: HitLane[] } {
  const q = ctx.query;
  const tokens = q.text.split(' ');
  const several = tokens.length > 1;
  const leading: HitLane[] = [];
  const trailing: HitLane[] = [];
  for (const token of tokens) {
    const phrase = phraseWords(token, tokens);
    // A compound identifier alone that nothing defines or uses (a setting spelled in strings
    // and docs, SQLAlchemy's `pool_recycle`) is still asked for as spelled: its parts alone
    // ranked `self.__pool._recycle` first, and the three files spelling it third to fifth.
    const alone = !several && !occurs && q.identifier;
    const words = phrase ?? (several || alone ? identifierCompoundWords(token) : null);
    if (!words) continue;
    // Alone and in no definition or use, it may be in a file too large to index (SQLite's
    // `SQLITE_DEFAULT_CACHE_SIZE`, defined only in the 9.5 MB sqlite3.c): read those too.
    const hits = literalHits(ctx, token, words, 'spelled', { substrings: 'when_no_phrase', tooLarge: alone });
    const lane: HitLane = {
      name: 'spelled',
      weight: WEIGHT_PHRASE,
      entries: hits.map((h) => ({ path: h.path, start: h.start, end: h.end, payload: h })),
    };
    // A compound identifier among other words ranks the files that spell it, but its first
    // spelling is no better a hit than the region the other words meet in: its lane comes
    // last, so that region stays the file's representative (`nest_limit default` showed
    // the field `nest_limit: u32` instead of `nest_limit: 250` in `ParserBuilder::new`).
    (phrase || alone ? leading : trailing).push(lane);
  }
  return { leading, trailing };
}

/**
 * Which of `files` can hold a match of a pattern: those whose indexed bytes satisfy its
 * trigram query (trigram/regex.ts); undefined when the pattern fixes no trigram, so every
 * file must be read.
 */
/**
 * The order a `re:` scan reads its files in, and so the order of its hits and what its hit
 * cap keeps: code and configuration, then tests, then documents, then build output (a
 * bundle, a minified file), each in path order. The origin tags decide, as per_source's
 * scopes do. A pattern of C syntax over the kernel answered 13 of 13 first hits from
 * `Documentation/*.rst`, in path order before `arch/` (an agent would have paged past
 * them); the set's cap of REGEX_MAX_HITS files then held docs the code could not displace.
 */
export function inScanOrder(files: readonly IndexedFile[]): readonly IndexedFile[] {
  // One pass into a bucket per tier, each keeping the path order the candidates came in
  // (a sort of the kernel's 14,000 candidates of `return -EINVAL;` was 6 ms of the search).
  const buckets: IndexedFile[][] = [[], [], [], []];
  for (const f of files) buckets[scanTier(f)].push(f);
  return buckets[0].length === files.length ? files : buckets.flat();
}

/** scanTier by file row: a reader's rows live as long as it does, and the kernel has 78,000 of them. */
const scanTiers = new WeakMap<IndexedFile, number>();

function scanTier(f: IndexedFile): number {
  let tier = scanTiers.get(f);
  if (tier === undefined) {
    tier = fileStanding(f) === 2 ? 3 : f.tags.includes(DOCS_TAG) ? 2 : f.tags.includes(TEST_TAG) ? 1 : 0;
    scanTiers.set(f, tier);
  }
  return tier;
}

function regexCandidates(
  reader: IndexReader,
  files: readonly IndexedFile[],
  query: TrigramQuery,
): readonly IndexedFile[] | undefined {
  if (query.op === 'all') return undefined;
  const words = (reader.maxFileId() >> 5) + 1;
  const found = evaluateQuery(query, (tri) => trigramFiles(reader.db, tri, words), words);
  // A file too large to index has no trigrams to rule it out: it is always read.
  return files.filter((f) => f.excluded === 'too_large' || hasFile(found, f.id));
}

export interface SearchOptions {
  /** docs/spec/per-source.md: `shared` (default), `per_source`, or an explicit list of scopes. */
  readonly scopes?: ScopeMode | readonly (readonly string[])[];
  /** Time a `re:` search may take (default REGEX_DEADLINE_MS); past it the scan stops and reports truncation. */
  readonly regexDeadlineMs?: number;
  /** When the any-term lane leaves out regions that cannot rank (prune.ts; default: limits.ts); `false` never. */
  readonly prune?: Partial<PruneSettings> | false;
  /** Files each lane keeps (default LANE_FILE_CAP). */
  readonly laneFiles?: number;
  /** Files the any-term lane of free text keeps (default ANY_TERM_LANE_FILE_CAP, at most laneFiles). */
  readonly anyTermFiles?: number;
}

/** What runQuery's lanes take from the search options. */
interface LaneSettings {
  readonly prune: PruneSettings | undefined;
  readonly laneFiles: number;
  readonly anyTermFiles: number | undefined;
}

function pruneSettings(option: SearchOptions['prune']): PruneSettings | undefined {
  if (option === false) return undefined;
  return {
    commonWordRegions: option?.commonWordRegions ?? PRUNE_COMMON_WORD_REGIONS,
    minContentWords: option?.minContentWords ?? PRUNE_MIN_CONTENT_WORDS,
  };
}

/** Whether a scope setting can give commit documents a group of their own. */
function scopesReachCommits(scopes: NonNullable<SearchOptions['scopes']>): boolean {
  return resolveScopes([GIT_LOG_TAG], scopes).some((s) => s.length > 0);
}

/**
 * Run a parsed query against one published generation. The global ranking (`hits`) is the
 * same under every scope mode; other modes add `groups`. Commit documents join `hits`
 * only when the query asks for `source:git-log`, and otherwise only appear in their own
 * group, so the shared ranking of files never changes.
 */
export function searchIndex(reader: IndexReader, asked: ParsedQuery, options: SearchOptions = {}): SearchOutcome {
  const q = asked.mode === 'sym' ? dottedAsOwned([reader], asked) : asked;
  const scopes = options.scopes ?? 'shared';
  // One deadline for the whole call: the diagnosis reruns below share it.
  const deadlineAt = Date.now() + (options.regexDeadlineMs ?? REGEX_DEADLINE_MS);
  const lanes: LaneSettings = {
    prune: pruneSettings(options.prune),
    laneFiles: options.laneFiles ?? LANE_FILE_CAP,
    anyTermFiles: options.anyTermFiles,
  };
  const run = runQuery(reader, q, deadlineAt, lanes);
  const askedForCommits = q.sources.includes(GIT_LOG_TAG);
  const wantsCommits = askedForCommits || (scopes !== 'shared' && scopesReachCommits(scopes));
  const commits = wantsCommits ? searchCommits(reader, q) : undefined;
  const hits = askedForCommits && commits!.hits.length > 0 ? interleaveByRank(run.hits, commits!.hits) : run.hits;
  const truncated = run.truncated || (commits?.truncated ?? false);
  const truncation = run.truncation ?? (truncated ? ({ by: 'lane_cap' } as const) : undefined);
  const extra = {
    ...(truncation ? { truncation } : {}),
    ...(scopes !== 'shared' ? { groups: scopeGroups(run, commits?.hits ?? [], scopes) } : {}),
    ...(wantsCommits ? { gitLog: reader.gitLog() } : {}),
  };
  const outcome = diagnosed(reader, q, hits, truncated, deadlineAt, lanes);
  const name = q.text.split('::').pop()!;
  const unparsed = hits.length === 0 && q.mode === 'sym' ? unparsedMentionsOf(reader, q, name) : [];
  return {
    ...outcome,
    ...extra,
    ...(run.regexScan ? { regexScan: run.regexScan } : {}),
    ...(run.tooLargeUnsearched ? { tooLargeUnsearched: run.tooLargeUnsearched } : {}),
    ...(unparsed.length ? { unparsedMentions: { name, paths: unparsed } } : {}),
  };
}

/**
 * The eligible files of languages no extractor reads that mention `name` (the name a
 * `sym:` query asks for): a definition the index cannot see may be there. An agent trial
 * on the Neovim runtime read `search sym:tohtml#Convert2HTML`'s 0 hits and `complete` as
 * "not defined"; it is defined in a Vim script file.
 */
function unparsedMentionsOf(reader: IndexReader, q: ParsedQuery, name: string): string[] {
  const eligible = reader.eligibility(q);
  return unparsedCodeMentioning(reader, name)
    .filter(eligible)
    .map((f) => f.path);
}

/** Two rankings of different corpora merged by rank alone (their scores are not comparable). */
function interleaveByRank(files: readonly SearchHit[], commits: readonly SearchHit[]): SearchHit[] {
  return fuseMembers([
    { member: 'files', hits: files },
    { member: 'git-log', hits: commits },
  ]).map((f) => f.hit);
}

function scopeKey(scope: readonly string[]): string {
  return scope.join('\u0000');
}

/**
 * One group per non-global scope that holds a hit: the scopes come from each hit's own tags
 * (resolveScopes), each group ranked on its own from the same candidate lists. per_source
 * orders groups by tag; an explicit list keeps its own order.
 */
function scopeGroups(
  run: Ranked & { hits: SearchHit[] },
  commits: readonly SearchHit[],
  scopes: NonNullable<SearchOptions['scopes']>,
): ScopeGroup[] {
  const found = new Map<string, string[]>();
  for (const h of run.hits) for (const s of resolveScopes(h.tags, scopes)) if (s.length > 0) found.set(scopeKey(s), s);
  if (commits.length > 0)
    for (const s of resolveScopes([GIT_LOG_TAG], scopes)) if (s.length > 0) found.set(scopeKey(s), s);
  const order = (s: readonly string[]): number =>
    typeof scopes === 'string' ? 0 : scopes.findIndex((x) => scopeKey([...new Set(x)].sort()) === scopeKey(s));
  const list = [...found.values()].sort(
    (a, b) => order(a) - order(b) || (scopeKey(a) < scopeKey(b) ? -1 : scopeKey(a) > scopeKey(b) ? 1 : 0),
  );
  return list.map((scope) => {
    if (scope.length === 1 && scope[0] === GIT_LOG_TAG) return { scope, hits: [...commits] };
    return { scope, hits: run.within((tags) => scope.every((t) => tags.includes(t))) };
  });
}

function diagnosed(
  reader: IndexReader,
  q: ParsedQuery,
  hits: SearchHit[],
  truncated: boolean,
  deadlineAt: number,
  lanes: LaneSettings,
): SearchOutcome {
  if (hits.length > 0 || !hasFilters(q)) return { hits, truncated };
  // Only on an empty filtered search: would the query have matched without its `-file:` values?
  const excludedEveryMatch =
    q.fileExclude.length > 0 && runQuery(reader, { ...q, fileExclude: [] }, deadlineAt, lanes).hits.length > 0;
  const unfilteredHits = q.text
    ? runQuery(
        reader,
        { ...q, fileInclude: [], fileExclude: [], languages: [], kinds: [], sources: [], sourceExclude: [] },
        deadlineAt,
        lanes,
      ).hits.length > 0
    : undefined;
  const swapped = swappedKind(q.kinds);
  const kindSwapped = swapped && {
    value: swapped[1],
    hits: runQuery(reader, { ...q, kinds: q.kinds.map((k) => (k === swapped[0] ? swapped[1] : k)) }, deadlineAt, lanes)
      .hits.length,
  };
  return {
    hits,
    truncated,
    filterDiagnosis: diagnoseFilters(q, reader.files(), {
      excludedEveryMatch,
      kindCounts: kindCounts(reader, q),
      unfilteredHits,
      ...(kindSwapped ? { kindSwapped } : {}),
    }),
  };
}

/**
 * The kind an empty `kind:function` (`kind:method`) search is tried with again: an agent
 * trial's `kind:fn idle file:net/http/transport.go` was empty, every Go method being a
 * `method` here; the diagnosis now says `kind:method` finds them.
 */
function swappedKind(kinds: readonly string[]): [string, string] | undefined {
  if (kinds.includes('function') && !kinds.includes('method')) return ['function', 'method'];
  if (kinds.includes('method') && !kinds.includes('function')) return ['method', 'function'];
  return undefined;
}

function kindCounts(reader: IndexReader, q: ParsedQuery): number[] {
  return q.kinds.map((k) => (k === 'file' ? reader.files().length : definitionCountOfKind(reader.db, k)));
}

/**
 * A one-word free query that is the exact name of an indexed definition (`kmalloc`,
 * `schedule`, `render`) is ranked as the identifier it names, though it has no hump or
 * underscore: otherwise the any-term lane, which also counts the word inside every
 * `kmalloc_caches` and `__kmalloc`, outranks the definition asked for.
 */
function asDefinedName(reader: IndexReader, q: ParsedQuery): ParsedQuery {
  if (
    q.mode !== 'free' ||
    q.identifier ||
    q.kinds.length > 0 ||
    q.phrases?.length ||
    q.words.length !== 1 ||
    !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(q.text)
  )
    return q;
  return isDefinedName(reader.db, q.text) ? { ...q, identifier: true } : q;
}

/** Declaration keywords that, before a name, ask for its definition of that kind. */
const KIND_KEYWORDS: Readonly<Record<string, string>> = {
  struct: 'struct',
  union: 'struct',
  enum: 'enum',
  class: 'class',
  interface: 'interface',
  trait: 'trait',
};

/**
 * `struct inode`, `class Router`: a declaration keyword and a name that is defined with that
 * kind is the definition query `inode kind:struct` (the query's filters kept). As free text
 * it ranked the files using the name most: the C trial's `search struct address_space`
 * printed 15 functions taking one and not include/linux/fs.h's struct.
 */
function asKindedName(reader: IndexReader, q: ParsedQuery): ParsedQuery {
  if (q.mode !== 'free' || q.kinds.length > 0 || q.phrases?.length) return q;
  const m = /^([a-z]+)\s+([A-Za-z_$][\w$]*)$/.exec(q.text);
  const kind = m ? KIND_KEYWORDS[m[1]] : undefined;
  if (!m || !kind || !definitionsNamed(reader.db, m[2]).some((d) => d.kind === kind)) return q;
  const named = parseQuery(`${m[2]} kind:${kind}`);
  if (!named.ok) return q;
  const { input, fileInclude, fileExclude, languages, sources, sourceExclude, members, workspace } = q;
  return { ...named.value, input, fileInclude, fileExclude, languages, sources, sourceExclude, members, workspace };
}

function runQuery(
  reader: IndexReader,
  asked: ParsedQuery,
  deadlineAt: number,
  lanes: LaneSettings,
): Ranked & {
  truncated: boolean;
  truncation?: Truncation;
  regexScan?: RegexScanReport;
  tooLargeUnsearched?: readonly string[];
} {
  const q = asDefinedName(reader, asKindedName(reader, asked));
  const hitPath = (h: SearchHit): string => h.path;
  const fileSize = (h: SearchHit): number | undefined => reader.fileByPath(h.path)?.size;
  const ctx: LaneContext = {
    reader,
    query: q,
    eligible: reader.eligibility(q),
    truncated: false,
    deadlineAt,
    ...(lanes.prune ? { prune: lanes.prune } : {}),
    laneFiles: lanes.laneFiles,
    ...(lanes.anyTermFiles !== undefined ? { anyTermFiles: lanes.anyTermFiles } : {}),
    useRows: new Map(),
  };
  let hits: SearchHit[];
  let truncated: boolean;
  let truncation: Truncation | undefined;
  let within: Ranked['within'] | undefined;
  let scanReport: RegexScanReport | undefined;
  if (q.mode === 're') {
    const live = reader.liveScanFiles(q);
    const eligible = live.files;
    ctx.tooLargeUnread = live.tooLargeUnread;
    const prefilter = regexPrefilter(q.text);
    const candidates = regexCandidates(reader, eligible, prefilter.query);
    const files = inScanOrder(candidates ?? eligible);
    scanReport = { narrowed: candidates !== undefined, candidateFiles: files.length, eligibleFiles: eligible.length };
    const scan = regexScan(reader.root, files, q.text, deadlineAt, prefilter, reader.regexHelper);
    hits = scan.hits;
    truncated = scan.truncated;
    if (scan.stopped)
      truncation = {
        by: `regex_${scan.stopped}`,
        scannedFiles: scan.scannedFiles,
        candidateFiles: files.length,
        prefiltered: candidates !== undefined,
      };
  } else if (q.mode === 'literal') {
    ({ hits, truncated } = rankLiteral(ctx));
  } else if (q.mode === 'sym') {
    hits = spreadTwins(rankSymbol(ctx), hitPath, fileSize);
    truncated = ctx.truncated;
  } else {
    ({ hits, within } = rankFree(ctx));
    // A directory of look-alike documents (translations) never fills a page ahead of code,
    // nor one module's second build (`dist/esm/x.js`, `dist/commonjs/x.js`) ahead of another answer.
    hits = spreadTwins(
      spreadSiblings(hits, (h) => nonCodeSiblingGroup(h.path, h.tags)),
      hitPath,
      fileSize,
    );
    truncated = ctx.truncated;
  }
  // Symbol, literal and regex orders depend on each file alone, so a scope's own
  // ranking of them is the global order restricted to the scope.
  const all = hits;
  if (truncated && !truncation) truncation = { by: 'lane_cap' };
  const unread = ctx.tooLargeUnread ?? [];
  return {
    hits,
    truncated,
    truncation,
    ...(scanReport ? { regexScan: scanReport } : {}),
    ...(unread.length ? { tooLargeUnsearched: unread.map((f) => f.path) } : {}),
    within: within ?? ((keep) => all.filter((h) => keep(h.tags))),
  };
}

/**
 * Every matching definition's first line per file, over all lanes of a definition query
 * (`kind:interface Observer`: the exact `Observer` of the definitions lane and the
 * `NextObserver` of the kind lane alike): a hit stands for its file, and these are the
 * file's further matches its evidence lists.
 */
function definitionLinesByPath(lanes: readonly HitLane[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const lane of lanes)
    for (const { payload } of lane.entries) {
      if (payload.kind === undefined) continue;
      let lines = out.get(payload.path);
      if (!lines) out.set(payload.path, (lines = new Set()));
      lines.add(payload.startLine);
      for (const l of payload.alsoLines ?? []) lines.add(l);
    }
  return out;
}
