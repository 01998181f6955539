// Facts of one file from its tree-sitter parse: query captures folded into definitions,
// owners, identifier roles and imports (in text units), plus region cut points.
import type Parser from 'tree-sitter';
import { REGION_MAX_BYTES } from '../limits';
import { changedRuns, mergeRuns, sameLengthEdits } from './edits';
import { treeErrors } from './errors';
import { ROLE } from './facts';
import { parserFor, type TreeSitterLanguage } from './grammars';
import { CONTAINER_KINDS, resolveOwners, type RawDef, type RawFacts, type RawSite } from './raw';
import type { CutPoint } from './regions';
import type { IdentifierKind, LanguageSpec, LexicalNodes, NodeIdentity, RawImport } from './spec';
import { lineAt, type DecodedText } from './text';

/** Cut priority of a syntax boundary at nesting depth d (top level is strongest). */
const SYNTAX_CUT_BASE = 10;
const SYNTAX_CUT_MAX_DEPTH = 5;
/** Files longer than this (UTF-16 units) are matched in windows of WINDOW_ROWS rows. */
const WINDOWED_MATCH_MIN_CHARS = 64 * 1024;
const WINDOW_ROWS = 1500;
/** Nesting of macro bodies re-parsed as items. */
const MACRO_ITEM_DEPTH = 3;
const ITEM_KEYWORD = /\b(fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules)\b/;
/** Kinds a more specific match of the same node replaces (`type_spec` → struct, `const f = () =>` → function). */
const FALLBACK_KINDS = new Set(['variable', 'type']);
/** Lines of annotation words alone above a definition that startBeforeBlanks takes into its span. */
const ANNOTATION_LINES_ABOVE_MAX = 2;
/** Rounds of `spec.repair`: each round's tree shows the comments the next one skips. */
const REPAIR_ROUNDS_MAX = 3;
/** Edits handed to tree-sitter per repaired text (edits.ts, mergeRuns): measured on the kernel's fs/, 4 and 8 tied, 16 and 1 were slower. */
const REPAIR_EDITS_MAX = 4;

interface Interval {
  start: number;
  end: number;
}

function mergeIntervals(list: Interval[]): Interval[] {
  list.sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const r of list) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

function inIntervals(list: readonly Interval[], at: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].end <= at) lo = mid + 1;
    else if (list[mid].start > at) hi = mid - 1;
    else return true;
  }
  return false;
}

/** Type name of an impl target: `impl<T> Foo<T>` → `Foo`, `impl a::Bar` → `Bar`. */
function implTypeName(text: string): string {
  const noGenerics = text.replace(/<[\s\S]*$/, '').trim();
  const parts = noGenerics.split('::');
  return parts[parts.length - 1].replace(/^&\s*('[A-Za-z_]\w*\s+)?(mut\s+)?/, '').trim();
}

/** Default owner text: generics and pointers dropped. */
function plainOwner(text: string): string {
  return text
    .replace(/^[*&\s]+/, '')
    .replace(/[<[(][\s\S]*$/, '')
    .trim();
}

interface Collected {
  defsByNode: Map<string, RawDef>;
  containers: { start: number; end: number; name: string; kind: string }[];
  importRanges: Interval[];
  localRanges: Interval[];
  /** Spans whose identifiers are no sites at all (`@range.none`). */
  noneRanges: Interval[];
  roleAt: Map<number, number>;
  ids: { start: number; end: number; name: string; kind: IdentifierKind; inError?: boolean }[];
  macroBodies: Interval[];
  imports: RawImport[];
  importSeen: Set<number>;
  /** Definitions captured by a fallback pattern, which a more specific one replaces. */
  weakDefs: Set<string>;
  /** Macro templates read, by file offset (a template crossing a match window is reported twice). */
  templatesSeen: Set<number>;
}

/**
 * Where a parsed text's positions lie in the file. The file's own parse maps to itself;
 * the macro bodies of one level are joined into a single text (one tree, not one per
 * body) whose positions map back segment by segment.
 */
interface PositionMap {
  at(index: number): number;
  segment(index: number): number;
}

const IDENTITY: PositionMap = { at: (i) => i, segment: () => 0 };

function segmentMap(starts: readonly number[], origins: readonly number[]): PositionMap {
  // The segment holding offset i: the same search as a line lookup, 0-based.
  const segment = (i: number) => lineAt(starts, i) - 1;
  return {
    segment,
    at: (i) => {
      const k = segment(i);
      return origins[k] + (i - starts[k]);
    },
  };
}

/** A node's span in the file, or undefined when it straddles two joined macro bodies. */
function spanOf(node: Parser.SyntaxNode, map: PositionMap): Interval | undefined {
  // Each position read is a call into the binding: read them once.
  return rangeSpan(node.startIndex, node.endIndex, map);
}

/** The file's byte span of the parsed text's [start, end), undefined when it crosses a segment. */
function rangeSpan(start: number, end: number, map: PositionMap): Interval | undefined {
  const last = Math.max(start, end - 1);
  if (map.segment(start) !== map.segment(last)) return undefined;
  return { start: map.at(start), end: map.at(last) + (end > start ? 1 : 0) };
}

const ROLE_CAPTURES: Readonly<Record<string, number>> = {
  'role.call': ROLE.call,
  'role.module': ROLE.module,
  'role.type': ROLE.type,
  'role.member': ROLE.member,
};
/** When two role captures name one identifier, the stronger one wins. */
const ROLE_STRENGTH: readonly number[] = [ROLE.call, ROLE.type, ROLE.module, ROLE.member];

/**
 * Fold query matches into the collected facts, positions mapped into the file.
 * Identifier occurrences and imports are taken from the file's own parse only, so nothing
 * inside a macro body is counted twice.
 */
function collectMatches(
  spec: LanguageSpec,
  matches: Parser.QueryMatch[],
  map: PositionMap,
  acc: Collected,
  own: boolean,
): void {
  for (const match of matches) {
    let def: Parser.SyntaxNode | undefined;
    let defKind = '';
    let nameNode: Parser.SyntaxNode | undefined;
    let ownerNode: Parser.SyntaxNode | undefined;
    let implNode: Parser.SyntaxNode | undefined;
    let implType: Parser.SyntaxNode | undefined;
    for (const cap of match.captures) {
      const n = cap.name;
      const node = cap.node;
      if (n.startsWith('def.')) {
        def = node;
        defKind = n.slice(4);
      } else if (n === 'name') nameNode = node;
      else if (n === 'owner') ownerNode = node;
      else if (n === 'container.impl') implNode = node;
      else if (n === 'container.type') implType = node;
      else if (n === 'import') {
        if (own && spec.imports && !acc.importSeen.has(node.startIndex)) {
          acc.importSeen.add(node.startIndex);
          acc.imports.push(...spec.imports(node));
        }
      } else if (n === 'macro.template') collectTemplate(spec, node, map, acc);
      else {
        const span = spanOf(node, map);
        if (!span) continue;
        const role = ROLE_CAPTURES[n];
        if (role !== undefined) {
          const prev = acc.roleAt.get(span.start);
          if (prev === undefined || ROLE_STRENGTH.indexOf(role) < ROLE_STRENGTH.indexOf(prev))
            acc.roleAt.set(span.start, role);
        } else if (n === 'range.import') acc.importRanges.push(span);
        else if (n === 'range.local') acc.localRanges.push(span);
        else if (n === 'range.none') acc.noneRanges.push(span);
        else if (n === 'macro.body') acc.macroBodies.push(span);
      }
    }
    const impl = implNode && implType ? spanOf(implNode, map) : undefined;
    if (impl) acc.containers.push({ ...impl, name: implTypeName(implType!.text), kind: 'impl' });
    if (!def || !nameNode) continue;
    if (spec.locate) {
      const located = spec.locate(def, nameNode, defKind);
      if (!located) continue;
      ({ def, name: nameNode } = located);
      ownerNode = located.owner ?? ownerNode;
    }
    const kind = spec.refine ? spec.refine(def, defKind, nameNode) : defKind;
    if (!kind) continue;
    const whole = spanOf(def, map);
    const custom = spec.nameOf?.(def, nameNode);
    const name = custom ? rangeSpan(custom.start, custom.end, map) : spanOf(nameNode, map);
    if (!whole || !name) continue;
    const key = `${whole.start}:${whole.end}:${name.start}`;
    const weak = FALLBACK_KINDS.has(defKind);
    if (acc.defsByNode.has(key) && (weak || !acc.weakDefs.has(key))) continue;
    if (weak) acc.weakDefs.add(key);
    else acc.weakDefs.delete(key);
    const owner = ownerNode ? (spec.ownerName ?? plainOwner)(ownerNode.text) : null;
    acc.defsByNode.set(key, {
      name: (custom?.text ?? nameNode.text).replace(/^#/, ''),
      kind,
      start: whole.start,
      end: whole.end,
      nameStart: name.start,
      nameEnd: name.end,
      container: owner,
      explicitOwner: owner !== null,
    });
  }
}

/**
 * Definitions the language recognises in a macro template (Rust `macro_rules!` bodies),
 * mapped into the file. They are ordinary definitions: the tokens spell the item as the
 * crate wrote it, only its expansion's path (`mod $name`) is unknown, and that shows as no owner.
 */
function collectTemplate(spec: LanguageSpec, tree: Parser.SyntaxNode, map: PositionMap, acc: Collected): void {
  const span = spanOf(tree, map);
  if (!span || !spec.templateFacts || acc.templatesSeen.has(span.start)) return;
  acc.templatesSeen.add(span.start);
  // A template lies inside one joined segment, so every position moves by the same offset.
  const shift = span.start - tree.startIndex;
  const facts = spec.templateFacts(tree);
  for (const c of facts.containers) acc.containers.push({ ...c, start: c.start + shift, end: c.end + shift });
  for (const d of facts.defs) {
    const start = d.start + shift;
    const end = d.end + shift;
    const nameStart = d.nameStart + shift;
    acc.defsByNode.set(`${start}:${end}:${nameStart}`, {
      ...d,
      start,
      end,
      nameStart,
      nameEnd: d.nameEnd + shift,
      container: null,
    });
  }
}

/** Parse one level of macro bodies as items, all in one joined text (each alone when that text has errors). */
function collectMacroItems(
  spec: LanguageSpec,
  bodies: readonly Interval[],
  text: string,
  parser: Parser,
  query: Parser.Query,
  acc: Collected,
): void {
  const starts: number[] = [];
  const origins: number[] = [];
  const parts: string[] = [];
  let length = 0;
  const seen = new Set<number>();
  for (const body of bodies) {
    if (seen.has(body.start)) continue; // reported by two match windows
    seen.add(body.start);
    const inner = text.slice(body.start + 1, body.end - 1);
    if (!ITEM_KEYWORD.test(inner)) continue;
    starts.push(length);
    origins.push(body.start + 1);
    parts.push(inner);
    length += inner.length + 1;
  }
  if (parts.length === 0) return;
  const joined = parser.parse(parts.join('\n')).rootNode;
  if (!joined.hasError || parts.length === 1) {
    collectMatches(spec, query.matches(joined), segmentMap(starts, origins), acc, false);
    return;
  }
  // A body the grammar cannot read as items swallows the items of the bodies after it in
  // the joined parse: hyper's `ffi_fn! { fn f(…) -> T { … } ?= default }` hid 33 of its 61
  // C-API functions, with no parse failure to show for it (an agent trial). Each body alone,
  // and one that still has errors without the tail after its last `}` (the macro's own
  // syntax after the item it wraps), blanked so offsets stay.
  for (let i = 0; i < parts.length; i++) {
    let tree = parser.parse(parts[i]).rootNode;
    const close = parts[i].lastIndexOf('}');
    if (tree.hasError && close >= 0 && parts[i].slice(close + 1).trim() !== '') {
      const cut = parser.parse(parts[i].slice(0, close + 1) + ' '.repeat(parts[i].length - close - 1)).rootNode;
      if (!cut.hasError) tree = cut;
    }
    collectMatches(spec, query.matches(tree), segmentMap([0], [origins[i]]), acc, false);
  }
}

/** The symbol of tree-sitter's ERROR nodes in every grammar (`ts_builtin_sym_error`). */
const ERROR_SYMBOL = 65535;

/**
 * Offsets (sorted) where a focused extraction's name is spelled, and whether a node's span
 * [start, end) holds one of them: the only nodes its identifier walk enters.
 */
class Focus {
  constructor(readonly offsets: readonly number[]) {}

  holds(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.offsets.length && this.offsets[lo] < end;
  }
}

/** Every offset (UTF-16 units) where `name` is spelled in `text`, overlapping ones included. */
function spelledAt(text: string, name: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) out.push(at);
  return out;
}

/**
 * Identifier occurrences (`spec.identifiers`) in document order, by one cursor walk that
 * makes no node objects: positions and types are read off the cursor. An identifier node is
 * not descended into; one inside an ERROR node is marked `inError`; the text of a
 * `spec.lexical` node is read by lexicalIdentifiers. `kinds` caches the answer per node type id.
 * With `focus`, only nodes holding one of its offsets are entered or read: the identifiers
 * spelling the focused name are all found, most others are not.
 */
export function collectIdentifiers(
  tree: Parser.Tree,
  text: string,
  spec: LanguageSpec,
  kinds: Map<number, NodeIdentity>,
  out: Collected['ids'],
  roleAt: Collected['roleAt'],
  focus?: Focus,
): void {
  const cursor = tree.walk();
  // Whether each node descended into is an ERROR, and how many of them hold the cursor.
  const descended: boolean[] = [];
  let errors = 0;
  for (;;) {
    const typeId = cursor.nodeTypeId;
    let kind = kinds.get(typeId);
    if (kind === undefined) {
      const type = cursor.nodeType;
      kind = !cursor.nodeIsNamed
        ? null
        : Object.hasOwn(spec.identifiers, type)
          ? spec.identifiers[type]
          : spec.lexical?.types.has(type)
            ? 'lexical'
            : null;
      kinds.set(typeId, kind);
    }
    // A focused walk reads a node's span only where it matters: not below an identifier or lexical node it skips.
    const away = focus !== undefined && !focus.holds(cursor.startIndex, cursor.endIndex);
    if (kind === 'lexical') {
      if (spec.lexical && !away) lexicalIdentifiers(cursor.currentNode, text, spec.lexical, out, roleAt, errors > 0);
    } else if (kind === 'id.symbol') {
      // The name after the sigil, where a definition by symbol (`attr_reader :x`) puts its name.
      const start = cursor.startIndex + 1;
      const end = cursor.endIndex;
      if (!away && end > start)
        out.push({ start, end, name: text.slice(start, end), kind: 'id', ...(errors > 0 ? { inError: true } : {}) });
    } else if (kind !== null) {
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      if (!away) out.push({ start, end, name: text.slice(start, end), kind, ...(errors > 0 ? { inError: true } : {}) });
    } else if (!away) {
      const error = typeId === ERROR_SYMBOL;
      if (cursor.gotoFirstChild()) {
        descended.push(error);
        if (error) errors++;
        continue;
      }
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return;
      if (descended.pop()) errors--;
    }
  }
}

/** An identifier, or what must be skipped whole so no identifier is read inside it: a number, a comment, a literal. */
const LEXICAL_TOKEN =
  /[A-Za-z_]\w*|\d[\w.]*|\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?/g;

/**
 * The identifiers of a lexical node's text (LanguageSpec.lexical) as sites: one after `->`
 * or `.` is a field, one before `(` a call; keywords and the enclosing function-like
 * macro's parameters are left out.
 */
function lexicalIdentifiers(
  node: Parser.SyntaxNode,
  text: string,
  lexical: LexicalNodes,
  out: Collected['ids'],
  roleAt: Collected['roleAt'],
  inError: boolean,
): void {
  const params = new Set(
    (node.parent?.childForFieldName('parameters')?.namedChildren ?? []).map((p) =>
      text.slice(p.startIndex, p.endIndex),
    ),
  );
  const from = node.startIndex;
  const body = text.slice(from, node.endIndex);
  LEXICAL_TOKEN.lastIndex = 0;
  for (let m = LEXICAL_TOKEN.exec(body); m; m = LEXICAL_TOKEN.exec(body)) {
    const word = m[0];
    if (!/^[A-Za-z_]/.test(word) || lexical.keywords.has(word) || params.has(word)) continue;
    const start = from + m.index;
    // The last character before the word, blanks skipped (a prefix sliced per word was
    // quadratic in a long macro's body).
    let b = m.index - 1;
    while (b >= 0 && /\s/.test(body[b])) b--;
    const field = (body[b] === '>' && body[b - 1] === '-') || (body[b] === '.' && body[b - 1] !== '.');
    out.push({
      start,
      end: start + word.length,
      name: word,
      kind: field ? 'id.field' : 'id',
      ...(inError ? { inError } : {}),
    });
    if (!field && /^\s*\(/.test(body.slice(m.index + word.length, m.index + word.length + 40)))
      roleAt.set(start, ROLE.call);
  }
}

/** Syntax boundaries: the line start of each named node; only nodes larger than a region are descended into. */
function syntaxCuts(root: Parser.SyntaxNode, decoded: DecodedText, lineStarts: readonly number[]): CutPoint[] {
  const b = (u: number) => decoded.byteAt(u);
  const cuts: CutPoint[] = [];
  const cursor = root.walk();
  let depth = 0;
  const lineStartOf = (byte: number) => lineStarts[lineAt(lineStarts, byte) - 1];
  for (;;) {
    let large = depth === 0;
    if (depth > 0 && cursor.nodeIsNamed) {
      const startByte = b(cursor.startIndex);
      const endByte = b(cursor.endIndex);
      large = endByte - startByte > REGION_MAX_BYTES;
      cuts.push({ offset: lineStartOf(startByte), priority: SYNTAX_CUT_BASE - depth });
      const nextLine = lineAt(lineStarts, endByte);
      if (nextLine < lineStarts.length)
        cuts.push({ offset: lineStarts[nextLine], priority: SYNTAX_CUT_BASE - depth - 0.5 });
    }
    if (large && depth < SYNTAX_CUT_MAX_DEPTH && cursor.gotoFirstChild()) {
      depth++;
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        depth = -1;
        break;
      }
      depth--;
    }
    if (depth < 0) break;
  }
  return cuts;
}

/** How a repair's rewrite is parsed: from its predecessor's edited tree, or from scratch. */
export type Reparse = 'incremental' | 'full';

/**
 * Parse, then while the tree has errors try the language's repair; a rewrite is kept only
 * when it has fewer errors. A tree too broken to count (a generated file erring on every
 * token) is not repaired: a rewrite could not be shown to help.
 *
 * Where the language allows it (spec.incrementalRepair), the rewrite is parsed from the tree
 * it repairs (edits.ts): the same tree, measured, in less time. Editing that tree is not
 * harmless even at the same length: tree-sitter stretches a node an edit starts inside to
 * the edit's end, so after a rejected rewrite the tree no longer describes its text; parsing
 * the text again from the edited tree restores it, at the same incremental cost.
 */
export function parseRepaired(
  parser: Parser,
  spec: LanguageSpec,
  source: string,
  reparse: Reparse = 'incremental',
): { text: string; tree: Parser.Tree } {
  let text = source;
  let tree = parser.parse(text);
  if (!spec.repair || !tree.rootNode.hasError) return { text, tree };
  let errors = treeErrors(tree).count;
  for (let round = 0; round < REPAIR_ROUNDS_MAX && errors > 0 && errors !== Infinity; round++) {
    const repaired = spec.repair(text, tree);
    if (repaired === text) break;
    let next: Parser.Tree;
    // A rewrite of another length breaks the repair contract (spec.ts); it is parsed whole.
    const incremental = reparse === 'incremental' && spec.incrementalRepair === true && repaired.length === text.length;
    if (incremental) {
      for (const edit of sameLengthEdits(text, mergeRuns(changedRuns(text, repaired), REPAIR_EDITS_MAX)))
        tree.edit(edit);
      next = parser.parse(repaired, tree);
    } else next = parser.parse(repaired);
    const nextErrors = next.rootNode.hasError ? treeErrors(next).count : 0;
    if (nextErrors >= errors) {
      if (incremental) tree = parser.parse(text, tree);
      break;
    }
    text = repaired;
    tree = next;
    errors = nextErrors;
  }
  return { text, tree };
}

/** A line of annotation words alone (`noinline`, `asmlinkage __visible`): no punctuation, no directive. */
const ANNOTATION_LINE = /^[ \t]*[A-Za-z_]\w*(?:[ \t]+[A-Za-z_]\w*)*[ \t]*\r?$/;

/**
 * `start` moved back over the same line's characters a repair blanked, and over the lines
 * just above that a repair blanked whole when they hold annotation words alone: the
 * kernel's `noinline` ⏎ `int kstrtoull(…)` spanned from `int`, so the definition lost its
 * first line and, no longer adjacent, its kerneldoc (an agent trial).
 */
function startBeforeBlanks(original: string, repaired: string, start: number): number {
  let k = start;
  while (k > 0 && (repaired[k - 1] === ' ' || repaired[k - 1] === '\t')) k--;
  for (let up = 0; up < ANNOTATION_LINES_ABOVE_MAX && k > 0 && original[k - 1] === '\n'; up++) {
    const from = original.lastIndexOf('\n', k - 2) + 1;
    const line = original.slice(from, k - 1);
    if (repaired.slice(from, k - 1).trim() !== '' || line.trim() === '' || !ANNOTATION_LINE.test(line)) break;
    k = from;
  }
  while (k < start && /\s/.test(original[k])) k++;
  return k;
}

/**
 * For each span (UTF-16 units of `text`), whether it parsed without an error: the smallest
 * node covering it holds no ERROR or MISSING node and no ancestor of it is an ERROR. The
 * text is prepared and repaired as treeSitterFacts does, so the tree is the one its facts
 * came from.
 */
export function spansParsedCleanly(
  lang: TreeSitterLanguage,
  text: string,
  spans: readonly { readonly start: number; readonly end: number }[],
): boolean[] {
  const { parser, spec } = parserFor(lang);
  const { tree } = parseRepaired(parser, spec, spec.prepare?.(text).text ?? text);
  return spans.map(({ start, end }) => {
    let node: Parser.SyntaxNode | null = tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
    if (node.hasError) return false;
    for (node = node.parent; node; node = node.parent) if (node.type === 'ERROR') return false;
    return true;
  });
}

/**
 * Facts of one file's parse. With `focus` (a name; extract.ts extractOccurrences), only the
 * sites of that name are wanted: the query runs over the range from the first place the name
 * is spelled to the last (a match is returned when one of its nodes meets the range, so
 * every definition, range and role capture holding an occurrence is among them), the identifier walk enters only the
 * nodes holding one, and no region cuts are made. The sites of the name are those of the
 * whole extraction; other facts are partial. A language whose module names come from all
 * its imports (Go) is extracted whole.
 */
export function treeSitterFacts(
  lang: TreeSitterLanguage,
  decoded: DecodedText,
  lineStarts: readonly number[],
  reparse: Reparse = 'incremental',
  focus?: string,
): RawFacts {
  const { parser, query, spec, identifierKinds } = parserFor(lang);
  const prepared = spec.prepare?.(decoded.text);
  const { text, tree } = parseRepaired(parser, spec, prepared?.text ?? decoded.text, reparse);
  const root = tree.rootNode;
  const acc: Collected = {
    defsByNode: new Map(),
    containers: [],
    importRanges: [],
    localRanges: [],
    noneRanges: [],
    roleAt: new Map(),
    ids: [],
    macroBodies: [],
    imports: [],
    importSeen: new Set(),
    weakDefs: new Set(),
    templatesSeen: new Set(),
  };
  // A large file is matched in windows of rows: all matches of a whole file at once were
  // the largest transient allocation of extraction. Nodes crossing a window edge come back
  // twice; definitions, ranges, imports and identifier positions are deduplicated.
  const focused =
    focus !== undefined && focus !== '' && !spec.moduleNames ? new Focus(spelledAt(text, focus)) : undefined;
  if (focused) {
    // One range from the first spelling to the last: one range per spelling was slower than
    // the whole file (each is a walk from the root), ranges split at gaps of 1,000 to 16,000
    // units no faster than one (kernel files, docs/navigation.md). The binding parses UTF-16
    // text: its byte ranges are two per unit.
    const at = focused.offsets;
    if (at.length > 0)
      collectMatches(
        spec,
        query.matches(root, { startIndex: 2 * at[0], endIndex: 2 * (at[at.length - 1] + focus!.length) }),
        IDENTITY,
        acc,
        true,
      );
  } else {
    const rows = root.endPosition.row + 1;
    const window = text.length > WINDOWED_MATCH_MIN_CHARS ? WINDOW_ROWS : rows;
    for (let row = 0; row < rows; row += window) {
      const range =
        window === rows
          ? undefined
          : { startPosition: { row, column: 0 }, endPosition: { row: row + window, column: 0 } };
      collectMatches(spec, query.matches(root, range), IDENTITY, acc, true);
    }
  }
  collectIdentifiers(tree, text, spec, identifierKinds, acc.ids, acc.roleAt, focused);
  // Rust items inside macro invocations (`cfg_rt! { pub struct JoinHandle … }`) are token
  // trees to the grammar; parse their bodies as items so those definitions are found too.
  for (let depth = 0; depth < MACRO_ITEM_DEPTH && acc.macroBodies.length > 0; depth++) {
    collectMacroItems(spec, acc.macroBodies.splice(0), text, parser, query, acc);
  }
  // A definition whose head lost words to a repair (`asmlinkage __visible void …`) still starts where its line's code does.
  const unrepaired = prepared?.text ?? decoded.text;
  if (text !== unrepaired)
    for (const d of acc.defsByNode.values()) d.start = startBeforeBlanks(unrepaired, text, d.start);
  for (const { owner, ...d } of prepared?.defs ?? [])
    acc.defsByNode.set(`${d.start}:${d.end}:${d.nameStart}`, {
      ...d,
      container: owner ?? null,
      ...(owner !== undefined ? { explicitOwner: true } : {}),
    });
  const defs = [...acc.defsByNode.values()];
  for (const d of spec.derive?.(unrepaired, defs) ?? []) defs.push({ ...d, container: null });
  defs.sort((x, y) => x.start - y.start || y.end - x.end);
  resolveOwners(defs, acc.containers, spec.ownerKinds ?? CONTAINER_KINDS, spec.globalKinds);
  const declAt = new Set(defs.map((d) => d.nameStart));
  const imports = mergeIntervals(acc.importRanges);
  const locals = mergeIntervals(acc.localRanges);
  const none = mergeIntervals(acc.noneRanges);
  const ids = acc.ids;
  for (const t of prepared?.typeIds ?? []) ids.push({ ...t, kind: 'id.type' });
  // Names a rewrite blanked are still used where they were spelled: `refs ABSL_NAMESPACE_BEGIN`
  // found its 2 definitions and none of its 287 files' uses, and said nothing of them (a C++ trial).
  if (spec.blankedNames && text !== decoded.text)
    for (const b of spec.blankedNames(decoded.text, text))
      if (!focused || b.name === focus) ids.push({ ...b, kind: 'id' });
  ids.sort((x, y) => x.start - y.start);
  const moduleNames = new Set(spec.moduleNames?.(acc.imports) ?? []);
  const sites: RawSite[] = [];
  let lastStart = -1;
  for (const id of ids) {
    if (id.start === lastStart) continue; // one node captured by two id patterns
    lastStart = id.start;
    const name = id.name.replace(/^#/, '');
    if (!name) continue;
    const explicit = acc.roleAt.get(id.start);
    let role: number;
    if (declAt.has(id.start)) role = ROLE.declaration;
    else if (inIntervals(none, id.start)) continue;
    else if (explicit === ROLE.call) role = ROLE.call;
    else if (inIntervals(imports, id.start)) role = ROLE.import;
    else if (explicit !== undefined) role = explicit;
    else if (id.kind === 'id' && inIntervals(locals, id.start)) role = ROLE.local;
    else if (moduleNames.has(name) && text[id.end] === '.') role = ROLE.module;
    else if (id.kind === 'id.type') role = ROLE.type;
    else if (id.kind === 'id.field') role = ROLE.member;
    else role = ROLE.reference;
    sites.push({ start: id.start, end: id.end, name, role, ...(id.inError ? { inError: true } : {}) });
  }
  return {
    defs,
    sites,
    imports: acc.imports.sort((x, y) => x.start - y.start),
    cuts: focused ? [] : syntaxCuts(root, decoded, lineStarts),
    parse: root.hasError ? 'partial' : 'ok',
  };
}
