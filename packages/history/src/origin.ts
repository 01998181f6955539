// Where a definition came from when a commit added all of its lines, pure: among the
// definitions of the parent's versions of the files the commit changed, the one the
// target was moved (or renamed and moved) from, by name and by how alike the lines are.
import { MOVE_SAME_NAME_SIMILARITY_MIN, MOVE_SIMILARITY_MIN } from './limits';
import type { LineRange } from './ranges';

/** Lines of `bytes` in `range` (1-based, inclusive) as byte strings, line breaks (LF, CRLF) dropped. */
export function linesOf(bytes: Buffer, range?: LineRange): string[] {
  const text = bytes.toString('latin1');
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '' && text.endsWith('\n')) all.pop();
  const picked = range ? all.slice(range.start - 1, range.end) : all;
  return picked.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * How alike two line lists are: Dice's coefficient over their multisets of trimmed,
 * non-blank lines (1: the same lines, whatever the indentation or order; 0: none shared).
 */
export function lineSimilarity(a: readonly string[], b: readonly string[]): number {
  const count = (lines: readonly string[]) => {
    const m = new Map<string, number>();
    for (const l of lines) {
      const t = l.trim();
      if (t) m.set(t, (m.get(t) ?? 0) + 1);
    }
    return m;
  };
  const ca = count(a);
  const cb = count(b);
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const n of ca.values()) sizeA += n;
  for (const n of cb.values()) sizeB += n;
  for (const [line, n] of ca) shared += Math.min(n, cb.get(line) ?? 0);
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}

export interface OriginCandidate {
  /** Byte-string path (top level) of the file in the parent. */
  readonly path: string;
  readonly name: string;
  readonly range: LineRange;
  readonly lines: readonly string[];
}

export interface Origin extends OriginCandidate {
  readonly similarity: number;
}

/**
 * The origin of a target whose lines a commit added: a same-named definition at least
 * MOVE_SAME_NAME_SIMILARITY_MIN alike, else any definition at least MOVE_SIMILARITY_MIN
 * alike (a rename and a move in one commit); the most alike wins, a same name first.
 * Undefined when none qualifies: the commit then added the target.
 */
export function chooseOrigin(
  name: string | undefined,
  lines: readonly string[],
  candidates: readonly OriginCandidate[],
): Origin | undefined {
  let best: Origin | undefined;
  let bestScore = -1;
  for (const c of candidates) {
    const similarity = lineSimilarity(lines, c.lines);
    const sameName = name !== undefined && c.name === name;
    if (similarity < (sameName ? MOVE_SAME_NAME_SIMILARITY_MIN : MOVE_SIMILARITY_MIN)) continue;
    const score = (sameName ? 1 : 0) + similarity;
    if (score > bestScore) {
      best = { ...c, similarity };
      bestScore = score;
    }
  }
  return best;
}
