// The hunks of a file's change that lie outside every listed definition change, pure:
// `diff REV` lists definitions first, then these (an import, a comment between
// functions, a document). Each deleted or added line of the file's line diff belongs to
// a listed change when it lies inside that change's lines on its side (a deleted line
// inside its REV lines, an added one inside its working-tree lines); the other changed
// lines form the hunks, so a Git hunk that spans a definition and an import next to it
// still shows the import here. Two Git hunks are joined when only a few unchanged lines
// separate them (as `git diff` joins hunks whose contexts meet), neither touches a
// definition change and none of those lines is a definition's: an unchanged function is
// never inside such a hunk. Blank lines changed in the same Git hunk as a definition go
// with it (a deleted file is its definitions, not also the blank lines between them).
import type { EditScript } from './diff';
import { DIFF_HUNK_JOIN_LINES } from './limits';
import type { LineRange } from './ranges';
import type { DefChange } from './since-match';

export interface OutsideHunk {
  /** Old-side lines (empty, `end = start - 1`, for a pure insertion after line `end`). */
  readonly before: LineRange;
  /** New-side lines (empty for a pure deletion). */
  readonly after: LineRange;
  readonly added: number;
  readonly deleted: number;
  /** The two sides differ only in whitespace. */
  readonly whitespaceOnly: boolean;
}

/** One Git hunk: a maximal stretch of deleted and added lines between unchanged ones. */
interface Block {
  /** Old and new lines before it. */
  readonly oldPos: number;
  readonly newPos: number;
  /** Its deleted (old) and added (new) line numbers. */
  readonly dels: number[];
  readonly adds: number[];
  /** Unchanged lines between it and the block before. */
  readonly gap: number;
}

interface Raw {
  before: LineRange;
  after: LineRange;
  added: number;
  deleted: number;
  /** Its Git hunk also changed a definition's lines. */
  readonly shared: boolean;
  block: number;
}

const inside = (line: number, r: LineRange | undefined) => r !== undefined && line >= r.start && line <= r.end;
const squeeze = (lines: readonly string[]) => lines.join('\n').replace(/\s+/g, '');

function blocksOf(script: EditScript): Block[] {
  const blocks: Block[] = [];
  let oldPos = 0;
  let newPos = 0;
  let gap = 0;
  let open: Block | undefined;
  for (const op of script.ops) {
    if (op.kind === 'same') {
      open = undefined;
      gap++;
      oldPos++;
      newPos++;
      continue;
    }
    if (open === undefined) {
      open = { oldPos, newPos, dels: [], adds: [], gap };
      blocks.push(open);
      gap = 0;
    }
    if (op.kind === 'del') {
      open.dels.push(op.before + 1);
      oldPos++;
    } else {
      open.adds.push(op.after + 1);
      newPos++;
    }
  }
  return blocks;
}

/** Sorted line numbers as contiguous ranges. */
function segments(lines: readonly number[]): LineRange[] {
  const out: { start: number; end: number }[] = [];
  for (const l of lines) {
    const last = out[out.length - 1];
    if (last !== undefined && l === last.end + 1) last.end = l;
    else out.push({ start: l, end: l });
  }
  return out;
}

/** A block's lines outside the changes: one hunk when each side is one stretch, else each stretch alone. */
function rawHunks(b: Block, index: number, changes: readonly DefChange[]): Raw[] {
  const olds = b.dels.filter((l) => !changes.some((c) => inside(l, c.before)));
  const news = b.adds.filter((l) => !changes.some((c) => inside(l, c.after)));
  if (olds.length + news.length === 0) return [];
  const shared = olds.length < b.dels.length || news.length < b.adds.length;
  const o = segments(olds);
  const n = segments(news);
  // An empty side sits where the other side's stretch starts in the block (its start, else its end).
  const oldAt = (seg: LineRange) => (seg.start === b.newPos + 1 ? b.oldPos : b.oldPos + b.dels.length);
  const newAt = (seg: LineRange) => (seg.start === b.oldPos + 1 ? b.newPos : b.newPos + b.adds.length);
  const empty = (p: number) => ({ start: p + 1, end: p });
  if (o.length <= 1 && n.length <= 1) {
    return [
      {
        before: o[0] ?? empty(oldAt(n[0])),
        after: n[0] ?? empty(newAt(o[0])),
        added: news.length,
        deleted: olds.length,
        shared,
        block: index,
      },
    ];
  }
  return [
    ...o.map((seg): Raw => ({
      before: seg,
      after: empty(newAt(seg)),
      added: 0,
      deleted: seg.end - seg.start + 1,
      shared,
      block: index,
    })),
    ...n.map((seg): Raw => ({
      before: empty(oldAt(seg)),
      after: seg,
      added: seg.end - seg.start + 1,
      deleted: 0,
      shared,
      block: index,
    })),
  ].sort((x, y) => x.after.start - y.after.start || x.before.start - y.before.start);
}

/**
 * Hunks of `script` (old → new lines) outside every change in `changes`, in file order;
 * `definitions` are the new side's definition lines (none of them is joined into a hunk).
 */
export function outsideHunks(
  old: readonly string[],
  neu: readonly string[],
  script: EditScript,
  changes: readonly DefChange[],
  definitions: readonly LineRange[],
): OutsideHunk[] {
  const blocks = blocksOf(script);
  const joined: Raw[] = [];
  blocks.forEach((b, i) => {
    for (const h of rawHunks(b, i, changes)) {
      const prev = joined[joined.length - 1];
      // Joined only across unchanged lines alone: the next Git hunk, neither touching a definition change, no definition between.
      const gap = { start: b.newPos - b.gap + 1, end: b.newPos };
      if (
        prev !== undefined &&
        prev.block === i - 1 &&
        !prev.shared &&
        !h.shared &&
        b.gap <= DIFF_HUNK_JOIN_LINES &&
        !definitions.some((d) => d.start <= gap.end && d.end >= gap.start)
      ) {
        prev.before = { start: prev.before.start, end: h.before.end };
        prev.after = { start: prev.after.start, end: h.after.end };
        prev.added += h.added;
        prev.deleted += h.deleted;
        prev.block = i;
      } else joined.push({ ...h });
    }
  });
  const out: OutsideHunk[] = [];
  for (const h of joined) {
    const a = old.slice(h.before.start - 1, Math.max(h.before.start - 1, h.before.end));
    const b = neu.slice(h.after.start - 1, Math.max(h.after.start - 1, h.after.end));
    // Blank lines changed in the same Git hunk as a definition go with it.
    if (h.shared && a.every((l) => l.trim() === '') && b.every((l) => l.trim() === '')) continue;
    out.push({
      before: h.before,
      after: h.after,
      added: h.added,
      deleted: h.deleted,
      whitespaceOnly: squeeze(a) === squeeze(b),
    });
  }
  return out;
}
