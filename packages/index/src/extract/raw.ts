// Facts of one file in text units (UTF-16 offsets of the decoded text), before they are
// mapped to bytes and aggregated. Every extractor, tree-sitter or dedicated, produces these.
import type { ParseStatus } from './facts';
import type { CutPoint } from './regions';
import type { RawImport } from './spec';

export interface RawDef {
  name: string;
  kind: string;
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  container: string | null;
  /** The owner was given by syntax (a Go receiver, `function T.f`), not by nesting. */
  explicitOwner?: boolean;
}

export interface RawSite {
  start: number;
  end: number;
  name: string;
  role: number;
  /** Inside a node the grammar could not read (ERROR): its role and what it names are guesses. */
  inError?: boolean;
}

export interface RawFacts {
  defs: RawDef[];
  /** Identifier occurrences in source order, one per position. */
  sites: RawSite[];
  imports: RawImport[];
  /** Region cut points, already in bytes. */
  cuts: CutPoint[];
  parse: ParseStatus;
}

/** Kinds that own the definitions nested in them (`Owner::member`), by default. */
export const CONTAINER_KINDS: ReadonlySet<string> = new Set([
  'struct',
  'enum',
  'trait',
  'class',
  'interface',
  'module',
  'impl',
]);
/**
 * Kinds whose body is a scope of its own: a definition nested in one is local to it, and
 * resolveOwners gives it that function as its container.
 */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set(['function', 'method']);
/** Owner kinds that turn a function into a method. */
const METHOD_OWNERS = new Set(['impl', 'trait', 'class', 'interface', 'struct', 'enum']);

/**
 * Give each definition its innermost owner. A definition nested in a function body (a
 * local function or class) belongs to no type: its owner is the function, as a plain
 * container, and a function stays a function.
 */
export function resolveOwners(
  defs: RawDef[],
  containers: { start: number; end: number; name: string; kind: string }[],
  ownerKinds: ReadonlySet<string>,
  globalKinds: ReadonlySet<string> = new Set(),
): void {
  const owners = [
    ...containers,
    ...defs
      .filter((d) => ownerKinds.has(d.kind) || FUNCTION_KINDS.has(d.kind))
      .map((d) => ({ start: d.start, end: d.end, name: d.name, kind: d.kind })),
  ].sort((x, y) => x.start - y.start || y.end - x.end);
  // One sweep in source order: the owners open at a definition's start form a stack
  // (syntax nests), searched from the innermost. A generated file of 90,000 definitions
  // on one line cost seconds when every definition scanned every owner before it.
  const open: typeof owners = [];
  let next = 0;
  for (const d of [...defs].sort((x, y) => x.start - y.start || y.end - x.end)) {
    while (next < owners.length && owners[next].start <= d.start) {
      const o = owners[next++];
      while (open.length > 0 && open[open.length - 1].end <= o.start) open.pop();
      open.push(o);
    }
    if (d.explicitOwner || globalKinds.has(d.kind)) continue;
    // Fields and properties belong to a type even when declared in a function's
    // parameters (PHP constructor promotion).
    const typeMember = d.kind === 'field' || d.kind === 'property';
    let owner: (typeof owners)[number] | undefined;
    for (let k = open.length - 1; k >= 0 && !owner; k--) {
      const o = open[k];
      if (typeMember && FUNCTION_KINDS.has(o.kind)) continue;
      if (o.end >= d.end && !(o.start === d.start && o.end === d.end)) owner = o;
    }
    if (!owner) continue;
    d.container = owner.name;
    if (d.kind === 'function' && METHOD_OWNERS.has(owner.kind)) d.kind = 'method';
  }
}
