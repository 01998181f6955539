import type Parser from 'tree-sitter';
import { splitIdentifier } from '@trufflepig/rank';
import type { Language } from '../classify';
import { FACTS_PER_FILE_MAX, REGION_MAX_BYTES } from '../limits';
import { ROLE, type Definition, type Extraction, type NameUse, type ParseStatus, type Region } from './facts';
import { parserFor, type CodeLanguage } from './grammars';
import { cutRegions, type CutPoint } from './regions';
import { decodeText, lineAt, lineStartOffsets, type DecodedText } from './text';

/** Kinds that own the definitions nested in them (`Owner::member`). */
const CONTAINER_KINDS = new Set(['struct', 'enum', 'trait', 'class', 'interface', 'module', 'impl']);
/** Cut priority of a syntax boundary at nesting depth d (top level is strongest). */
const SYNTAX_CUT_BASE = 10;
const SYNTAX_CUT_MAX_DEPTH = 5;
const PARAGRAPH_CUT_PRIORITY = 5;

interface Interval { start: number; end: number }

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
  return parts[parts.length - 1].replace(/^&\s*(mut\s+)?/, '').trim();
}

function isTopLevelDeclarator(node: Parser.SyntaxNode): boolean {
  const decl = node.parent;
  const scope = decl?.parent;
  if (!scope) return false;
  if (scope.type === 'program' || scope.type === 'export_statement') return true;
  return scope.type === 'statement_block' && scope.parent?.type === 'internal_module';
}

interface RawDef { name: string; kind: string; start: number; end: number; nameStart: number; nameEnd: number; container: string | null }

interface Collected {
  defsByNode: Map<string, RawDef>;
  containers: { start: number; end: number; name: string; kind: string }[];
  importRanges: Interval[];
  localRanges: Interval[];
  callAt: Set<number>;
  moduleAt: Set<number>;
  ids: { start: number; end: number; name: string; kind: string }[];
  macroBodies: Interval[];
}

/** Files longer than this (UTF-16 units) are matched in windows of WINDOW_ROWS rows. */
const WINDOWED_MATCH_MIN_CHARS = 64 * 1024;
const WINDOW_ROWS = 1500;

/** Nesting of macro bodies re-parsed as items. */
const MACRO_ITEM_DEPTH = 3;
const ITEM_KEYWORD = /\b(fn|struct|enum|trait|impl|mod|type|const|static|union)\b/;

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
  const segment = (i: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return { segment, at: (i) => { const k = segment(i); return origins[k] + (i - starts[k]); } };
}

/** A node's span in the file, or undefined when it straddles two joined macro bodies. */
function spanOf(node: Parser.SyntaxNode, map: PositionMap): Interval | undefined {
  const last = Math.max(node.startIndex, node.endIndex - 1);
  if (map.segment(node.startIndex) !== map.segment(last)) return undefined;
  return { start: map.at(node.startIndex), end: map.at(last) + (node.endIndex > node.startIndex ? 1 : 0) };
}

/**
 * Fold query matches into the collected facts, positions mapped into the file.
 * Identifier occurrences are taken from the file's own parse only, so nothing inside a
 * macro body is counted twice.
 */
function collectMatches(matches: Parser.QueryMatch[], map: PositionMap, acc: Collected, withIds: boolean): void {
  for (const match of matches) {
    let def: Parser.SyntaxNode | undefined;
    let defKind = '';
    let nameNode: Parser.SyntaxNode | undefined;
    let implNode: Parser.SyntaxNode | undefined;
    let implType: Parser.SyntaxNode | undefined;
    for (const cap of match.captures) {
      const n = cap.name;
      const node = cap.node;
      if (n.startsWith('def.')) { def = node; defKind = n.slice(4); }
      else if (n === 'name') nameNode = node;
      else if (n === 'container.impl') implNode = node;
      else if (n === 'container.type') implType = node;
      else if (withIds && n.startsWith('id')) acc.ids.push({ start: node.startIndex, end: node.endIndex, name: node.text, kind: n });
      else {
        const span = spanOf(node, map);
        if (!span) continue;
        if (n === 'range.import') acc.importRanges.push(span);
        else if (n === 'range.local') acc.localRanges.push(span);
        else if (n === 'role.call') acc.callAt.add(span.start);
        else if (n === 'role.module') acc.moduleAt.add(span.start);
        else if (n === 'macro.body') acc.macroBodies.push(span);
      }
    }
    const impl = implNode && implType ? spanOf(implNode, map) : undefined;
    if (impl) acc.containers.push({ ...impl, name: implTypeName(implType!.text), kind: 'impl' });
    if (!def || !nameNode) continue;
    if (defKind === 'variable' || (defKind === 'function' && def.type === 'variable_declarator')) {
      if (!isTopLevelDeclarator(def)) continue;
      if (defKind === 'variable' && def.parent?.text.startsWith('const')) defKind = 'constant';
    }
    const whole = spanOf(def, map);
    const name = spanOf(nameNode, map);
    if (!whole || !name) continue;
    const key = `${whole.start}:${whole.end}:${name.start}`;
    const prev = acc.defsByNode.get(key);
    if (prev && prev.kind === 'function') continue;
    acc.defsByNode.set(key, {
      name: nameNode.text.replace(/^#/, ''), kind: defKind, start: whole.start, end: whole.end,
      nameStart: name.start, nameEnd: name.end, container: null,
    });
  }
}

/** Parse one level of macro bodies as items, all in one joined text. */
function collectMacroItems(bodies: readonly Interval[], text: string, parser: Parser, query: Parser.Query, acc: Collected): void {
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
  collectMatches(query.matches(parser.parse(parts.join('\n')).rootNode), segmentMap(starts, origins), acc, false);
}

function codeFacts(lang: CodeLanguage, decoded: DecodedText, lineStarts: number[], bytes: Uint8Array) {
  const { parser, query } = parserFor(lang);
  const tree = parser.parse(decoded.text);
  const root = tree.rootNode;
  const b = (u: number) => decoded.byteAt(u);
  const acc: Collected = {
    defsByNode: new Map(), containers: [], importRanges: [], localRanges: [], callAt: new Set(), moduleAt: new Set(), ids: [], macroBodies: [],
  };
  // A large file is matched in windows of rows: all matches of a whole file at once were
  // the largest transient allocation of extraction. Nodes crossing a window edge come back
  // twice; definitions, ranges and identifier positions are deduplicated downstream.
  const rows = root.endPosition.row + 1;
  const window = decoded.text.length > WINDOWED_MATCH_MIN_CHARS ? WINDOW_ROWS : rows;
  for (let row = 0; row < rows; row += window) {
    const range = window === rows ? undefined : { startPosition: { row, column: 0 }, endPosition: { row: row + window, column: 0 } };
    collectMatches(query.matches(root, range), IDENTITY, acc, true);
  }
  // Rust items inside macro invocations (`cfg_rt! { pub struct JoinHandle … }`) are token
  // trees to the grammar; parse their bodies as items so those definitions are found too.
  for (let depth = 0; depth < MACRO_ITEM_DEPTH && acc.macroBodies.length > 0; depth++) {
    collectMacroItems(acc.macroBodies.splice(0), decoded.text, parser, query, acc);
  }
  const { defsByNode, containers, importRanges, localRanges, callAt, moduleAt, ids } = acc;
  const rawDefs = [...defsByNode.values()].sort((x, y) => x.start - y.start || y.end - x.end);
  // Owners: impl blocks and container-kind definitions, innermost first.
  const owners = [
    ...containers,
    ...rawDefs.filter((d) => CONTAINER_KINDS.has(d.kind)).map((d) => ({ start: d.start, end: d.end, name: d.name, kind: d.kind })),
  ].sort((x, y) => x.start - y.start || y.end - x.end);
  for (const d of rawDefs) {
    let owner: (typeof owners)[number] | undefined;
    for (const o of owners) {
      if (o.start > d.start) break;
      if (o.end >= d.end && !(o.start === d.start && o.end === d.end)) owner = o;
    }
    if (owner) {
      d.container = owner.name;
      if (d.kind === 'function' && (owner.kind === 'impl' || owner.kind === 'trait' || owner.kind === 'class' || owner.kind === 'interface')) d.kind = 'method';
    }
  }
  const declAt = new Set(rawDefs.map((d) => d.nameStart));
  const imports = mergeIntervals(importRanges);
  const locals = mergeIntervals(localRanges);
  ids.sort((x, y) => x.start - y.start);
  const uses = new Map<string, { count: number; roles: number; repStart: number; repEnd: number; repRole: number }>();
  let facts = rawDefs.length;
  let factLimited = false;
  let lastStart = -1;
  for (const id of ids) {
    if (id.start === lastStart) continue; // one node captured by two id patterns
    lastStart = id.start;
    if (facts >= FACTS_PER_FILE_MAX) { factLimited = true; break; }
    facts++;
    const name = id.name.replace(/^#/, '');
    if (!name) continue;
    let role: number;
    if (declAt.has(id.start)) role = ROLE.declaration;
    else if (callAt.has(id.start)) role = ROLE.call;
    else if (inIntervals(imports, id.start)) role = ROLE.import;
    else if (id.kind === 'id' && inIntervals(locals, id.start)) role = ROLE.local;
    else if (moduleAt.has(id.start)) role = ROLE.module;
    else if (id.kind === 'id.type') role = ROLE.type;
    else if (id.kind === 'id.field') role = ROLE.member;
    else role = ROLE.reference;
    const u = uses.get(name);
    if (!u) uses.set(name, { count: 1, roles: role, repStart: id.start, repEnd: id.end, repRole: role });
    else {
      u.count++;
      u.roles |= role;
      if (role === ROLE.declaration && u.repRole !== ROLE.declaration) { u.repStart = id.start; u.repEnd = id.end; u.repRole = role; }
    }
  }
  const definitions: Definition[] = rawDefs.map((d) => {
    const start = b(d.start);
    const end = b(d.end);
    return {
      name: d.name, kind: d.kind, container: d.container, start, end,
      startLine: lineAt(lineStarts, start), endLine: lineAt(lineStarts, Math.max(start, end - 1)),
      nameStart: b(d.nameStart), nameEnd: b(d.nameEnd),
    };
  });
  const names: NameUse[] = [];
  for (const [name, u] of uses) {
    const start = b(u.repStart);
    names.push({ name, count: u.count, roles: u.roles, start, end: b(u.repEnd), line: lineAt(lineStarts, start) });
  }
  // Syntax boundaries: the line start of each named node. Only nodes larger than a region
  // need boundaries inside them, so the walk descends into those alone.
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
      if (nextLine < lineStarts.length) cuts.push({ offset: lineStarts[nextLine], priority: SYNTAX_CUT_BASE - depth - 0.5 });
    }
    if (large && depth < SYNTAX_CUT_MAX_DEPTH && cursor.gotoFirstChild()) { depth++; continue; }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) { depth = -1; break; }
      depth--;
    }
    if (depth < 0) break;
  }
  const parse: ParseStatus = root.hasError ? 'partial' : 'ok';
  void bytes;
  return { definitions, names, cuts, parse, factLimited };
}

function textCuts(bytes: Uint8Array, lineStarts: readonly number[]): CutPoint[] {
  const cuts: CutPoint[] = [];
  for (let i = 1; i < lineStarts.length; i++) {
    const s = lineStarts[i];
    // A blank line before this one makes it a paragraph start.
    const prev = lineStarts[i - 1];
    const blank = s - prev <= 2 && (s - prev === 1 || bytes[prev] === 0x0d);
    if (blank) cuts.push({ offset: s, priority: PARAGRAPH_CUT_PRIORITY });
    else if (bytes[s] === 0x23 /* # heading */) cuts.push({ offset: s, priority: PARAGRAPH_CUT_PRIORITY + 1 });
  }
  return cuts;
}

const HUMP = /[a-z][A-Z]|[A-Z][A-Z][a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;

/** Words of identifiers whose case humps the FTS tokenizer cannot split on its own. */
export function identifierExpansions(text: string, symbol: string | null): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
    const id = m[0];
    if (seen.has(id) || !HUMP.test(id)) continue;
    seen.add(id);
    out.push(splitIdentifier(id).join(' '));
  }
  if (symbol) out.push(splitIdentifier(symbol).join(' '));
  return out.join(' ; ');
}

function regionSymbol(defs: readonly Definition[], lineStarts: readonly number[], start: number, end: number): string | null {
  let best: Definition | null = null;
  for (const d of defs) {
    const defLineStart = lineStarts[d.startLine - 1];
    if (defLineStart > start) break;
    const defLineEnd = d.endLine < lineStarts.length ? lineStarts[d.endLine] : d.end;
    if (defLineEnd >= end && (!best || d.end - d.start <= best.end - best.start)) best = d;
  }
  if (!best) return null;
  return best.container ? `${best.container}::${best.name}` : best.name;
}

/** Extract facts and regions of one file's bytes. Never throws on bad source: it degrades to text. */
export function extractFile(lang: Language, bytes: Uint8Array): Extraction {
  const decoded = decodeText(bytes);
  const lineStarts = lineStartOffsets(bytes);
  let definitions: Definition[] = [];
  let names: NameUse[] = [];
  let cuts: CutPoint[];
  let parse: ParseStatus = 'none';
  let factLimited = false;
  if (lang !== 'text') {
    try {
      const f = codeFacts(lang, decoded, lineStarts, bytes);
      ({ definitions, names, cuts, parse, factLimited } = f);
    } catch {
      parse = 'failed';
      cuts = textCuts(bytes, lineStarts);
    }
  } else {
    cuts = textCuts(bytes, lineStarts);
  }
  const regions: Region[] = cutRegions(bytes, cuts, lineStarts).map(([start, end]) => {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
    const symbol = regionSymbol(definitions, lineStarts, start, end);
    return {
      start, end, startLine: lineAt(lineStarts, start), endLine: lineAt(lineStarts, Math.max(start, end - 1)),
      symbol, body, idents: identifierExpansions(body, symbol),
    };
  });
  return { definitions, names, regions, parse, factLimited };
}
