import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { queryLanguageOf } from '../classify';
import { decodeText, lineAt, lineStartOffsets } from '../extract/text';
import { REGEX_MAX_BYTES_SCANNED, REGEX_MAX_HITS } from '../limits';
import { percentDecode } from '../paths';
import type { SearchHit } from './hit';
import type { IndexedFile } from './reader';

export interface LiveFile {
  readonly bytes: Buffer;
  readonly revision: string;
}

/** Read a file's current bytes (the truth for `re:` and literal verification). */
export function readLive(root: string, f: IndexedFile): LiveFile | undefined {
  try {
    const bytes = fs.readFileSync(Buffer.concat([Buffer.from(root), Buffer.from('/'), percentDecode(f.path)]));
    return { bytes, revision: createHash('sha256').update(bytes).digest('hex') };
  } catch {
    return undefined;
  }
}

export function liveHit(f: IndexedFile, live: LiveFile, start: number, end: number, lane: string): SearchHit {
  const starts = lineStartOffsets(live.bytes);
  return {
    path: f.path, start, end, startLine: lineAt(starts, start), endLine: lineAt(starts, Math.max(start, end - 1)), lane,
    revision: live.revision, tags: f.tags, lang: queryLanguageOf(f.lang),
  };
}

export interface RegexScan { hits: SearchHit[]; truncated: boolean }

/**
 * `re:` over the live bytes of eligible files, in path order; `^`/`$` match at line
 * boundaries. Each file is represented by its first matching line.
 */
export function regexScan(root: string, files: readonly IndexedFile[], pattern: string): RegexScan {
  const re = new RegExp(pattern, 'gm');
  const hits: SearchHit[] = [];
  let scanned = 0;
  let lines = 0;
  for (const f of files) {
    if (scanned > REGEX_MAX_BYTES_SCANNED || lines >= REGEX_MAX_HITS) return { hits, truncated: true };
    const live = readLive(root, f);
    if (!live || live.bytes.includes(0)) continue;
    scanned += live.bytes.length;
    const decoded = decodeText(live.bytes);
    re.lastIndex = 0;
    const m = re.exec(decoded.text);
    if (!m) continue;
    const at = decoded.byteAt(m.index);
    const starts = lineStartOffsets(live.bytes);
    const line = lineAt(starts, at);
    const lineStart = starts[line - 1];
    let lineEnd = line < starts.length ? starts[line] - 1 : live.bytes.length;
    if (lineEnd > lineStart && live.bytes[lineEnd - 1] === 0x0d) lineEnd--;
    hits.push(liveHit(f, live, lineStart, Math.max(lineEnd, lineStart), 'regex'));
    lines++;
  }
  return { hits, truncated: false };
}

/** Byte offset of `needle` in `hay` from `from`, ASCII case-insensitively. */
export function findLiteral(hay: Buffer, needle: Buffer, from = 0, to = hay.length): number {
  const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 32 : b);
  const n0 = lower(needle[0]);
  outer: for (let i = from; i + needle.length <= to; i++) {
    if (lower(hay[i]) !== n0) continue;
    for (let k = 1; k < needle.length; k++) if (lower(hay[i + k]) !== lower(needle[k])) continue outer;
    return i;
  }
  return -1;
}
