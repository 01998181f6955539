import { isUtf8 } from 'node:buffer';
import { queryLanguageOf } from '../classify';
import { decodeText, lineAt, lineNumberAt, newlinesIn, unitAtByte } from '../extract/text';
import { FILE_MAX_BYTES, REGEX_MAX_BYTES_SCANNED, REGEX_MAX_HITS, TOO_LARGE_SCAN_MAX_BYTES } from '../limits';
import { percentDecode } from '@trufflepig/base';
import { readInsideRoot, type ReadRefusal } from '../read/inside-root';
import { revisionOf } from '../revision';
import type { SearchHit } from './hit';
import type { IndexedFile } from './reader';
import {
  REGEX_ANCHORED_DEADLINE_EVERY,
  REGEX_ANCHORED_TRIES_MAX,
  REGEX_DEADLINE_MS,
  REGEX_LINE_TRIES_MAX,
} from '../limits';
import { compileRegex, type RegexMatcher } from './regex-engine';
import { regexPrefilter, type RegexPrefilter } from '../trigram/regex';

export interface LiveFile {
  readonly bytes: Buffer;
  readonly revision: string;
}

/** A file's current bytes and their revision (SHA-256), or why the checked reader refused it. */
export type LiveRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly revision: string }
  | { readonly ok: false; readonly reason: ReadRefusal; readonly message: string };

/**
 * Read a root-relative encoded path once through the checked reader (no link followed,
 * regular files only, at most `maxBytes`) and hash exactly the bytes read: what a lane
 * scans, a snippet shows and `show` verifies are the same bytes. The default bound is the
 * index's: an indexed file was at most that size.
 */
export function readLiveFile(root: string, encodedPath: string, maxBytes: number = FILE_MAX_BYTES): LiveRead {
  const read = readInsideRoot(root, percentDecode(encodedPath), maxBytes);
  if (!read.ok) return read;
  return { ok: true, bytes: read.bytes, revision: revisionOf(read.bytes) };
}

/** Where a file is and which bytes the index read from it (a file row, a result entry); null: none. */
export interface IndexedRevision {
  readonly path: string;
  readonly revision: string | null;
}

/**
 * A file's bytes as the index read them: its current bytes while their revision is still
 * the indexed one, else undefined (edited, moved, unreadable). Definitions, uses and their
 * offsets are facts about those bytes only, so whoever maps facts onto text reads through
 * this and never lays old offsets over new text.
 */
export function readIndexedBytes(
  root: string,
  f: IndexedRevision,
  maxBytes: number = FILE_MAX_BYTES,
): Buffer | undefined {
  const live = readLiveFile(root, f.path, maxBytes);
  return live.ok && live.revision === f.revision ? live.bytes : undefined;
}

/**
 * How many bytes a live read of `f` may take: the index's bound, or for a file excluded as
 * too large to index, the bound of the `re:` and `"literal"` scans that read it live.
 */
export function liveReadBound(f: { readonly excluded: string | null }): number {
  return f.excluded === 'too_large' ? TOO_LARGE_SCAN_MAX_BYTES : FILE_MAX_BYTES;
}

/**
 * An indexed file's current bytes (the truth for `re:` and literal verification);
 * undefined for anything that is no longer a regular file of this root within its size
 * bound (liveReadBound), or is a swapped symlink, a FIFO, a device.
 */
export function readLive(root: string, f: IndexedFile): LiveFile | undefined {
  const read = readLiveFile(root, f.path, liveReadBound(f));
  return read.ok ? read : undefined;
}

/**
 * readLive's bytes without their revision, for a scan that needs the revision only of a
 * file it finds something in (hashedLive then): most candidates of a literal hold nothing.
 */
export function readLiveUnhashed(root: string, f: IndexedFile): Buffer | undefined {
  const read = readInsideRoot(root, percentDecode(f.path), liveReadBound(f));
  return read.ok ? read.bytes : undefined;
}

/** Bytes read by readLiveUnhashed, with their revision: what readLive gives. */
export function hashedLive(bytes: Buffer): LiveFile {
  return { bytes, revision: revisionOf(bytes) };
}

/**
 * A hit on `live`'s bytes; `starts` are its line starts when the caller has them already.
 * Without them the lines are counted up to the hit: a literal search verifying 10,000 files
 * built every file's whole array for one line each.
 */
export function liveHit(
  f: IndexedFile,
  live: LiveFile,
  start: number,
  end: number,
  lane: string,
  starts?: readonly number[],
): SearchHit {
  const last = Math.max(start, end - 1);
  const startLine = starts ? lineAt(starts, start) : lineNumberAt(live.bytes, start);
  return {
    path: f.path,
    start,
    end,
    startLine,
    endLine: starts ? lineAt(starts, last) : startLine + newlinesIn(live.bytes, start, last),
    lane,
    revision: live.revision,
    tags: f.tags,
    lang: queryLanguageOf(f.lang),
  };
}

/** Bytes a pattern's required literal needs before a scan looks for it first. */
const LITERAL_MIN_BYTES = 3;

/** A prefilter's strings as the bytes a scan looks for (shorter ones are not worth a search). */
interface ScanLiterals {
  /** Strings every match holds. */
  readonly held: readonly Buffer[];
  /** The string every match starts with. */
  readonly leading: Buffer | undefined;
  readonly crossesLines: boolean;
}

function scanLiterals(pre: RegexPrefilter): ScanLiterals {
  const held = pre.literals.map((l) => Buffer.from(l, 'utf8')).filter((b) => b.length >= LITERAL_MIN_BYTES);
  const leading = Buffer.from(pre.leading, 'utf8');
  return { held, leading: leading.length >= LITERAL_MIN_BYTES ? leading : undefined, crossesLines: pre.crossesLines };
}

/**
 * The byte offset no match in `bytes` starts before, or undefined when the file cannot
 * match (it lacks a string every match holds): the first occurrence of the leading string,
 * and, for a pattern that cannot span lines, the start of the latest line where a held
 * string first occurs.
 */
function matchFloor(bytes: Buffer, s: ScanLiterals): number | undefined {
  let from = 0;
  for (const literal of s.held) {
    const first = bytes.indexOf(literal);
    if (first < 0) return undefined;
    if (!s.crossesLines) from = Math.max(from, bytes.lastIndexOf(0x0a, first) + 1);
  }
  if (!s.leading) return from;
  const lead = bytes.indexOf(s.leading);
  return lead < 0 ? undefined : Math.max(from, lead);
}

/**
 * Patterns a line alone decides, beyond not spanning lines (ScanLiterals.crossesLines): no
 * text anchor (`\A`, `\z`: a line's edges are not the text's). `^` and `$` always match at
 * line boundaries (regex-engine.ts refuses `(?-m)`).
 */
const NOT_LINE_LOCAL = /\\[Az]/;

/** How a line-local pattern's candidate lines are found: its longest required string, and the others a line must hold. */
interface LinePlan {
  readonly probe: Buffer;
  readonly rest: readonly Buffer[];
}

/** The plan when `re:` of `pattern` may try only the lines holding its required strings (firstMatchingLine). */
function linePlan(pattern: string, s: ScanLiterals): LinePlan | undefined {
  if (s.crossesLines || NOT_LINE_LOCAL.test(pattern)) return undefined;
  // The longest first: the fewest lines to try.
  const [probe, ...rest] = [...s.held, ...(s.leading ? [s.leading] : [])].sort((a, b) => b.length - a.length);
  return probe ? { probe, rest } : undefined;
}

/** What firstMatchingLine found: a match's line start, none, the deadline, or lines too dense to try one by one. */
type LineSearch = { readonly line: number } | 'none' | 'deadline' | { readonly dense: number };

/**
 * The start of the first line of `bytes` (valid UTF-8), from the one holding `from` on, that
 * holds a match of a line-local pattern (linePlan): only lines holding every required string
 * are decoded and matched, each alone, so a file whose candidate lines do not match costs a
 * few memchr scans, not a match over its whole text. After REGEX_LINE_TRIES_MAX candidate
 * lines without a match it answers `dense` with where a whole-text match should go on.
 */
function firstMatchingLine(
  bytes: Buffer,
  from: number,
  { probe, rest }: LinePlan,
  matcher: RegexMatcher,
  deadlineAt: number,
): LineSearch {
  let tries = 0;
  for (let at = bytes.indexOf(probe, from); at >= 0;) {
    const start = at === 0 ? 0 : bytes.lastIndexOf(0x0a, at - 1) + 1;
    const newline = bytes.indexOf(0x0a, at);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    if (rest.every((l) => line.indexOf(l) >= 0)) {
      if (++tries > REGEX_LINE_TRIES_MAX) return { dense: Math.max(start, from) };
      const m = matcher.firstMatch(line.toString('utf8'), 0, deadlineAt);
      if (m.found) return { line: start };
      if (m.stopped) return 'deadline';
    }
    at = newline < 0 ? -1 : bytes.indexOf(probe, newline + 1);
  }
  return 'none';
}

/**
 * The string a pattern that may span lines is tried at, position by position
 * (firstAnchoredMatch): its leading string, when every match starts with it and nothing in
 * the pattern looks before it (RegexPrefilter.startsAtLeading), and only whitespace carries
 * a match across lines (RegexPrefilter.crossesOnlyThroughSpace), so each attempt ends
 * within the lines it reaches.
 */
function anchorOf(pattern: string, pre: RegexPrefilter, s: ScanLiterals): Buffer | undefined {
  if (!s.leading || !pre.crossesLines || !pre.crossesOnlyThroughSpace || !pre.startsAtLeading) return undefined;
  return NOT_LINE_LOCAL.test(pattern) ? undefined : s.leading;
}

/** What firstAnchoredMatch found: a match's start, none, the deadline, or occurrences too dense to try one by one. */
type AnchoredSearch = { readonly at: number } | 'none' | 'deadline' | { readonly dense: number };

/**
 * The start of the first match in `text` (one UTF-16 unit per byte of `bytes`) at or after
 * `from`: every match starts with `lead`, so the pattern is tried only where `lead` occurs,
 * each time anchored there, and the first success is the leftmost match. After
 * REGEX_ANCHORED_TRIES_MAX failed attempts it answers `dense` with where a whole-text match
 * should go on.
 */
function firstAnchoredMatch(
  bytes: Buffer,
  text: string,
  from: number,
  lead: Buffer,
  matcher: RegexMatcher,
  deadlineAt: number,
): AnchoredSearch {
  let tries = 0;
  for (let at = bytes.indexOf(lead, from); at >= 0; at = bytes.indexOf(lead, at + 1)) {
    if (++tries > REGEX_ANCHORED_TRIES_MAX) return { dense: at };
    if (tries % REGEX_ANCHORED_DEADLINE_EVERY === 0 && Date.now() > deadlineAt) return 'deadline';
    if (matcher.matchesAt(text, at)) return { at };
  }
  return 'none';
}

/** Why a `re:` scan stopped before the last eligible file: its deadline, the byte or the hit cap. */
export type RegexStop = 'deadline' | 'bytes' | 'hits';

export interface RegexScan {
  hits: SearchHit[];
  truncated: boolean;
  stopped?: RegexStop;
  /** Files read and matched before the scan ended (all of them unless it stopped). */
  scannedFiles: number;
}

/** A pattern made ready to match files: what compileRegex and regexPrefilter say about it, computed once per scan. */
export interface PreparedRegex {
  readonly matcher: RegexMatcher;
  readonly literals: ScanLiterals;
  readonly plan: LinePlan | undefined;
  /** anchorOf: the string a pattern that may span lines is tried at. */
  readonly anchor: Buffer | undefined;
}

export function prepareRegex(pattern: string, prefilter: RegexPrefilter = regexPrefilter(pattern)): PreparedRegex {
  const compiled = compileRegex(pattern);
  if (!compiled.ok) throw new Error(`${compiled.code}: ${compiled.message}`); // parseQuery validated it
  const literals = scanLiterals(prefilter);
  const plan = linePlan(pattern, literals);
  return {
    matcher: compiled.matcher,
    literals,
    plan,
    anchor: plan ? undefined : anchorOf(pattern, prefilter, literals),
  };
}

/** Where a file's first match lies: its line's span and the revision of the bytes it was read from. */
export interface RegexFileMatch {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly revision: string;
}

/**
 * What one file gave a `re:` scan: `deadline` when it ran out of time inside the file (the
 * file counts as unread); otherwise the bytes it counts against REGEX_MAX_BYTES_SCANNED and
 * its first match, if any. A file that cannot be read, holds NUL bytes or lacks a required
 * string counts no bytes.
 */
export type RegexFileScan =
  { readonly kind: 'deadline' } | { readonly kind: 'read'; readonly bytes: number; readonly match?: RegexFileMatch };

const NOTHING_READ: RegexFileScan = { kind: 'read', bytes: 0 };

/**
 * The first match of a prepared pattern in the live bytes of the file at `encodedPath`. Pure
 * apart from the one checked read: the same bytes always give the same answer, whichever
 * thread asks (scan-pool.ts).
 */
export function scanRegexFile(
  root: string,
  encodedPath: string,
  re: PreparedRegex,
  deadlineAt: number,
  maxBytes: number = FILE_MAX_BYTES,
): RegexFileScan {
  if (Date.now() > deadlineAt) return { kind: 'deadline' };
  // Read as readLive does, but hashed only when it matches: most candidates of a narrow
  // pattern do not, and the revision is only needed for a hit.
  const read = readInsideRoot(root, percentDecode(encodedPath), maxBytes);
  if (!read.ok || read.bytes.includes(0)) return NOTHING_READ;
  const bytes = read.bytes;
  const from = matchFloor(bytes, re.literals);
  if (from === undefined) return NOTHING_READ;
  const scanned = { kind: 'read', bytes: bytes.length } as const;
  let at: number;
  const byLines =
    re.plan && isUtf8(bytes) ? firstMatchingLine(bytes, from, re.plan, re.matcher, deadlineAt) : undefined;
  if (byLines === 'deadline') return { kind: 'deadline' };
  if (byLines === 'none') return scanned;
  if (byLines !== undefined && 'line' in byLines) at = byLines.line;
  else {
    let resume = byLines?.dense ?? from;
    const decoded = decodeText(bytes);
    // One unit per byte (ASCII): a byte offset is the text's index.
    const anchored =
      re.anchor && decoded.text.length === bytes.length
        ? firstAnchoredMatch(bytes, decoded.text, from, re.anchor, re.matcher, deadlineAt)
        : undefined;
    if (anchored === 'deadline') return { kind: 'deadline' };
    if (anchored === 'none') return scanned;
    if (anchored !== undefined && 'at' in anchored) at = anchored.at;
    else {
      resume = anchored?.dense ?? resume;
      const m = re.matcher.firstMatch(decoded.text, unitAtByte(decoded, bytes, resume) ?? 0, deadlineAt);
      if (!m.found) return m.stopped ? { kind: 'deadline' } : scanned;
      at = decoded.byteAt(m.at);
    }
  }
  // The match's line: from the `\n` before it to the one after, a CR before that excluded.
  const lineStart = at > 0 ? bytes.lastIndexOf(0x0a, at - 1) + 1 : 0;
  const newline = bytes.indexOf(0x0a, at);
  let lineEnd = newline < 0 ? bytes.length : newline;
  if (lineEnd > lineStart && bytes[lineEnd - 1] === 0x0d) lineEnd--;
  const line = lineNumberAt(bytes, lineStart);
  const match: RegexFileMatch = {
    start: lineStart,
    end: lineEnd,
    startLine: line,
    endLine: line,
    revision: revisionOf(bytes),
  };
  return { ...scanned, match };
}

/**
 * The scan's answer from its files' results in path order, as one thread reading them one
 * by one would give it: `resultOf(i)` is the i-th file's result (computed on demand, or
 * taken from what a helper thread computed ahead). Caps are checked before each file, so
 * the answer never depends on which thread read what.
 */
export function assembleRegexScan(
  files: readonly IndexedFile[],
  resultOf: (index: number) => RegexFileScan,
): RegexScan {
  const hits: SearchHit[] = [];
  let scanned = 0;
  let scannedFiles = 0;
  for (let i = 0; i < files.length; i++) {
    if (scanned > REGEX_MAX_BYTES_SCANNED) return { hits, truncated: true, stopped: 'bytes', scannedFiles };
    if (hits.length >= REGEX_MAX_HITS) return { hits, truncated: true, stopped: 'hits', scannedFiles };
    const r = resultOf(i);
    if (r.kind === 'deadline') return { hits, truncated: true, stopped: 'deadline', scannedFiles };
    scannedFiles++;
    scanned += r.bytes;
    if (r.match) hits.push(regexHit(files[i], r.match));
  }
  return { hits, truncated: false, scannedFiles };
}

function regexHit(f: IndexedFile, m: RegexFileMatch): SearchHit {
  return {
    path: f.path,
    start: m.start,
    end: m.end,
    startLine: m.startLine,
    endLine: m.endLine,
    lane: 'regex',
    revision: m.revision,
    tags: f.tags,
    lang: queryLanguageOf(f.lang),
  };
}

/** Reads `re:` candidates ahead of the scan on another thread (scan-pool.ts); may decline. */
export interface RegexHelper {
  /**
   * Results for some of `files` (by index), read while this thread reads its share; the
   * scan reads whatever is missing itself.
   */
  scanAlongside(
    root: string,
    files: readonly IndexedFile[],
    pattern: string,
    re: PreparedRegex,
    deadlineAt: number,
  ): ReadonlyMap<number, RegexFileScan> | undefined;
}

/**
 * `re:` over the live bytes of eligible files, in path order; `^`/`$` match at line
 * boundaries (regex-engine.ts: linear-time RE2 matching). Each file is represented by its
 * first matching line. Past `deadlineAt` (a `Date.now()` timestamp, checked between files
 * and between windows of a long file) the scan stops and reports truncation. A `helper`
 * shares the reading with another thread; the answer is the same with or without it.
 */
export function regexScan(
  root: string,
  files: readonly IndexedFile[],
  pattern: string,
  deadlineAt: number = Date.now() + REGEX_DEADLINE_MS,
  prefilter: RegexPrefilter = regexPrefilter(pattern),
  helper?: RegexHelper,
): RegexScan {
  const re = prepareRegex(pattern, prefilter);
  const ahead = helper?.scanAlongside(root, files, pattern, re, deadlineAt);
  return assembleRegexScan(
    files,
    (i) => ahead?.get(i) ?? scanRegexFile(root, files[i].path, re, deadlineAt, liveReadBound(files[i])),
  );
}

/**
 * Smart case for a `"literal"` (docs/cli.md, "Query language"), as rg's `-S`: one that holds
 * an ASCII capital letter is matched as typed; an all-lower-case one ASCII
 * case-insensitively. `"MAX_CONTENT_LENGTH"` is the config key, never every
 * `max_content_length` parameter; `"max content length"` still finds `Max content length`.
 */
export function literalMatchesCase(text: string): boolean {
  return /[A-Z]/.test(text);
}

/** UTF-16 index of the first match of a `"literal"` in one line of text (literalMatchesCase), or -1. */
export function literalIndexIn(line: string, literal: string): number {
  if (!literal) return -1;
  return literalMatchesCase(literal) ? line.indexOf(literal) : asciiLower(line).indexOf(asciiLower(literal));
}

const IDENTIFIER_CHAR = /[\w$]/;

/**
 * UTF-16 index of `token` in `line` as a whole identifier (no identifier character either
 * side: `DATA_UPLOAD_MAX_MEMORY_SIZE` in `settings.DATA_UPLOAD_MAX_MEMORY_SIZE`, not in
 * `MAX_SIZE` for `SIZE`), ASCII case-insensitively unless `exactCase`; -1 when absent.
 */
export function tokenIndexIn(line: string, token: string, exactCase: boolean): number {
  if (!token) return -1;
  const hay = exactCase ? line : asciiLower(line);
  const needle = exactCase ? token : asciiLower(token);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = at > 0 ? hay[at - 1] : '';
    const after = hay[at + needle.length] ?? '';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return at;
  }
  return -1;
}

/** A needle whose lines linesThatMayHold can find from bytes: printable ASCII, no backslash. */
const BYTE_FINDABLE = /^[\x20-\x5b\x5d-\x7e]+$/;
/** Bytes that may make a line's display text differ from its bytes (escapes, non-ASCII). */
const DISPLAY_CHANGING = /[\x00-\x08\x0b-\x1f\x7f-\xff]/g;

/**
 * Every line (1-based, ascending) of `bytes` on which literalIndexIn or tokenIndexIn may
 * find `needle` in the line's display text: the lines that hold it ASCII
 * case-insensitively, and every line with a byte its display may escape or decode (a
 * control character, anything not ASCII); undefined when `needle` is not printable ASCII
 * (or holds a backslash, which display escapes spell). `starts`: the lines' first bytes.
 */
export function linesThatMayHold(bytes: Buffer, starts: readonly number[], needle: string): number[] | undefined {
  if (!BYTE_FINDABLE.test(needle)) return undefined;
  // findLiteral folds A-Z as asciiLower does.
  const wanted = Buffer.from(needle, 'latin1');
  const lines = new Set<number>();
  for (let at = findLiteral(bytes, wanted); at >= 0; at = findLiteral(bytes, wanted, at + 1))
    lines.add(lineAt(starts, at));
  // latin1: one character per byte, so the string's offsets are the bytes'.
  for (const m of bytes.toString('latin1').matchAll(DISPLAY_CHANGING)) lines.add(lineAt(starts, m.index!));
  return [...lines].sort((a, b) => a - b);
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Bytes of source text from the most to the least common (lower case standing for both
 * cases): findLiteral anchors on the needle's byte that comes last here, so that the native
 * indexOf meets few false candidates. A byte not listed counts as rarest.
 */
const COMMON_BYTES = ' etaisronlcd_ufpmh\n\t(),;.=*gbx>-"0k1y2v[]w{}/#&:\'<3';
const COMMONNESS = new Uint8Array(256);
for (let i = 0; i < COMMON_BYTES.length; i++) COMMONNESS[COMMON_BYTES.charCodeAt(i)] = COMMON_BYTES.length - i;

/**
 * Byte offset of `needle` in `hay` from `from` (the match ending by `to`), ASCII
 * case-insensitively; -1 when there is none. Candidates are the occurrences, in either case,
 * of the needle's rarest byte (COMMON_BYTES), found by the native indexOf: a byte loop took
 * ~100 ms over the kernel's 32 MiB of files too large to index, which every literal reads.
 * The next occurrence of each case is kept until passed, so neither is searched twice.
 */
export function findLiteral(hay: Buffer, needle: Buffer, from = 0, to = hay.length): number {
  const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 32 : b);
  if (needle.length === 0) return from <= to ? from : -1;
  let anchor = 0;
  for (let k = 1; k < needle.length; k++)
    if (COMMONNESS[lower(needle[k])] < COMMONNESS[lower(needle[anchor])]) anchor = k;
  const first = lower(needle[anchor]);
  const other = first >= 0x61 && first <= 0x7a ? first - 32 : first;
  let nextFirst = -2;
  let nextOther = other === first ? -1 : -2;
  // `i` is where the anchor byte of the next candidate may be.
  for (let i = from + anchor; i - anchor + needle.length <= to;) {
    if (nextFirst !== -1 && nextFirst < i) nextFirst = hay.indexOf(first, i);
    if (nextOther !== -1 && nextOther < i) nextOther = hay.indexOf(other, i);
    const hit = nextFirst === -1 ? nextOther : nextOther === -1 ? nextFirst : Math.min(nextFirst, nextOther);
    const at = hit - anchor;
    if (hit === -1 || at + needle.length > to) return -1;
    let k = 0;
    while (k < needle.length && lower(hay[at + k]) === lower(needle[k])) k++;
    if (k === needle.length) return at;
    i = hit + 1;
  }
  return -1;
}
