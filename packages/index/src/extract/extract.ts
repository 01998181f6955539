import { splitIdentifier } from '@trufflepig/rank';
import type { ExtractionLanguage, Language } from '../classify';
import { FACTS_PER_FILE_MAX } from '../limits';
import { dreamMakerFacts } from './dreammaker';
import {
  ROLE,
  roleNames,
  type Definition,
  type Extraction,
  type ImportFact,
  type NameUse,
  type Occurrence,
  type ParseStatus,
  type Region,
  qualifiedName,
} from './facts';
import type { RawFacts } from './raw';
import { cutRegions, type CutPoint } from './regions';
import { extensionlessLanguage, looksLikeCpp } from './lang/c-family';
import { spansParsedCleanly, treeSitterFacts } from './treesitter';
import { decodeText, lineAt, lineStartOffsets, unitAtByte, type DecodedText } from './text';

const PARAGRAPH_CUT_PRIORITY = 5;

/**
 * The language a file's bytes are extracted as: its path's, except a C-named file whose
 * syntax is C++, and a file without extension, which is C or C++ when its bytes are
 * (`text` otherwise).
 */
function contentLanguage(lang: Exclude<ExtractionLanguage, 'text'>, decoded: DecodedText): Language {
  if (lang === 'extensionless') return extensionlessLanguage(decoded.text);
  return lang === 'c' && looksLikeCpp(decoded.text) ? 'cpp' : lang;
}

/** The raw facts of a file; with `focus`, the sites of that name only are complete (treeSitterFacts). */
function rawFacts(
  lang: Exclude<Language, 'text'>,
  decoded: DecodedText,
  lineStarts: number[],
  focus?: string,
): RawFacts {
  return lang === 'dreammaker'
    ? dreamMakerFacts(decoded, lineStarts)
    : treeSitterFacts(lang, decoded, lineStarts, 'incremental', focus);
}

/** Map raw facts to bytes: definitions, aggregated name uses and imports. */
function assemble(raw: RawFacts, decoded: DecodedText, lineStarts: number[]) {
  const b = (u: number) => decoded.byteAt(u);
  const uses = new Map<string, { count: number; roles: number; repStart: number; repEnd: number; repRole: number }>();
  let facts = raw.defs.length;
  let factLimited = false;
  for (const site of raw.sites) {
    if (facts >= FACTS_PER_FILE_MAX) {
      factLimited = true;
      break;
    }
    facts++;
    const { name, role } = site;
    const u = uses.get(name);
    if (!u) uses.set(name, { count: 1, roles: role, repStart: site.start, repEnd: site.end, repRole: role });
    else {
      u.count++;
      u.roles |= role;
      if (role === ROLE.declaration && u.repRole !== ROLE.declaration) {
        u.repStart = site.start;
        u.repEnd = site.end;
        u.repRole = role;
      }
    }
  }
  const definitions: Definition[] = raw.defs.map((d) => {
    const start = b(d.start);
    const end = b(d.end);
    return {
      name: d.name,
      kind: d.kind,
      container: d.container,
      start,
      end,
      startLine: lineAt(lineStarts, start),
      endLine: lineAt(lineStarts, Math.max(start, end - 1)),
      nameStart: b(d.nameStart),
      nameEnd: b(d.nameEnd),
    };
  });
  const names: NameUse[] = [];
  for (const [name, u] of uses) {
    const start = b(u.repStart);
    names.push({ name, count: u.count, roles: u.roles, start, end: b(u.repEnd), line: lineAt(lineStarts, start) });
  }
  const imports: ImportFact[] = raw.imports.map((i) => {
    const start = b(i.start);
    return {
      spelled: i.spelled,
      name: i.name,
      alias: i.alias,
      reexport: i.reexport,
      start,
      end: b(i.end),
      line: lineAt(lineStarts, start),
    };
  });
  return { definitions, names, imports, factLimited };
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

function regionSymbol(
  defs: readonly Definition[],
  lineStarts: readonly number[],
  start: number,
  end: number,
): string | null {
  let best: Definition | null = null;
  for (const d of defs) {
    const defLineStart = lineStarts[d.startLine - 1];
    if (defLineStart > start) break;
    const defLineEnd = d.endLine < lineStarts.length ? lineStarts[d.endLine] : d.end;
    if (defLineEnd >= end && (!best || d.end - d.start <= best.end - best.start)) best = d;
  }
  if (!best) return null;
  return qualifiedName(best);
}

/**
 * Extract facts and regions of one file's bytes. Never throws on bad source: it degrades
 * to text. The extraction's `lang` names the language chosen when it is not `lang`.
 */
export function extractFile(lang: ExtractionLanguage, bytes: Uint8Array): Extraction {
  const decoded = decodeText(bytes);
  const lineStarts = lineStartOffsets(bytes);
  let definitions: Definition[] = [];
  let names: NameUse[] = [];
  let imports: ImportFact[] = [];
  let cuts: CutPoint[];
  let parse: ParseStatus = 'none';
  let factLimited = false;
  const chosen = lang === 'text' ? 'text' : contentLanguage(lang, decoded);
  if (chosen !== 'text') {
    try {
      const raw = rawFacts(chosen, decoded, lineStarts);
      ({ definitions, names, imports, factLimited } = assemble(raw, decoded, lineStarts));
      cuts = raw.cuts;
      parse = raw.parse;
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
      start,
      end,
      startLine: lineAt(lineStarts, start),
      endLine: lineAt(lineStarts, Math.max(start, end - 1)),
      symbol,
      body,
      idents: identifierExpansions(body, symbol),
    };
  });
  return { ...(chosen !== lang ? { lang: chosen } : {}), definitions, names, regions, imports, parse, factLimited };
}

/**
 * Whether each span (bytes) of a file parsed without an error (treesitter.ts
 * spansParsedCleanly); navigation asks it of definitions' names. A file that parses
 * partially still holds many such definitions (a kernel header whose macros confuse the
 * grammar elsewhere): a resolver may be certain of those. False for every span of a file
 * without a grammar, not valid UTF-8, or that fails to parse.
 */
export function definitionsParsedCleanly(
  lang: Language,
  bytes: Uint8Array,
  spans: readonly { readonly start: number; readonly end: number }[],
): boolean[] {
  const none = spans.map(() => false);
  if (lang === 'text' || lang === 'dreammaker') return none;
  const decoded = decodeText(bytes);
  // A text that is not valid UTF-8 has no units to map its bytes to: nothing is certain.
  if (!decoded.validUtf8) return none;
  const unit = (byte: number) => unitAtByte(decoded, bytes, byte) ?? 0;
  try {
    const chosen = contentLanguage(lang, decoded);
    if (chosen === 'dreammaker' || chosen === 'text') return none;
    return spansParsedCleanly(
      chosen,
      decoded.text,
      spans.map((s) => ({ start: unit(s.start), end: unit(s.end) })),
    );
  } catch {
    return none;
  }
}

/**
 * Every identifier occurrence of a file with its role, in source order (at most
 * FACTS_PER_FILE_MAX), or with `name` every occurrence of that name alone, however deep in
 * the file. The store keeps one representative site per name and file (the database stays
 * small); reference sites are recomputed from the files that the `use` table names. Text
 * files have none.
 */
export function extractOccurrences(lang: Language, bytes: Uint8Array, name?: string): Occurrence[] {
  if (lang === 'text') return [];
  const decoded = decodeText(bytes);
  const lineStarts = lineStartOffsets(bytes);
  const chosen = contentLanguage(lang, decoded);
  if (chosen === 'text') return [];
  let raw: RawFacts;
  try {
    raw = rawFacts(chosen, decoded, lineStarts, name);
  } catch {
    return [];
  }
  const sites = name === undefined ? raw.sites.slice(0, FACTS_PER_FILE_MAX) : raw.sites.filter((s) => s.name === name);
  return sites.map((s) => {
    const start = decoded.byteAt(s.start);
    return {
      name: s.name,
      role: roleNames(s.role)[0],
      start,
      end: decoded.byteAt(s.end),
      line: lineAt(lineStarts, start),
      ...(s.inError ? { inError: true } : {}),
    };
  });
}
