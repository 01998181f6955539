// DreamMaker has no grammar: a dedicated scanner for its path-based definitions.
// `/obj/item/crayon` defines type `crayon` owned by `/obj/item`; children nested by
// indentation or braces inherit the parent path; `proc`/`verb` introduce procs, `var`
// variables; lines below a proc are code. Rules and gaps: docs/languages.md.
import { ROLE } from './facts';
import { DREAMMAKER_MASK, maskText } from './mask';
import type { RawDef, RawFacts, RawSite } from './raw';
import type { CutPoint } from './regions';
import type { RawImport } from './spec';
import { lineAt, type DecodedText } from './text';

const TOP_LEVEL_CUT = 10;
const KEYWORDS = new Set([
  'if',
  'else',
  'for',
  'while',
  'do',
  'switch',
  'return',
  'break',
  'continue',
  'in',
  'to',
  'step',
  'as',
  'new',
  'del',
  'spawn',
  'sleep',
  'var',
  'proc',
  'verb',
  'src',
  'usr',
  'world',
  'null',
  'TRUE',
  'FALSE',
  'global',
  'const',
  'static',
  'tmp',
  'set',
  'goto',
  'try',
  'catch',
  'throw',
  'list',
  'args',
  'final',
]);
const VAR_MODIFIERS = new Set(['const', 'global', 'static', 'tmp', 'final']);

interface Frame {
  indent: number;
  brace: boolean;
  path: string[];
  code: boolean;
  defs: RawDef[];
}

const PATH = /\/?[A-Za-z_]\w*(?:\/[A-Za-z_]\w*)*/y;
const IDENT = /[A-Za-z_]\w*/g;

class Scanner {
  readonly defs: RawDef[] = [];
  readonly sites: RawSite[] = [];
  readonly imports: RawImport[] = [];
  readonly stack: Frame[] = [];
  broken = false;
  constructor(
    readonly text: string,
    readonly code: string,
  ) {}

  top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  site(start: number, name: string, role: number): void {
    this.sites.push({ start, end: start + name.length, name, role });
  }

  /** Identifiers of code: calls, members, `/type/paths`, `var/` locals, references. */
  scanCode(from: number, to: number): void {
    const s = this.code.slice(from, to);
    IDENT.lastIndex = 0;
    let declaringLocal = false;
    for (let m = IDENT.exec(s); m; m = IDENT.exec(s)) {
      const name = m[0];
      const at = m.index;
      if (/^\d/.test(name)) continue;
      const before = s[at - 1];
      if (name === 'var' && s[at + 3] === '/') {
        declaringLocal = true;
        continue;
      }
      if (KEYWORDS.has(name)) continue;
      const after = s.slice(at + name.length).match(/^\s*(.)/)?.[1];
      let role: number;
      if (declaringLocal && before === '/') {
        const last = s[at + name.length] !== '/';
        role = last ? ROLE.local : ROLE.type;
        if (last) declaringLocal = false;
      } else if (after === '(') role = ROLE.call;
      else if (before === '.' || (before === ':' && s[at - 2] !== ':')) role = ROLE.member;
      else if (before === '/') role = ROLE.type;
      else role = ROLE.reference;
      this.site(from + at, name, role);
    }
  }

  /** Close frames the line at `indent` is not nested in; extend the definitions of the ones it is. */
  enterLine(indent: number, lineEnd: number): void {
    while (this.stack.length > 0) {
      const t = this.top()!;
      if (t.brace || t.indent < indent) break;
      this.stack.pop();
    }
    for (const f of this.stack) for (const d of f.defs) d.end = Math.max(d.end, lineEnd);
  }

  /** One statement in a type context (a path line) or code. Returns the frame it opens, if any. */
  statement(from: number, to: number, indent: number): Frame | undefined {
    const ctx = this.top();
    const c = this.code;
    let i = from;
    while (i < to && /\s/.test(c[i])) i++;
    if (i >= to) return undefined;
    if (ctx?.code) {
      this.scanCode(i, to);
      return undefined;
    }
    PATH.lastIndex = i;
    const m = PATH.exec(c);
    if (!m || m.index !== i || m.index + m[0].length > to) {
      this.scanCode(i, to);
      return undefined;
    }
    const spelled = m[0];
    const rel = spelled.replace(/^\//, '').split('/');
    const base = spelled.startsWith('/') && !ctx ? [] : (ctx?.path ?? []);
    const path = [...base, ...rel];
    const segStarts: number[] = [];
    let p = i + (spelled.startsWith('/') ? 1 : 0);
    for (const seg of rel) {
      segStarts.push(p);
      p += seg.length + 1;
    }
    let j = i + spelled.length;
    while (j < to && (c[j] === ' ' || c[j] === '\t')) j++;
    const nameAt = segStarts[segStarts.length - 1];
    const name = path[path.length - 1];
    const typeRefs = (upTo: number) => {
      for (let k = 0; k < upTo; k++)
        if (!KEYWORDS.has(rel[k]) && !VAR_MODIFIERS.has(rel[k])) this.site(segStarts[k], rel[k], ROLE.type);
    };
    const varAt = path.indexOf('var');
    const procAt = Math.max(path.indexOf('proc'), path.indexOf('verb'));
    const owner = (segs: string[]) => (segs.length ? `/${segs.join('/')}` : null);
    const frame = (code: boolean, defs: RawDef[]): Frame => ({ indent, brace: false, path, code, defs });
    const def = (kind: string, container: string | null): RawDef => {
      const d = {
        name,
        kind,
        start: i,
        end: to,
        nameStart: nameAt,
        nameEnd: nameAt + name.length,
        container,
        explicitOwner: true,
      };
      this.defs.push(d);
      this.site(nameAt, name, ROLE.declaration);
      return d;
    };
    if (varAt >= 0) {
      typeRefs(rel.length - 1);
      if (varAt === path.length - 1) return frame(false, []); // a `var` block
      const mods = path.slice(varAt + 1, -1);
      const ownerSegs = path.slice(0, varAt);
      const kind = mods.includes('const') ? 'constant' : ownerSegs.length ? 'field' : 'variable';
      const d = def(kind, owner(ownerSegs));
      if (c[j] === '=') this.scanCode(j + 1, to);
      d.end = to;
      return undefined;
    }
    if (c[j] === '(') {
      typeRefs(rel.length - 1);
      const ownerSegs = path.slice(0, -1).filter((s, k) => !(k === path.length - 2 && (s === 'proc' || s === 'verb')));
      const d = def(ownerSegs.length ? 'method' : 'function', owner(ownerSegs));
      this.params(j, to);
      return frame(true, [d]);
    }
    if (name === 'proc' || name === 'verb') {
      typeRefs(rel.length - 1);
      return frame(false, []);
    }
    if (procAt >= 0 && procAt < path.length - 1) {
      // `proc/foo` without parentheses still declares a proc.
      typeRefs(rel.length - 1);
      const d = def(path.length - 2 > 0 ? 'method' : 'function', owner(path.slice(0, procAt)));
      return frame(true, [d]);
    }
    if (c[j] === '=') {
      typeRefs(rel.length - 1);
      this.site(nameAt, name, ROLE.member);
      this.scanCode(j + 1, to);
      return undefined;
    }
    if (j < to) {
      this.scanCode(i, to);
      return undefined;
    }
    typeRefs(rel.length - 1);
    return frame(false, [def('class', owner(path.slice(0, -1)))]);
  }

  /** Proc parameters: `(mob/user, obj/item/I as obj, amount = 1)`. */
  params(open: number, to: number): void {
    let depth = 0;
    let k = open;
    for (; k < to; k++) {
      if (this.code[k] === '(') depth++;
      else if (this.code[k] === ')' && --depth === 0) break;
    }
    const inner = this.code.slice(open + 1, k);
    let offset = open + 1;
    for (const part of inner.split(',')) {
      const [decl, value] = part.split('=');
      const m = /^\s*(?:var\/)?((?:[A-Za-z_]\w*\/)*)([A-Za-z_]\w*)/.exec(decl);
      if (m) {
        let at = offset + decl.indexOf(m[1] || m[2], m[0].length - m[1].length - m[2].length);
        for (const seg of m[1].split('/').filter(Boolean)) {
          this.site(at, seg, ROLE.type);
          at += seg.length + 1;
        }
        this.site(at, m[2], ROLE.local);
      }
      if (value !== undefined) this.scanCode(offset + decl.length + 1, offset + part.length);
      offset += part.length + 1;
    }
  }

  /** A preprocessor line: `#define NAME …` is a macro, `#include "x"` an import. */
  directive(start: number, end: number): void {
    const line = this.text.slice(start, end);
    const def = /^\s*#\s*define\s+([A-Za-z_]\w*)/.exec(line);
    if (def) {
      const nameStart = start + def[0].length - def[1].length;
      this.defs.push({
        name: def[1],
        kind: 'macro',
        start,
        end,
        nameStart,
        nameEnd: nameStart + def[1].length,
        container: null,
        explicitOwner: true,
      });
      this.site(nameStart, def[1], ROLE.declaration);
      this.scanCode(nameStart + def[1].length, end);
      return;
    }
    const inc = /^\s*#\s*include\s+["<]([^">]+)[">]/.exec(line);
    if (inc) this.imports.push({ spelled: inc[1], name: null, alias: null, reexport: false, start, end });
  }

  /** Split a line into statements at `{` `}` `;` outside parentheses, and process them. */
  line(start: number, end: number, indent: number): void {
    const c = this.code;
    let from = start;
    let depth = 0;
    let first = true;
    const flush = (to: number): Frame | undefined => {
      const f = this.statement(from, to, first ? indent : indent + 1);
      if (f) {
        this.stack.push(f);
        if (!first) f.indent = Number.MAX_SAFE_INTEGER; // a second statement on one line opens no indented block
      }
      first = false;
      return f;
    };
    for (let k = start; k < end; k++) {
      const ch = c[k];
      if (ch === '(' || ch === '[') depth++;
      else if ((ch === ')' || ch === ']') && depth > 0) depth--;
      else if (depth === 0 && (ch === '{' || ch === '}' || ch === ';')) {
        if (ch === '{' && c[k + 1] === '"') continue;
        const opened = flush(k);
        if (ch === '{') {
          if (opened) opened.brace = true;
          else {
            const t = this.top();
            this.stack.push({ indent, brace: true, path: t?.path ?? [], code: t?.code ?? false, defs: [] });
          }
        } else if (ch === '}') {
          while (this.stack.length > 0 && !this.top()!.brace) this.stack.pop();
          if (this.stack.length === 0) this.broken = true;
          else this.stack.pop();
        } else if (opened && !opened.brace) this.stack.pop();
        from = k + 1;
      }
    }
    const opened = flush(end);
    if (opened && opened.indent === Number.MAX_SAFE_INTEGER) this.stack.pop();
  }
}

export function dreamMakerFacts(decoded: DecodedText, lineStarts: readonly number[]): RawFacts {
  const text = decoded.text;
  const code = maskText(text, DREAMMAKER_MASK);
  const scanner = new Scanner(text, code);
  const cuts: CutPoint[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const body = code.slice(start, end);
    if (body.trim()) {
      let indent = 0;
      let k = 0;
      while (k < body.length && (body[k] === ' ' || body[k] === '\t')) {
        indent += body[k] === '\t' ? 4 : 1;
        k++;
      }
      if (body.trimStart().startsWith('#')) scanner.directive(start, end);
      else {
        scanner.enterLine(indent, end);
        if (indent === 0)
          cuts.push({ offset: lineStarts[lineAt(lineStarts, decoded.byteAt(start)) - 1], priority: TOP_LEVEL_CUT });
        scanner.line(start + k, end, indent);
      }
    }
    start = end + 1;
  }
  if (scanner.stack.some((f) => f.brace)) scanner.broken = true;
  const defs = scanner.defs.sort((x, y) => x.start - y.start || y.end - x.end);
  const seen = new Set<number>();
  const sites = scanner.sites
    .sort((x, y) => x.start - y.start)
    .filter((s) => (seen.has(s.start) ? false : (seen.add(s.start), true)));
  return { defs, sites, imports: scanner.imports, cuts, parse: scanner.broken ? 'partial' : 'ok' };
}
