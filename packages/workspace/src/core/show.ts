import * as fs from 'node:fs';
import { quoteInput, SHOW_PATH_MAX_BYTES, TOO_LARGE_SCAN_MAX_BYTES } from '@trufflepig/index';
import { rowsOf } from '@trufflepig/navigation';
import { fileUri, percentDecode, percentEncode } from '@trufflepig/base/stored-path';
import { lineStarts, printedPath, splitRows, type ShowInput } from '@trufflepig/render';
import { formatHandle, parseHandle, type ResultStore } from '@trufflepig/result-cache';
import { fail, ok, type Outcome } from './errors';
import { readOnce, type LiveRead } from './live';
import { REFS_ROW_SHOW_CONTEXT_LINES, SHOW_PATH_SPEC_MAX_CHARS } from './limits';
import type { ResolvedRoot } from './root';
import { checkOwner } from './owner';
import { showCommitEntry } from './commit-entries';

/** A continuation names the handle and the byte where the next rows start: `SET:ORD~BYTE`. */
const CONTINUATION = /^([0-9a-zA-Z]+:\d+)~(\d+)$/;

/**
 * The byte range of `start..end` widened to whole lines, then by `lines` more lines on
 * each side within the file (the `-C` of `show HANDLE`): pure, on the bytes just verified.
 */
export function widenByLines(bytes: Buffer, start: number, end: number, lines: number): { start: number; end: number } {
  let from = start > 0 ? bytes.lastIndexOf(0x0a, start - 1) + 1 : 0;
  for (let i = 0; i < lines && from > 0; i++) from = from > 1 ? bytes.lastIndexOf(0x0a, from - 2) + 1 : 0;
  // The span's last line: the one holding its last byte (a span ending with its newline ends there).
  let to = bytes.indexOf(0x0a, Math.max(start, end - 1));
  if (to < 0) to = bytes.length;
  for (let i = 0; i < lines && to < bytes.length; i++) {
    const next = bytes.indexOf(0x0a, to + 1);
    to = next < 0 ? bytes.length : next;
  }
  return { start: from, end: Math.max(to, end) };
}

/**
 * What a stale handle's error tells the agent to run. A hit that names its definition (or
 * a refs row the definition it sits in) is read as it is now by one `show sym:` of that
 * name in that file; "search again" alone cost an agent trial a search and a second show
 * for each edited file. The filters are words of the query, so a name or path holding
 * white space is left out.
 */
function staleNextStep(
  entry: { name?: string; within?: string; path: string; member?: string },
  indexFollows: boolean,
): string {
  const name = entry.name ?? entry.within;
  // Without a daemon nothing reindexes: `show sym:` would read the old definition and fail
  // the same way (a Ruby trial followed the hint in a circle).
  const first = indexFollows ? '' : 'run index, then ';
  if (name === undefined || /\s/.test(name)) return `${first}search again for current results`;
  const file = printedPath(entry.path);
  const filters = [
    ...(entry.member !== undefined ? [`in:${entry.member}`] : []),
    ...(/\s/.test(file) ? [] : [`file:${file}`]),
  ];
  const sym = `show sym:${[name, ...filters].join(' ')}`;
  return indexFollows
    ? `${sym} reads the definition as it is now, or search again`
    : `${first}${sym} reads the definition as it is now; show path:${file} reads the file now`;
}

/**
 * `show HANDLE` (or its continuation): read once, hash, verify against the handle's
 * revision. `context` widens the span by that many lines on each side (`-C N`); the
 * continuation then carries `-C N`. Without it a refs row, which spans its one line, is
 * read with REFS_ROW_SHOW_CONTEXT_LINES around it, any other entry as it is.
 */
export function showHandle(
  target: string,
  store: ResultStore,
  asked?: number,
  /** Whether a daemon reindexes edits (false under `--no-daemon`): what a stale handle's error says to run. */
  indexFollows = true,
): Outcome<ShowInput> {
  const cont = CONTINUATION.exec(target);
  const handleText = cont ? cont[1] : target;
  const parsed = parseHandle(handleText);
  if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
  const resolved = store.resolve(handleText);
  if (!resolved.ok) return fail(resolved.error.code, resolved.error.message);
  const { entry, set, ordinal } = resolved.value;
  if (entry.tag === 'commit') return showCommitEntry(entry, set.id, ordinal, cont ? Number(cont[2]) : undefined);
  const context = asked ?? (entry.tag === 'live_source' && entry.role !== undefined ? REFS_ROW_SHOW_CONTEXT_LINES : 0);
  const root = percentDecode(entry.root).toString('utf8');
  const owner = checkOwner(entry, root);
  if (!owner.ok) return owner;
  // Up to the bound of a file too large to index: a `re:` or `"literal"` hit may lie in
  // one (it was read live); the revision check below decides whether the bytes are the hit's.
  const live = readOnce(root, entry.path, TOO_LARGE_SCAN_MAX_BYTES);
  if (!live.ok) {
    switch (live.reason) {
      case 'missing':
        return fail('source_missing', `${printedPath(entry.path)} was moved or deleted since the search; search again`);
      case 'unreadable':
        return fail('read_error', `cannot read ${printedPath(entry.path)}: ${live.message}`);
      default:
        // A symlink, FIFO, device or oversized file now stands where the indexed file was.
        return fail(
          'stale_source',
          `${printedPath(entry.path)} is no longer the regular file that was indexed (${live.message}); search again`,
        );
    }
  }
  if (live.revision !== entry.revision)
    return fail(
      'stale_source',
      `${printedPath(entry.path)} changed since the search (revision ${entry.revision.slice(0, 12)}); ${staleNextStep(entry, indexFollows)}`,
    );
  const span = context > 0 ? widenByLines(live.bytes, entry.start, entry.end, context) : entry;
  const from = cont ? Number(cont[2]) : span.start;
  if (from < span.start || from > span.end)
    return fail(
      'bad_handle',
      `continuation byte ${from} lies outside ${handleText}; use the next value exactly as printed`,
    );
  const handle = formatHandle(set.id, ordinal);
  return ok({
    ...(entry.member !== undefined ? { member: entry.member } : {}),
    handle,
    path: entry.path,
    uri: fileUri(root, entry.path),
    revision: entry.revision,
    verified: 'revision',
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    // A search window's definition, as its hit line said it; not a refs row's (its `within`
    // names the row's text), nor rows widened by -C past that definition.
    ...(entry.name === undefined &&
    'within' in entry &&
    entry.within !== undefined &&
    entry.role === undefined &&
    context === 0
      ? { within: entry.within }
      : {}),
    ...(entry.kind !== undefined ? { kind: entry.kind } : {}),
    rows: rowsOf(live.bytes, from, Math.max(span.end, from)),
    continuation: (next: number) => `${handle}~${next}${context > 0 ? ` -C ${context}` : ''}`,
  });
}

/** Why `show path:` read nothing, as the code and message a user sees. */
function pathReadFailure(rel: string, live: Extract<LiveRead, { ok: false }>): Outcome<never> {
  switch (live.reason) {
    case 'missing':
      return fail('source_missing', `${rel} does not exist under the root; search for it with kind:file`);
    case 'symlink':
    case 'outside_root':
      return fail('path_outside_root', `${rel} was replaced by a symlink while it was read; it is not shown`);
    case 'directory':
    case 'not_regular':
      return fail(
        'not_regular_file',
        `${rel} is ${live.message}; show path: reads regular files (use map for a directory)`,
      );
    case 'too_large':
      return fail('file_too_large', `${rel} is ${live.message}; search inside it instead`);
    default:
      return fail('read_error', `cannot read ${rel}: ${live.message}`);
  }
}

/**
 * `show path:P[:A-B]`: current bytes, root-relative only, never outside the root. P is a
 * path as printed (itself, or percent-encoded) or the raw name: when the decoded reading
 * names no file, the literal text is tried (a raw `lit%25eral.ts`), and when a trailing
 * `:A[-B]` leaves no file, the whole text is the name (a file called `notes:12`).
 */
export function showPath(r: ResolvedRoot, spec: string, wholeName = false): Outcome<ShowInput> {
  if (spec.length > SHOW_PATH_SPEC_MAX_CHARS)
    return fail('bad_path', `show path: takes a path of at most ${SHOW_PATH_SPEC_MAX_CHARS} characters`);
  // `s`: a name may hold a newline (it is percent-encoded in every path Trufflepig prints).
  const m = wholeName ? [spec, spec, undefined, undefined] : /^(.*?)(?::(\d+)(?:-(\d+))?)?$/s.exec(spec);
  const rel = m?.[1];
  if (!m || !rel) return fail('bad_path', 'show path: needs a root-relative path, e.g. show path:src/lib.rs:10-40');
  const shown = quoteInput(rel);
  if (rel.startsWith('/') || /^[A-Za-z]:[\\/]/.test(rel))
    return fail('path_outside_root', `${shown} is absolute; give a path relative to the root ${r.root}`);
  // Work on raw bytes: a name that is not UTF-8 (latin%E9.rs) must reach the file system
  // unchanged, so no decoding to a JS string here (latin1 below is byte-preserving), and
  // realpathSync.native, because the JS realpathSync turns a Buffer path into lossy text.
  const raw = percentDecode(rel);
  const literal = Buffer.from(rel, 'utf8');
  const climbs = (name: Buffer) => name.toString('latin1').split('/').includes('..');
  if (climbs(raw) || climbs(literal))
    return fail('path_outside_root', `${shown} climbs out with ..; give a path inside the root ${r.root}`);
  const rootBytes = Buffer.from(r.root);
  const resolve = (name: Buffer): Buffer | undefined => {
    try {
      return fs.realpathSync.native(Buffer.concat([rootBytes, Buffer.from('/'), name]), { encoding: 'buffer' });
    } catch {
      return undefined;
    }
  };
  const real = resolve(raw) ?? (literal.equals(raw) ? undefined : resolve(literal));
  if (real === undefined) {
    if (m[2] !== undefined) {
      const whole = showPath(r, spec, true);
      if (whole.ok || whole.error.code !== 'source_missing') return whole;
    }
    return fail('source_missing', `${shown} does not exist under ${r.root}; search for it with kind:file`);
  }
  if (real.equals(rootBytes))
    return fail(
      'not_regular_file',
      `${shown} is the root directory; show path: reads regular files (use map for a directory)`,
    );
  const inside =
    real.length > rootBytes.length &&
    real.subarray(0, rootBytes.length).equals(rootBytes) &&
    real[rootBytes.length] === 0x2f;
  if (!inside)
    return fail('path_outside_root', `${shown} resolves outside the root through a symlink; it is not shown`);
  // The resolved path is only a name: the checked reader opens it without following any
  // link and refuses it if it was swapped since realpath looked.
  const encoded = percentEncode(real.subarray(rootBytes.length + 1));
  const live = readOnce(r.root, encoded, SHOW_PATH_MAX_BYTES);
  if (!live.ok) return pathReadFailure(shown, live);
  if (live.bytes.includes(0)) return fail('binary_file', `${shown} is binary (contains NUL bytes); it is not shown`);
  const starts = lineStarts(live.bytes);
  const lastLine =
    live.bytes.length > 0 && live.bytes[live.bytes.length - 1] === 0x0a ? starts.length - 1 : starts.length;
  const a = m[2] ? Math.max(1, Number(m[2])) : 1;
  const b = m[3] ? Number(m[3]) : m[2] ? a : lastLine;
  if (a > Math.max(1, lastLine) || b < a)
    return fail('bad_range', `${shown} has ${lastLine} lines; ask for a range within 1-${lastLine}`);
  const from = starts[a - 1];
  // Through the line break of line b, so an empty last line of the range is still a row.
  const to = b >= lastLine ? live.bytes.length : starts[b];
  const rows = splitRows(live.bytes, from, Math.max(from, to), a);
  const lineAtByte = (byte: number) => rows.find((row) => row.start === byte)?.line ?? a;
  return ok({
    path: encoded,
    uri: fileUri(r.root, encoded),
    revision: live.revision,
    verified: 'current file',
    rows,
    continuation: (next: number) => `path:${printedPath(encoded)}:${lineAtByte(next)}-${b}`,
  });
}
