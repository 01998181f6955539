import {
  compileRegex,
  coverageState,
  DOCS_TAG,
  fileUri,
  IndexReader,
  linesThatMayHold,
  literalIndexIn,
  tokenIndexIn,
  definitionKinds,
  parseQuery,
  spelledWord,
  percentDecode,
  percentEncode,
  reconcile,
  searchIndex,
  TOO_LARGE_SCAN_MAX_BYTES,
  type FilterDiagnosis,
  type IndexCoverage,
  type ParsedQuery,
  type RegexMatcher,
  type SearchHit,
  type SearchOutcome,
} from '@trufflepig/index';
import {
  counted,
  lineStarts,
  lineMatchRows,
  pickEvidence,
  printedPath,
  splitRows,
  DEFAULT_LIMIT,
  EVIDENCE_MATCHES_MAX,
  type Evidence,
  type EvidenceMatch,
  type LineOwner,
  type PageHit,
} from '@trufflepig/render';
import { lineOwnersOf } from './line-owners';
import { isStopword, wordFormTerms } from '@trufflepig/rank';
import {
  formatHandle,
  ResultStore,
  type CommitEntry,
  type LiveSourceEntry,
  type ResultEntry,
  type SetLineMatch,
  type SetPageShape,
  type StoredSet,
} from '@trufflepig/result-cache';
import { commitEntryFields } from './commit-entries';
import { ENCODED_ROOTS_REMEMBERED, REGEX_EVIDENCE_STARTS_MAX } from './limits';
import { fail, ok, type Outcome } from './errors';
import { setTruncation, truncationWords, type SetTruncation } from './truncation';
import { readEachOnce, readIndexedBytes, type IndexedBytesReader } from './live';
import { staleFilesOf, staleFilesWords } from './stale';
import type { ResolvedRoot } from './root';
import { openPublished, releaseReader } from './reader-pool';
import { CLIENT_HOST, type Host } from './host';
import { narrowable, narrowHits } from './spans';
import {
  tooLargeUnsearchedFields,
  tooLargeUnsearchedWords,
  unparsedFields,
  unparsedWords,
} from '@trufflepig/navigation';

/**
 * How evidence lines of a stored set are matched line by line (`re:` and `"literal"`
 * searches); kept in the set's meta (`lines`) so `more` shows the same evidence.
 */
export function lineMatchOf(q: ParsedQuery): SetLineMatch | undefined {
  if (q.mode === 're' || q.mode === 'literal') return { mode: q.mode, text: q.text };
  // A compound identifier is searched for its uses, as grep would be: every line of a file
  // that spells it is evidence (Django: `search DATA_UPLOAD_MAX_MEMORY_SIZE` showed one line
  // of multipartparser.py and never the `raise` three lines below, an agent trial).
  return q.mode === 'free' && q.identifier && isCompoundIdentifier(q.text)
    ? { mode: 'identifier', text: q.text }
    : undefined;
}

/** An identifier of several words (`snake_case`, `camelCase`, `SCREAMING_CASE`, `utf8`), not a word like `session`. */
function isCompoundIdentifier(text: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(text) && /[A-Za-z0-9]_[A-Za-z0-9]|[a-z][A-Z]|[A-Za-z]\d/.test(text);
}

export interface SearchData {
  readonly query: string;
  readonly setId: string;
  readonly offset: number;
  readonly entries: readonly ResultEntry[];
  readonly truncated: boolean;
  readonly coverage: Readonly<Record<string, unknown>>;
  readonly coverageLine: string;
  readonly words: readonly string[];
  /** Workspace pages: member name → percent-encoded root. */
  readonly members?: Readonly<Record<string, string>>;
  /** `re:` and literal searches: evidence lines are every matching line of the file. */
  readonly lineMatch?: SetLineMatch;
  /**
   * `re:` and literal searches: which definition holds a line of an entry's file (read while
   * the index was open, for the page's entries), labelling further matches outside a span.
   */
  readonly lineOwners?: (e: ResultEntry) => LineOwner | undefined;
  /** How the page's evidence reads its files: the search's own reads, when it made them (readEachOnce). */
  readonly readBytes?: IndexedBytesReader;
}

/**
 * Whether an index open failure is cured by indexing: none published yet, or one written
 * by another version of the schema (indexing rebuilds it; the old publication stays
 * readable by its own version until the new one replaces it).
 */
export function needsIndexing(code: string): boolean {
  return code === 'index_warming' || code === 'index_corrupt';
}

/**
 * Open a root's published index, indexing it in the foreground first when it has none
 * (and the host may index: not inside a daemon). A worktree is seeded from its member.
 */
export async function openReader(
  host: Host,
  root: string,
  cacheDir: string,
  seedFrom?: string,
): Promise<Outcome<IndexReader>> {
  let reader = await openPublished(host, cacheDir, root);
  if (!reader.ok && needsIndexing(reader.error.code) && host.indexesInForeground) {
    const rec = await reconcile(root, { cacheDir, ...(seedFrom ? { seedFrom } : {}) });
    if (!rec.ok) return fail(rec.error.code, rec.error.message);
    reader = await openPublished(host, cacheDir, root);
  }
  return reader.ok ? ok(reader.value) : fail(reader.error.code, reader.error.message);
}

/** Open the published index, indexing in the foreground first when none exists yet and `indexIfMissing`. */
export function openIndex(host: Host, r: ResolvedRoot, indexIfMissing: boolean): Promise<Outcome<IndexReader>> {
  return indexIfMissing ? openReader(host, r.root, r.cacheDir) : openPublished(host, r.cacheDir, r.root);
}

/** Where a hit's entry belongs: the root searched, the member it answers for, the cache whose publication answered. */
export interface EntryOrigin {
  readonly root: string;
  readonly cacheDir: string;
  readonly member?: string;
}

/**
 * A root percent-encoded, remembered by the root itself: a search makes thousands of entries
 * of a few roots, whatever object each caller builds its origin in.
 */
const encodedRoots = new Map<string, string>();
function encodedRoot(root: string): string {
  let encoded = encodedRoots.get(root);
  if (encoded === undefined) {
    if (encodedRoots.size >= ENCODED_ROOTS_REMEMBERED) encodedRoots.clear();
    encodedRoots.set(root, (encoded = percentEncode(root)));
  }
  return encoded;
}

/**
 * What an entry keeps of a hit's narrowed span: its bytes and lines, and what its hit line
 * names (the definition it is, or the one a window is in). A search's entries and the ones
 * settled later (settle.ts) take them from here alike.
 */
export function spanFields(
  h: SearchHit,
): Pick<LiveSourceEntry, 'start' | 'end' | 'start_line' | 'end_line' | 'name' | 'within'> {
  return {
    start: h.start,
    end: h.end,
    start_line: h.startLine,
    end_line: h.endLine,
    ...(h.name !== undefined ? { name: h.name } : {}),
    ...(h.within !== undefined ? { within: h.within } : {}),
  };
}

/** The one SearchHit → ResultEntry of a live source hit (single roots and members alike). */
export function liveSourceEntry(at: EntryOrigin, generation: number, h: SearchHit): LiveSourceEntry {
  return {
    tag: 'live_source',
    root: encodedRoot(at.root),
    ...(at.member !== undefined ? { member: at.member } : {}),
    path: h.path,
    revision: h.revision ?? '',
    generation,
    ...spanFields(h),
    ...(h.kind !== undefined ? { kind: h.kind } : {}),
    ...(h.alsoLines?.length ? { also_lines: [...h.alsoLines] } : {}),
    ...(h.excluded !== undefined ? { excluded: h.excluded } : {}),
    sources: [...h.tags],
    lang: h.lang,
    cache: at.cacheDir,
  };
}

/** The search hit a live source entry stands for: liveSourceEntry read back (the lane is not kept). */
export function searchHitOf(e: LiveSourceEntry): SearchHit {
  return {
    path: e.path,
    start: e.start,
    end: e.end,
    startLine: e.start_line,
    endLine: e.end_line,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.kind !== undefined ? { kind: e.kind } : {}),
    ...(e.within !== undefined ? { within: e.within } : {}),
    ...(e.also_lines?.length ? { alsoLines: e.also_lines } : {}),
    ...(e.excluded !== undefined ? { excluded: e.excluded } : {}),
    lane: '',
    revision: e.revision,
    tags: e.sources ?? [],
    lang: e.lang ?? '',
  };
}

/** The entry of any search hit: a commit document's (source:git-log), else a live source span's. */
export function hitEntry(at: EntryOrigin, generation: number, h: SearchHit): LiveSourceEntry | CommitEntry {
  if (!h.commit) return liveSourceEntry(at, generation, h);
  return {
    ...commitEntryFields(h),
    root: encodedRoot(at.root),
    ...(at.member !== undefined ? { member: at.member } : {}),
    generation,
    cache: at.cacheDir,
  };
}

export function coverageOf(
  cov: IndexCoverage,
  truncation: SetTruncation | undefined,
  total: number,
  outcome: Pick<SearchOutcome, 'filterDiagnosis' | 'regexScan' | 'unparsedMentions' | 'tooLargeUnsearched'> & {
    /** Files of the page whose bytes are no longer the indexed ones (staleFilesOf). */
    readonly staleFiles?: number;
  } = {},
): { json: Record<string, unknown>; line: string } {
  const { filterDiagnosis: diagnosis, regexScan } = outcome;
  // Stored paths, printed as every path of a page is.
  const unparsed = (outcome.unparsedMentions?.paths ?? []).map((p) => printedPath(p));
  const tooLarge = (outcome.tooLargeUnsearched ?? []).map((p) => printedPath(p));
  const unsearched = Object.entries(cov.unsearched);
  const unsearchedCount = unsearched.reduce((n, [, v]) => n + v, 0);
  const summary = coverageState(cov);
  const failed = cov.reconcile_failed;
  const state = failed
    ? `stale (the last reconcile failed at ${failed.at}: ${failed.code}; edits since generation ${cov.generation} are not searched)`
    : summary === 'partial'
      ? `partial (${unsearchedCount} unsearched: ${unsearched.map(([k]) => k).join(', ')})`
      : 'complete';
  const excluded = Object.entries(cov.excluded)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  // The hit count only when there are none: the page's hit lines or its `next: (N of M
  // files)` say it otherwise (docs/cli.md, "Output").
  const parts = [state, counted(cov.indexed_files, 'file'), `generation ${cov.generation}`];
  if (total === 0) parts.push('0 hits');
  if (excluded) parts.push(`excluded ${excluded}`);
  if (cov.parse_failures) parts.push(counted(cov.parse_failures, 'parse failure'));
  if (truncation) parts.push(truncationWords(truncation));
  // A re: that no trigram narrowed read every file: said, since it is the slow case to avoid.
  if (regexScan && !regexScan.narrowed && !truncation)
    parts.push(`re: no three fixed characters to narrow by, read all ${regexScan.eligibleFiles} files`);
  if (diagnosis) parts.push(`filters: ${diagnosisLine(diagnosis)}`);
  if (unparsed.length) parts.push(unparsedWords(unparsed, outcome.unparsedMentions!.name, 'definitions'));
  if (tooLarge.length) parts.push(tooLargeUnsearchedWords(tooLarge));
  if (outcome.staleFiles) parts.push(staleFilesWords(outcome.staleFiles));
  const json: Record<string, unknown> = {
    state: summary,
    ...cov,
    hits: total,
    ...(outcome.staleFiles ? { stale_files: outcome.staleFiles } : {}),
    ...(unparsed.length ? unparsedFields(unparsed) : {}),
    ...(tooLarge.length ? tooLargeUnsearchedFields(tooLarge) : {}),
  };
  if (regexScan) json.regex = regexScan;
  if (truncation) {
    json.truncated = true;
    json.truncation = truncation;
  }
  if (diagnosis) json.filter_diagnosis = diagnosis;
  return { json, line: parts.join('; ') };
}

/**
 * Why a filtered search found nothing, in words (`file:lib/x.js matched 0 (nearest: ...)`);
 * `pathPrefix` names the member its nearest paths are in, as workspace pages print paths.
 */
export function diagnosisLine(d: FilterDiagnosis, pathPrefix = ''): string {
  const out: string[] = [];
  for (const f of d.file ?? [])
    out.push(
      `file:${f.value} matched ${f.matched}${f.nearest?.length ? ` (nearest: ${f.nearest.map((p) => pathPrefix + p).join(', ')})` : ''}`,
    );
  for (const l of d.lang ?? []) out.push(`lang:${l.value} matched ${l.matched} files`);
  // `kind:fn` on Java (methods only) printed `filters: ` and nothing after it (an agent trial).
  for (const k of d.kind ?? [])
    out.push(`kind:${k.value} matched ${k.matched} ${k.value === 'file' ? 'files' : 'definitions'}`);
  if (d.kind_instead) out.push(`kind:${d.kind_instead.value} finds ${counted(d.kind_instead.hits, 'hit')}`);
  for (const s of d.source ?? []) out.push(`${s.value} matched ${s.matched} files`);
  if (d.excluded_every_match) out.push(`-file:${d.excluded_every_match.join(',')} excluded every match`);
  if (d.combination_only) out.push('each filter matches alone; only the combination is empty');
  else if (d.matches_without_filters !== undefined)
    out.push(
      d.matches_without_filters ? 'the words match without the filters' : 'the words match nothing, filters or not',
    );
  return out.join(', ');
}

/**
 * The words after a verb, parsed once where they enter (docs/spec/retrieval.md §1): every
 * later step of that verb takes the parsed value, never the words.
 */
export function parseWords(words: string | readonly string[]): Outcome<ParsedQuery> {
  const parsed = parseQuery(words);
  return parsed.ok ? parsed : fail(parsed.error.code, parsed.error.message);
}

/** Run a search, persist its whole ranked list as a result set, and return the first page's data. */
export async function runSearch(
  r: ResolvedRoot,
  q: ParsedQuery,
  opts: {
    indexIfMissing: boolean;
    store: ResultStore;
    host?: Host;
    /**
     * Hits whose spans are narrowed now, the first page's (default: the page limit);
     * the rest are stored provisional and settled when first read (core/settle.ts).
     */
    narrowNow?: number;
    /** The request's explicit page shape, kept with the set for `more`. */
    page?: SetPageShape;
  },
): Promise<Outcome<SearchData>> {
  if (q.members.length > 0 || q.workspace !== null) {
    const selector = q.members.length > 0 ? `in:${q.members[0]}` : `ws:${q.workspace}`;
    return fail(
      'no_workspace',
      `${selector} selects workspace members, and no workspace is selected here; pass --workspace FILE or run inside a member`,
    );
  }
  const reader = await openIndex(opts.host ?? CLIENT_HOST, r, opts.indexIfMissing);
  if (!reader.ok) return reader;
  try {
    const outcome = searchIndex(reader.value, q);
    const terms = snippetTerms(q);
    const memo = new Map<SearchHit, SearchHit>();
    const pageCount = opts.narrowNow ?? DEFAULT_LIMIT;
    // The page's files are read for their spans, their lines' definitions and their evidence: once.
    const read = readEachOnce();
    const narrowed = narrowHits(reader.value, q, terms, outcome.hits, memo, pageCount, read);
    const entries = narrowed.map((h, i): LiveSourceEntry => {
      const entry = liveSourceEntry(r, reader.value.generation, h);
      const original = outcome.hits[i];
      return narrowable(original, q) && !memo.has(original) ? { ...entry, unsettled: true } : entry;
    });
    const lineMatch = lineMatchOf(q);
    const saved = opts.store.save(
      {
        query: q.input,
        truncated: outcome.truncated,
        words: terms,
        ...(lineMatch ? { lines: lineMatch } : {}),
        ...(opts.page ? { page: opts.page } : {}),
      },
      entries,
    );
    if (!saved.ok) return fail(saved.error.code, saved.error.message);
    const owners = new Map<string, LineOwner>();
    if (lineMatch)
      for (const e of entries.slice(0, pageCount)) owners.set(e.path, lineOwnersOf(reader.value, e.path, read));
    const cov = coverageOf(reader.value.coverage(), setTruncation(outcome, saved.value.truncated), entries.length, {
      ...outcome,
      staleFiles: staleFilesOf(r.root, entries.slice(0, pageCount), read),
    });
    return ok({
      query: q.input,
      setId: saved.value.id,
      offset: 0,
      entries: entries.slice(0, saved.value.stored),
      truncated: saved.value.truncated,
      coverage: cov.json,
      coverageLine: cov.line,
      words: terms,
      ...(lineMatch ? { lineMatch, lineOwners: (e: ResultEntry) => owners.get(e.path) } : {}),
      readBytes: read,
    });
  } finally {
    releaseReader(reader.value);
  }
}

export function snippetTerms(q: ParsedQuery): string[] {
  if (q.mode === 're') return [];
  if (q.mode === 'literal') return [q.text.toLowerCase()];
  // The definition's own name: `QuerySet::filter`'s, or `QuerySet.filter`'s (index dottedAsOwned).
  if (q.mode === 'sym') return [q.text.split(/::|\./).pop()!.toLowerCase()];
  // A stopword never picks a hit's line (`a` in `(a ^ b)` over `contains_zero_byte`), unless
  // the query has nothing else.
  const words = q.words.filter((w) => !isStopword(w));
  // Free text also matched each word's stem as a prefix (word-forms.ts): `stripped` met
  // `stripJSONNullProperties`. Without the stems here a hit found by one has no line to
  // show and its span misses the match (the HCL trial's empty hits). A definition query's
  // hits are definitions whose names hold its words: the stems would pick a line of the body
  // over the one naming it (`kind:class Connection` showed `@util.deprecated_20(
  // ":meth:`.Connection.connect`")`, the stem `connect` meeting twice, an agent trial).
  const stems =
    q.identifier || definitionKinds(q).length > 0
      ? []
      : words.flatMap((w) =>
          wordFormTerms(w)
            .filter((t) => t.prefix)
            .map((t) => t.text),
        );
  return [...new Set([q.text.toLowerCase(), ...(words.length > 0 ? words : q.words), ...stems])].filter(
    (w) => w && !w.includes(' '),
  );
}

/** spelledWord of a stored set's query text (SearchData.query). */
function spelledWordOf(query: string): string | undefined {
  const parsed = parseQuery(query);
  return parsed.ok ? spelledWord(parsed.value) : undefined;
}

/** The page data of a stored set from `offset` (for `more`). */
export function pageOfSet(set: StoredSet, offset: number): SearchData {
  const words = set.meta.words ?? [];
  const members = set.meta.members;
  const lineMatch = set.meta.lines;
  return {
    ...(members ? { members } : {}),
    ...(lineMatch ? { lineMatch } : {}),
    query: set.meta.query,
    setId: set.id,
    offset,
    entries: set.entries,
    truncated: set.meta.truncated,
    coverage: { state: 'complete', hits: set.entries.length, ...(set.meta.truncated ? { truncated: true } : {}) },
    coverageLine: `page of ${set.entries.length} hits from offset ${offset}${set.meta.truncated ? '; truncated' : ''}`,
    words,
  };
}

/** Page hits for render: handles, URIs and evidence lines read from bytes that still match the revision; `context` is `-C`. */
export function pageHits(data: SearchData, limit = DEFAULT_LIMIT, context = 0): PageHit[] {
  const spelled = spelledWordOf(data.query);
  const match = evidenceMatcher(data, spelled);
  const byWords = (): EvidenceMatch => ({ kind: 'terms', terms: data.words, spelled });
  // Up to 5 matching lines a file however few files matched (docs/spec/retrieval.md §4).
  const cap = EVIDENCE_MATCHES_MAX;
  const out: PageHit[] = [];
  const slice = data.entries.slice(data.offset);
  const roots = new Map<string, Buffer>();
  slice.forEach((e, i) => {
    let rootRaw = roots.get(e.root);
    if (!rootRaw) roots.set(e.root, (rootRaw = Buffer.from(decodeRoot(e.root))));
    const hit: PageHit = {
      ...(e.member !== undefined ? { member: e.member } : {}),
      ...(e.tag === 'live_source' && e.differs === true ? { differs: true } : {}),
      ...navDetail(e),
      handle: formatHandle(data.setId, data.offset + i + 1),
      path: e.path,
      uri: fileUri(rootRaw, e.path),
      start_line: e.start_line,
      end_line: e.end_line,
      start: e.start,
      end: e.end,
      ...(e.name !== undefined ? { name: e.name } : {}),
      ...(e.kind !== undefined ? { kind: e.kind } : {}),
      // A refs row's `within` is its row text's (navigation renders it); a search hit's names its window.
      ...(e.tag === 'live_source' && e.within !== undefined && e.role === undefined ? { within: e.within } : {}),
      ...(e.tag === 'live_source' && e.excluded !== undefined ? { excluded: e.excluded } : {}),
      sources: e.sources ?? [],
    };
    // Evidence reads and verifies its file: only when the renderer shows the hit.
    // A definition hit has evidence even without words (`kind:enum`): the line naming it, and its file's further matches.
    const entryMatch =
      match ??
      (e.tag === 'live_source' && e.kind !== undefined ? () => ({ kind: 'terms' as const, terms: [] }) : undefined);
    // A file excluded from the index (a binary, a file too large) has no line to show.
    if (i < limit && entryMatch !== undefined && !(e.tag === 'live_source' && e.excluded !== undefined)) {
      const root = rootRaw.toString();
      let memo: { value: Evidence | undefined } | undefined;
      const owners = sameOwnerUnnamed(data.lineOwners?.(e), e);
      // A file that holds the identifier only inside longer ones (`refill_tokens` meeting
      // `refillTokens`) shows the lines its words pick, as a free-text hit does.
      const read = () =>
        evidenceFor(root, e, entryMatch, context, cap, owners, data.readBytes) ??
        (data.lineMatch?.mode === 'identifier'
          ? evidenceFor(root, e, byWords, context, cap, undefined, data.readBytes)
          : undefined);
      const evidence = () => (memo ??= { value: read() }).value;
      Object.defineProperty(hit, 'evidence', { enumerable: true, get: evidence });
      Object.defineProperty(hit, 'snippet', { enumerable: true, get: () => evidence()?.best });
    }
    out.push(hit);
  });
  return out;
}

/**
 * A further match's label, left out where it names the definition the hit itself names
 * (`in MultiPartParser::_parse` on three lines of a window the hit line already says is in
 * it: an agent trial on Django).
 */
function sameOwnerUnnamed(ownerOf: LineOwner | undefined, e: ResultEntry): LineOwner | undefined {
  if (ownerOf === undefined || e.tag !== 'live_source') return ownerOf;
  const own = e.within ?? e.name;
  return own === undefined
    ? ownerOf
    : (line) => {
        const owner = ownerOf(line);
        return owner === own ? undefined : owner;
      };
}

/** Entry fields a navigation verb stored for its rows (refs, map). */
const NAV_DETAIL_KEYS = ['role', 'resolution', 'definition', 'names'] as const;

function navDetail(e: ResultEntry): Pick<PageHit, 'detail' | 'repeats'> {
  // Only file spans carry row fields; a commit document has none.
  if (e.tag !== 'live_source') return {};
  const detail: Record<string, string | readonly string[]> = {};
  for (const key of NAV_DETAIL_KEYS) {
    const value = e[key];
    if (value !== undefined) detail[key] = value;
  }
  return {
    ...(Object.keys(detail).length ? { detail } : {}),
    ...(e.repeats !== undefined && e.repeats > 1 ? { repeats: e.repeats } : {}),
  };
}

function decodeRoot(encoded: string): string {
  return percentDecode(encoded).toString('utf8');
}

/**
 * Where `re:` matches start over the whole text: per line (1-based) the UTF-16 column of its
 * first, and the last line of one that runs past it (`matchEnds`), for every line up to
 * `through` (the last line read: the whole file, unless REGEX_EVIDENCE_STARTS_MAX lines
 * matched first).
 */
function regexMatchStarts(
  matcher: RegexMatcher,
  bytes: Buffer,
): { readonly starts: Map<number, number>; readonly matchEnds: Map<number, number>; readonly through: number } {
  const text = bytes.toString('utf8');
  const starts = new Map<number, number>();
  // Per starting line, the last line of a match that runs past it.
  const matchEnds = new Map<number, number>();
  let line = 1;
  let lineStart = 0;
  let from = 0;
  for (;;) {
    if (starts.size >= REGEX_EVIDENCE_STARTS_MAX) return { starts, matchEnds, through: line };
    const m = matcher.firstMatch(text, from);
    if (!m.found) return { starts, matchEnds, through: Number.POSITIVE_INFINITY };
    for (let nl = text.indexOf('\n', lineStart); nl >= 0 && nl < m.at; nl = text.indexOf('\n', lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    starts.set(line, m.at - lineStart);
    const next = text.indexOf('\n', m.at);
    if (next < 0) return { starts, matchEnds, through: Number.POSITIVE_INFINITY };
    if (m.end > next + 1) {
      let last = line;
      for (let nl = next; nl >= 0 && nl < m.end - 1; nl = text.indexOf('\n', nl + 1)) last++;
      matchEnds.set(line, last);
    }
    from = next + 1;
  }
}

/** The lines of a file that may hold `needle` (index linesThatMayHold), when they can be known. */
function candidatesHolding(
  needle: string,
  bytes: Buffer | undefined,
  starts: readonly number[] | undefined,
): { candidateLines?: readonly number[] } {
  const lines = bytes && starts ? linesThatMayHold(bytes, starts, needle) : undefined;
  return lines ? { candidateLines: lines } : {};
}

/**
 * How a page's hits find their evidence lines (`bytes`: the hit's file, `starts`: its
 * lineStarts), or undefined when they have none to find.
 */
function evidenceMatcher(
  data: SearchData,
  spelled: string | undefined,
): ((line: number, bytes?: Buffer, starts?: readonly number[]) => EvidenceMatch) | undefined {
  const lm = data.lineMatch;
  if (lm?.mode === 're') {
    const compiled = compileRegex(lm.text);
    if (!compiled.ok) return undefined;
    const matcher = compiled.matcher;
    return (line, bytes) => {
      // Where matches start in the whole text: a match of `\s` or `[^;]` may run on past its
      // first line, as the scan that found the file matched it (an agent trial on Eigen got
      // hits on two-line heads with no line under them).
      const found = bytes ? regexMatchStarts(matcher, bytes) : undefined;
      return {
        kind: 'lines',
        anchorLine: line,
        // Known only when the whole text was read: past `through` a row is matched alone.
        ...(found?.through === Number.POSITIVE_INFINITY ? { candidateLines: [...found.starts.keys()] } : {}),
        matchThrough: (row) => found?.matchEnds.get(row),
        matchAt: (text, row) => {
          const at = found?.starts.get(row);
          if (at !== undefined) return Math.min(at, text.length);
          // Past the lines read (or without the file), the row alone.
          if (found && row <= found.through) return -1;
          const m = matcher.firstMatch(text, 0);
          return m.found ? m.at : -1;
        },
      };
    };
  }
  if (lm?.mode === 'identifier') {
    const token = lm.text;
    return (line, bytes, starts) => ({
      kind: 'lines',
      anchorLine: line,
      ...candidatesHolding(token, bytes, starts),
      matchAt: (text) => tokenIndexIn(text, token, false),
      exact: (text) => tokenIndexIn(text, token, true) >= 0,
    });
  }
  if (lm?.mode === 'literal') {
    const spelled = lm.text;
    return (line, bytes, starts) => ({
      kind: 'lines',
      anchorLine: line,
      ...candidatesHolding(spelled, bytes, starts),
      matchAt: (text) => literalIndexIn(text, spelled),
      exact: (text) => text.includes(spelled),
    });
  }
  if (data.words.length === 0) return undefined;
  return () => ({ kind: 'terms', terms: data.words, spelled });
}

function evidenceFor(
  root: string,
  e: ResultEntry,
  match: (line: number, bytes?: Buffer, starts?: readonly number[]) => EvidenceMatch,
  context: number,
  cap: number,
  ownerOf?: LineOwner,
  read: IndexedBytesReader = readIndexedBytes,
): Evidence | undefined {
  // A `re:` or `"literal"` hit may lie in a file too large to index (read live, its
  // revision recorded in the entry): its evidence lines are read the same way.
  const bytes = read(root, e, TOO_LARGE_SCAN_MAX_BYTES);
  if (!bytes) return undefined;
  const starts = lineStarts(bytes);
  const given = match(e.start_line, bytes, starts);
  // A definition hit lists its file's further matching definitions; without query words,
  // its best line is the line that names it.
  const definitionHit =
    given.kind === 'terms' &&
    e.tag === 'live_source' &&
    e.kind !== undefined &&
    ((e.also_lines?.length ?? 0) > 0 || given.terms.length === 0);
  const also = definitionHit ? (e.also_lines ?? []) : undefined;
  const withAlso: EvidenceMatch = also !== undefined && given.kind === 'terms' ? { ...given, also } : given;
  const m: EvidenceMatch = (e.sources ?? []).includes(DOCS_TAG) ? { ...withAlso, prose: true } : withAlso;
  // Line matching reads the lines that may match; a definition's further matches the whole
  // file; term matching the span and its context.
  const whole = also !== undefined && also.length > 0;
  const firstLine = whole ? 1 : Math.max(1, e.start_line - context);
  const lastLine = whole ? starts.length : Math.min(starts.length, e.end_line + context);
  const from = starts[firstLine - 1] ?? 0;
  const to = lastLine < starts.length ? starts[lastLine] : bytes.length;
  return pickEvidence(
    m.kind === 'lines'
      ? lineMatchRows(bytes, starts, m, context)
      : splitRows(bytes, from, Math.max(from, to), firstLine),
    { startLine: e.start_line, endLine: e.end_line },
    m,
    context,
    cap,
    ownerOf,
  );
}
