// Which definitions of a file were added, removed or changed between two versions, pure:
// definitions pair up by kind and qualified name (the n-th of a name with the n-th, so
// overloads pair in order), a pair whose lines differ is changed (whitespace-only when
// they differ only in whitespace), and a container is left out when something inside it
// is listed (its own change is its members' change).
import { countEdits, diffLines } from './diff';
import type { LineRange } from './ranges';

export interface DefSpan {
  /** Qualified name (`Owner::name`). */
  readonly name: string;
  readonly kind: string;
  readonly range: LineRange;
  /** Its lines (byte strings, breaks dropped). */
  readonly lines: readonly string[];
}

export interface DefChange {
  readonly status: 'added' | 'removed' | 'changed';
  readonly name: string;
  readonly kind: string;
  readonly before?: LineRange;
  readonly after?: LineRange;
  readonly added: number;
  readonly deleted: number;
  readonly whitespaceOnly: boolean;
}

const squeeze = (lines: readonly string[]) => lines.join('\n').replace(/\s+/g, '');

function inside(inner: LineRange, outer: LineRange): boolean {
  return (
    inner.start >= outer.start && inner.end <= outer.end && !(inner.start === outer.start && inner.end === outer.end)
  );
}

/** The definition changes from `before` to `after` (either may be empty: a file added or deleted), in file order. */
export function definitionChanges(before: readonly DefSpan[], after: readonly DefSpan[]): DefChange[] {
  const key = (d: DefSpan) => `${d.kind}\0${d.name}`;
  const olds = new Map<string, DefSpan[]>();
  for (const d of before) olds.set(key(d), [...(olds.get(key(d)) ?? []), d]);
  const out: DefChange[] = [];
  const paired = new Set<DefSpan>();
  for (const d of after) {
    const old = olds.get(key(d))?.shift();
    if (old === undefined) {
      out.push({
        status: 'added',
        name: d.name,
        kind: d.kind,
        after: d.range,
        added: d.lines.length,
        deleted: 0,
        whitespaceOnly: false,
      });
      continue;
    }
    paired.add(old);
    if (old.lines.length === d.lines.length && old.lines.every((l, i) => l === d.lines[i])) continue;
    const counts = countEdits(diffLines(old.lines, d.lines));
    out.push({
      status: 'changed',
      name: d.name,
      kind: d.kind,
      before: old.range,
      after: d.range,
      ...counts,
      whitespaceOnly: squeeze(old.lines) === squeeze(d.lines),
    });
  }
  for (const d of before) {
    if (!paired.has(d))
      out.push({
        status: 'removed',
        name: d.name,
        kind: d.kind,
        before: d.range,
        added: 0,
        deleted: d.lines.length,
        whitespaceOnly: false,
      });
  }
  // A changed container whose change is a listed member's is not listed itself.
  const listed = out.filter(
    (c) =>
      !out.some(
        (o) =>
          o !== c &&
          c.status === 'changed' &&
          ((o.after && c.after && inside(o.after, c.after)) || (o.before && c.before && inside(o.before, c.before))),
      ),
  );
  const at = (c: DefChange) => c.after?.start ?? c.before!.start;
  return listed.sort((a, b) => at(a) - at(b));
}
