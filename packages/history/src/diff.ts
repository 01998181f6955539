// A line diff, pure: the shortest edit script between two line lists (Myers' O(ND)
// algorithm), after trimming their common ends. Bounded: past DIFF_MAX_EDITS edits, or
// sides longer than DIFF_SIDE_MAX_LINES, the differing middle is one replaced block, so
// the script stays correct (every line is accounted for), only no longer minimal.
import { DIFF_MAX_EDITS, DIFF_SIDE_MAX_LINES } from './limits';

/** One step of an edit script: indexes are 0-based into the before and after lists. */
export type EditOp =
  | { readonly kind: 'same'; readonly before: number; readonly after: number }
  | { readonly kind: 'del'; readonly before: number }
  | { readonly kind: 'add'; readonly after: number };

export interface EditScript {
  readonly ops: readonly EditOp[];
  /** True when a bound replaced the middle wholesale (the script is not minimal). */
  readonly approximate: boolean;
}

/** Myers' forward search on a[]/b[] (as integer ids); undefined past maxEdits. */
function myers(a: Int32Array, b: Int32Array, maxEdits: number): EditOp[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const size = 2 * max + 3;
  const v = new Int32Array(size);
  const mid = max + 1;
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[mid + k - 1] < v[mid + k + 1]) ? v[mid + k + 1] : v[mid + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[mid + k] = x;
      if (x >= n && y >= m) found = d;
    }
    trace.push(v.slice(mid - d, mid + d + 1));
  }
  if (found < 0) return undefined;
  const ops: EditOp[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const stepX = prevK === k + 1 ? prevX : prevX + 1;
    const stepY = stepX - k;
    while (x > stepX && y > stepY) ops.push({ kind: 'same', before: --x, after: --y });
    if (prevK === k + 1) ops.push({ kind: 'add', after: prevY });
    else ops.push({ kind: 'del', before: prevX });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) ops.push({ kind: 'same', before: --x, after: --y });
  return ops.reverse();
}

/** The edit script turning `before` into `after` (lines compared exactly). */
export function diffLines(before: readonly string[], after: readonly string[]): EditScript {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const ops: EditOp[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: 'same', before: i, after: i });
  const aEnd = before.length - tail;
  const bEnd = after.length - tail;
  let middle: EditOp[] | undefined;
  if (aEnd - head <= DIFF_SIDE_MAX_LINES && bEnd - head <= DIFF_SIDE_MAX_LINES) {
    const ids = new Map<string, number>();
    const idOf = (line: string) => {
      let id = ids.get(line);
      if (id === undefined) ids.set(line, (id = ids.size));
      return id;
    };
    const a = Int32Array.from(before.slice(head, aEnd), idOf);
    const b = Int32Array.from(after.slice(head, bEnd), idOf);
    middle = myers(a, b, DIFF_MAX_EDITS)?.map((op): EditOp => {
      if (op.kind === 'same') return { kind: 'same', before: op.before + head, after: op.after + head };
      return op.kind === 'del' ? { kind: 'del', before: op.before + head } : { kind: 'add', after: op.after + head };
    });
  }
  const approximate = middle === undefined;
  if (middle === undefined) {
    middle = [];
    for (let i = head; i < aEnd; i++) middle.push({ kind: 'del', before: i });
    for (let j = head; j < bEnd; j++) middle.push({ kind: 'add', after: j });
  }
  ops.push(...middle);
  for (let i = 0; i < tail; i++) ops.push({ kind: 'same', before: aEnd + i, after: bEnd + i });
  return { ops, approximate };
}

/** Added and deleted lines of a script. */
export function countEdits(script: EditScript): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  for (const op of script.ops) {
    if (op.kind === 'add') added++;
    else if (op.kind === 'del') deleted++;
  }
  return { added, deleted };
}

/** A script as `-U0` hunks in git's numbering (1-based; a side of 0 lines names the line before it). */
export function hunksOf(script: EditScript): { a: number; b: number; c: number; d: number }[] {
  const out: { a: number; b: number; c: number; d: number }[] = [];
  let i = 0;
  let oldLine = 0; // lines of before consumed
  let newLine = 0; // lines of after consumed
  const ops = script.ops;
  while (i < ops.length) {
    const op = ops[i];
    if (op.kind === 'same') {
      oldLine++;
      newLine++;
      i++;
      continue;
    }
    let b = 0;
    let d = 0;
    const a0 = oldLine;
    const c0 = newLine;
    while (i < ops.length && ops[i].kind !== 'same') {
      if (ops[i].kind === 'del') b++;
      else d++;
      i++;
    }
    out.push({ a: b > 0 ? a0 + 1 : a0, b, c: d > 0 ? c0 + 1 : c0, d });
    oldLine += b;
    newLine += d;
  }
  return out;
}
