// Hit spans (docs/spec/retrieval.md §4): the index answers with its own units (a 4 KB storage region, a
// whole definition, one occurrence); a hit instead spans what an agent should read: the
// smallest enclosing definition of at most 80 lines holding its best match, else a
// window of at most 20 lines around it. A definition query (`sym:` declarations,
// `kind:`) spans the whole definition. The narrowed span is what the result set stores,
// so `show HANDLE` prints just it.
import {
  definitionKinds,
  DOCS_TAG,
  liveReadBound,
  ownedMemberOf,
  type DefinitionSpan,
  qualifiedName,
  readIndexedBytes,
  spelledWord,
  type IndexReader,
  type ParsedQuery,
  type SearchHit,
} from '@trufflepig/index';
import { percentDecode } from '@trufflepig/base/stored-path';
import { lastSegment } from '@trufflepig/navigation';
import { isStopword, splitIdentifier, stemPrefix } from '@trufflepig/rank';
import {
  chooseHitSpan,
  constructWindow,
  indentColumns,
  isCommentLine,
  isDecorationLine,
  lineStarts,
  pickSnippet,
  splitRows,
  SPAN_DEFINITION_MAX_LINES,
  SPAN_WINDOW_MAX_LINES,
} from '@trufflepig/render';
import { SPAN_NARROW_BYTES_MAX, SPAN_NARROW_HITS_MAX, SPAN_NARROW_SPAN_BYTES_MAX } from './limits';
import type { IndexedBytesReader } from './live';

/** A definition of a file, in byte and line coordinates of the indexed revision. */
type DefSpan = DefinitionSpan;

/**
 * Whether a hit keeps the span the index gave it: commits, whole files, definitions of a
 * `kind:` query. A `sym:` hit is a name occurrence even under `kind:`, so it is widened to
 * its definition by narrowHit.
 */
function keepsIndexSpan(h: SearchHit, q: ParsedQuery): boolean {
  if (h.commit || h.kind === 'file') return true;
  if (q.mode === 'sym') return false;
  const definitionQuery = definitionKinds(q).length > 0;
  return definitionQuery && h.kind !== undefined;
}

/**
 * Where a hit's best match is: its own first byte for line matches and occurrences, else
 * the best-scoring line of its span (at the hit's first byte when that is the line).
 */
function anchorOf(
  h: SearchHit,
  bytes: Buffer,
  starts: readonly number[],
  terms: readonly string[],
  q: ParsedQuery,
): { line: number; byte: number } {
  const own = { line: h.startLine, byte: h.start };
  // A `re:` hit spans its match's whole line: the anchor is the line's first non-blank byte,
  // inside a method that starts after the indentation (Django: `re:def as_sql\(` hits spanned
  // each class, not the method the line begins, an agent trial).
  if (q.mode === 're')
    return { line: h.startLine, byte: Math.max(h.start, firstTermByte(bytes, starts, h.startLine, [])) };
  if (q.mode === 'literal' || q.mode === 'sym' || h.startLine === h.endLine || terms.length === 0) return own;
  // A definition of the identifier the query spells is read from its head: urllib3's
  // `class Retry` spanned `Retry::from_int`, whose `isinstance(retries, Retry)` met the
  // stem `retri` too and outscored `class Retry(object):` (a workspace trial).
  if (namesSpelledIdentifier(h, q))
    return { line: h.startLine, byte: Math.max(h.start, firstTermByte(bytes, starts, h.startLine, terms)) };
  const from = starts[h.startLine - 1] ?? 0;
  const rows = splitRows(bytes, from, Math.min(bytes.length, Math.max(h.end, from)), h.startLine);
  const line =
    pickSnippet(rows, terms, { prose: h.tags.includes(DOCS_TAG), spelled: spelledWord(q) })?.line ?? h.startLine;
  // On the span's first line the term, not the span's first byte, is the anchor: a region
  // starting at a line's indentation would otherwise miss the `def` that begins after it.
  const byte = firstTermByte(bytes, starts, line, terms);
  return line === h.startLine ? { line, byte: Math.max(h.start, byte) } : { line, byte };
}

/**
 * Whether a definition hit's own name is the query's one word, in any case (`Retry`,
 * `retry`), or the owned member it spells (`APIRouter.get`, `HashMap#resize`, `A::b`).
 */
function namesSpelledIdentifier(h: SearchHit, q: ParsedQuery): boolean {
  if (h.kind === undefined || h.name === undefined || q.mode !== 'free') return false;
  if (/^[A-Za-z_$][\w$]*$/.test(q.text)) return lastSegment(h.name).toLowerCase() === q.text.toLowerCase();
  const scoped = q.text.split('::');
  const member =
    ownedMemberOf(q.text) ??
    (scoped.length > 1 ? { owner: scoped[scoped.length - 2], name: lastSegment(q.text) } : undefined);
  return member !== undefined && h.name.split('::').slice(-2).join('::') === `${member.owner}::${member.name}`;
}

/**
 * The byte of a line where its first query term starts (else its first non-blank byte):
 * the anchor a definition must hold. The line's start would miss `export class X` and
 * `pub fn x`, whose definitions begin after the line's first word.
 */
function firstTermByte(bytes: Buffer, starts: readonly number[], line: number, terms: readonly string[]): number {
  const from = starts[line - 1] ?? 0;
  const to = starts[line] ?? bytes.length;
  const text = bytes.subarray(from, to).toString('latin1').toLowerCase();
  const hits = terms
    .map((t) => text.indexOf(Buffer.from(t, 'utf8').toString('latin1').toLowerCase()))
    .filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : Math.max(0, text.search(/\S/));
  return from + at;
}

function lineText(bytes: Buffer, starts: readonly number[], line: number): string {
  return bytes.subarray(starts[line - 1] ?? bytes.length, starts[line] ?? bytes.length).toString('utf8');
}

const isLeadingLine = (text: string): boolean => isCommentLine(text) || isDecorationLine(text);

/**
 * The definition whose leading comment or decorators hold `anchor`, with their first line: a
 * match in a doc comment (`// flushHeredocTemplateParts modifies in-place ...`) spans the
 * comment and the definition under it, at most SPAN_DEFINITION_MAX_LINES lines, instead
 * of a window that cuts the definition after a few lines. Undefined when a line between
 * the anchor and the next definition is not a comment.
 */
function documentedDefinition(
  anchor: number,
  defs: readonly DefSpan[],
  bytes: Buffer,
  starts: readonly number[],
): { from: number; def: DefSpan } | undefined {
  const below = defs.filter((d) => d.startLine > anchor);
  if (below.length === 0) return undefined;
  const def = below.reduce((a, b) =>
    b.startLine < a.startLine || (b.startLine === a.startLine && b.end > a.end) ? b : a,
  );
  for (let line = anchor; line < def.startLine; line++)
    if (!isLeadingLine(lineText(bytes, starts, line))) return undefined;
  let from = anchor;
  while (from > 1 && isLeadingLine(lineText(bytes, starts, from - 1))) from--;
  return def.endLine - from + 1 <= SPAN_DEFINITION_MAX_LINES ? { from, def } : undefined;
}

function lastLineOf(bytes: Buffer, starts: readonly number[]): number {
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? starts.length - 1 : starts.length;
}

/** One hit's narrowed span, from the file's bytes at the hit's revision and its definitions. */
export function narrowHit(
  h: SearchHit,
  bytes: Buffer,
  defs: readonly DefSpan[],
  terms: readonly string[],
  q: ParsedQuery,
): SearchHit {
  if (q.mode === 'sym' && h.kind !== undefined) {
    // A declaration of a `sym:` query: the whole definition it names.
    const def =
      defs.find((d) => d.nameStart === h.start) ??
      defs.find((d) => d.start <= h.start && h.end <= d.end && d.startLine === h.startLine);
    if (def) return { ...h, start: def.start, end: def.end, startLine: def.startLine, endLine: def.endLine };
  }
  const starts = lineStarts(bytes);
  const at = anchorOf(h, bytes, starts, terms, q);
  const anchor = at.line;
  const lastLine = Math.max(1, lastLineOf(bytes, starts));
  const indentOf = (line: number): number | undefined =>
    line < 1 || line > lastLine ? undefined : indentColumns(lineText(bytes, starts, line));
  const choice = chooseHitSpan(anchor, defs, lastLine, at.byte, indentOf);
  // Never wider in bytes than the index's own span or SPAN_NARROW_SPAN_BYTES_MAX: a few
  // lines of minified code can be megabytes, and the index's span is then the better read.
  const bounded = (n: SearchHit): SearchHit =>
    n.end - n.start > Math.max(SPAN_NARROW_SPAN_BYTES_MAX, h.end - h.start) ? h : n;
  // The hit line's name is the definition its span is (docs/spec/retrieval.md §4), never a
  // name the query matched elsewhere: a call of `ExecuteC` inside `executeCommandC` is
  // named `executeCommandC`, and a window is named only when it is a definition's head.
  if (choice.kind === 'definition') {
    const d = choice.definition;
    return bounded({
      ...h,
      start: d.start,
      end: d.end,
      startLine: d.startLine,
      endLine: d.endLine,
      name: qualifiedName(d),
    });
  }
  const documented = documentedDefinition(anchor, defs, bytes, starts);
  if (documented) {
    const { from, def } = documented;
    return bounded({
      ...h,
      start: starts[from - 1],
      end: def.end,
      startLine: from,
      endLine: def.endLine,
      name: qualifiedName(def),
    });
  }
  // A long definition matched at its first line: the window starts there, not above it,
  // and is named as the definition's head: a symbol hit by its own name, any other match
  // (`re:class \w+\(ExtendedRegexLexer\)` on a 300-line class) by the definition starting
  // on that line (an agent trial on pygments: each such hit spanned 3 lines above the
  // class, unnamed).
  const symbolHead = h.kind !== undefined && anchor === h.startLine;
  const headed = symbolHead ? undefined : outermostStartingAt(defs, anchor);
  const window =
    symbolHead || headed
      ? { startLine: anchor, endLine: Math.min(lastLine, anchor + SPAN_WINDOW_MAX_LINES - 1) }
      : (constructWindow(anchor, lastLine, (line) =>
          line < 1 || line > lastLine ? undefined : lineText(bytes, starts, line).replace(/\r?\n$/, ''),
        ) ?? choice);
  // A window never ends on blank lines: an empty last line has no bytes, so the byte span
  // would end a line earlier than the printed one (`:1123-1138` on the hit, 1123-1137 shown).
  let endLine = window.endLine;
  while (endLine > Math.max(window.startLine, anchor) && lineText(bytes, starts, endLine).trim() === '') endLine--;
  // Nor starts on one: jinja2's `runtime.py:788-802` began on the blank line above `class
  // Undefined`, so no definition held it, the hit named none and `ctx` found nothing (a
  // workspace trial).
  let startLine = window.startLine;
  while (startLine < Math.min(endLine, anchor) && lineText(bytes, starts, startLine).trim() === '') startLine++;
  const start = starts[startLine - 1] ?? 0;
  let end = endLine < starts.length ? starts[endLine] - 1 : bytes.length;
  if (end > start && bytes[end - 1] === 0x0d) end--;
  const { name: _matched, ...unnamed } = h;
  const named = symbolHead ? h : headed ? { ...unnamed, name: qualifiedName(headed) } : unnamed;
  const holder = named === unnamed ? innermostHolding(defs, startLine, endLine) : undefined;
  return bounded({
    ...named,
    start,
    end: Math.max(start, end),
    startLine,
    endLine,
    ...(holder ? { within: qualifiedName(holder) } : {}),
  });
}

/** The largest definition whose first line is `line` (a class before its first method on that line). */
export function outermostStartingAt<D extends { startLine: number; start: number; end: number }>(
  defs: readonly D[],
  line: number,
): D | undefined {
  let best: D | undefined;
  for (const d of defs) if (d.startLine === line && (!best || d.end - d.start > best.end - best.start)) best = d;
  return best;
}

/**
 * The smallest definition holding every line of [startLine, endLine]: what a window cut from
 * a long function is part of (an agent trial read `expand_spec.go:80-95`, unnamed, as
 * outside any function), and the definition a further match outside a hit is in
 * (line-owners.ts). Fewest bytes; ties: the one starting last, the innermost.
 */
export function innermostHolding<D extends { startLine: number; endLine: number; start: number; end: number }>(
  defs: readonly D[],
  startLine: number,
  endLine: number,
): D | undefined {
  let best: D | undefined;
  for (const d of defs) {
    if (d.startLine > startLine || d.endLine < endLine) continue;
    if (
      best === undefined ||
      d.end - d.start < best.end - best.start ||
      (d.end - d.start === best.end - best.start && d.start > best.start)
    )
      best = d;
  }
  return best;
}

/**
 * Whether a hit's span is narrowed from its file: every hit with a revision that does not
 * keep the index's span. Those left unnarrowed by narrowHits (past `count`, past the byte
 * cap, a file changed since indexing) are stored provisional and settled when first read.
 */
export function narrowable(h: SearchHit, q: ParsedQuery): boolean {
  return !keepsIndexSpan(h, q) && !!h.revision;
}

/**
 * One hit narrowed from its file as it is on disk, with the bytes read; undefined when the
 * file is not indexed or no longer has the hit's revision (its definitions would not fit
 * the bytes), or cannot be read.
 */
export function narrowFromFile(
  reader: IndexReader,
  q: ParsedQuery,
  terms: readonly string[],
  h: SearchHit,
  read: IndexedBytesReader = readIndexedBytes,
): { readonly hit: SearchHit; readonly bytesRead: number } | undefined {
  const f = reader.fileByPath(h.path);
  // A file too large to index has no revision on record and no definitions: its hit (a
  // `re:` or `"literal"` scan read it live) is narrowed on the bytes it was found in, to a
  // window, not left on its one matching line.
  const tooLarge = f?.excluded === 'too_large';
  if (!f || (!tooLarge && f.revision !== h.revision)) return undefined;
  const bytes = read(reader.root, { path: h.path, revision: h.revision }, liveReadBound(f));
  if (!bytes) return undefined;
  // The anchor lies on one of the hit's lines, and a span encloses it, or it lies in the
  // doc comment of a definition starting below the hit (documentedDefinition), unless a
  // definition elsewhere in the file is named by the query (namedDefinition).
  // A definition the query names itself (`APIRouter.get`) stays: its class, whose name holds
  // two of the words, had taken its place (a Python trial's hit read `APIRouter::get` over
  // the class head at 478-493).
  const named =
    isFreeText(q) && !namesSpelledIdentifier(h, q)
      ? namedDefinition((fragments) => reader.definitionSpansNaming(f.id, fragments), q, h.path)
      : undefined;
  // The named definition wins over the hit's best line when it spells more of the query
  // (a definition of exactly the words ties in its favour: `resize` over a call `resize()`).
  const starts = named ? lineStarts(bytes) : [];
  const anchorMet = named ? named.wordsOf(lineText(bytes, starts, anchorOf(h, bytes, starts, terms, q).line)) : 0;
  const wins = named !== undefined && (named.met > anchorMet || (named.whole && named.met >= anchorMet));
  const at = wins
    ? { ...h, start: named.d.start, end: named.d.end, startLine: named.d.startLine, endLine: named.d.endLine }
    : h;
  const defs: DefSpan[] = reader.definitionSpansOverlapping(f.id, at.startLine, at.endLine + SPAN_DEFINITION_MAX_LINES);
  return { hit: narrowHit(at, bytes, defs, terms, q), bytesRead: bytes.length };
}

/** Free text: words, not a regex, a literal, a `sym:` or `kind:` query, nor one identifier. */
function isFreeText(q: ParsedQuery): boolean {
  return q.mode !== 're' && q.mode !== 'literal' && q.mode !== 'sym' && !q.identifier && q.words.length > 0;
}

/**
 * The definition of a file whose name spells the query's words, when one does: at least
 * two of the words the path does not already name (`DEFAULT_LOAD_FACTOR` for "HashMap
 * default load factor" in HashMap.java), or all of them when its name is nothing else
 * (`resize` for "HashMap resize"). Most words first, then the shortest name. A hit's span
 * is then that definition, not the region the file ranked by: the JDK trial's search
 * showed HashMap's constructor for the load factor, and a call in `compute` for `resize`.
 */
function namedDefinition(
  naming: (fragments: readonly string[]) => readonly DefSpan[],
  q: ParsedQuery,
  path: string,
): { d: DefSpan; met: number; whole: boolean; wordsOf: (text: string) => number } | undefined {
  const named = new Set(splitIdentifier(percentDecode(path).toString('utf8')));
  const words = [...new Set(q.words.map((w) => w.toLowerCase()))].filter((w) => !isStopword(w) && !named.has(w));
  if (words.length === 0) return undefined;
  const forms = words.map((w) => ({ w, stem: stemPrefix(w) }));
  // Only the definitions whose name holds a word or its stem are read (a kernel header holds thousands).
  const defs = naming(forms.map(({ w, stem }) => stem ?? w));
  const met = (parts: readonly string[]) =>
    forms.filter(({ w, stem }) => parts.some((p) => p === w || (stem !== null && p.startsWith(stem)))).length;
  let best: { d: DefSpan; met: number; whole: boolean; parts: number } | undefined;
  for (const d of defs) {
    const parts = splitIdentifier(d.name);
    if (parts.length === 0) continue;
    const n = met(parts);
    const whole = n === words.length && n === parts.length;
    if (n < 2 && !whole) continue;
    if (!best || n > best.met || (n === best.met && parts.length < best.parts))
      best = { d, met: n, whole, parts: parts.length };
  }
  return best && { ...best, wordsOf: (text) => met(splitIdentifier(text)) };
}

/**
 * The hits with narrowed spans, in the same order: the first `count` narrowable hits (at
 * most SPAN_NARROW_HITS_MAX) within SPAN_NARROW_BYTES_MAX bytes read; any other hit keeps
 * the index's span. Hits shared between lists (a scope's ranking reuses the global one's)
 * narrow once: pass the same `memo`, which also tells a caller which hits were narrowed.
 * `read` reads each file (readEachOnce shares one request's reads).
 */
export function narrowHits(
  reader: IndexReader,
  q: ParsedQuery,
  terms: readonly string[],
  hits: readonly SearchHit[],
  memo = new Map<SearchHit, SearchHit>(),
  count = SPAN_NARROW_HITS_MAX,
  read: IndexedBytesReader = readIndexedBytes,
): SearchHit[] {
  const todo = hits.slice(0, Math.min(count, SPAN_NARROW_HITS_MAX)).filter((h) => !memo.has(h) && narrowable(h, q));
  let bytesRead = 0;
  for (const h of todo) {
    if (bytesRead > SPAN_NARROW_BYTES_MAX) break;
    const narrowed = narrowFromFile(reader, q, terms, h, read);
    if (!narrowed) continue;
    bytesRead += narrowed.bytesRead;
    memo.set(h, narrowed.hit);
  }
  return hits.map((h) => memo.get(h) ?? h);
}
