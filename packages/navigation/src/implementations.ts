// What `ctx` lists as an interface's or trait's implementations (docs/navigation.md,
// "Implementations"): in Go the types whose methods satisfy it (go-interfaces.ts), where a
// clause names it the types declaring it (`class A implements I`, C#'s `class A : I`,
// Rust's `impl I for A`), read from the files that use the name.
import * as path from 'node:path';
import { OWNER_KINDS, readIndexedBytes, type IndexedDefinition } from '@trufflepig/index';
import { fileStanding } from '@trufflepig/rank';
import { goImplementations } from './go-interfaces';
import { CTX_IMPLEMENTATION_FILES_MAX } from './limits';
import type { NavTarget } from './target';
import { useRowsOf } from './uses';

/** The types found, ordered, at most the limit asked for, and how many more there were. */
export interface Implementations {
  readonly types: IndexedDefinition[];
  readonly more: number;
}

/** Languages whose types name the interfaces they implement in their heads. */
const DECLARING_LANGS: ReadonlySet<string> = new Set(['java', 'csharp', 'typescript', 'tsx', 'php', 'rust']);

/** Bytes of a type's head read for its clauses, from its start. */
const TYPE_HEAD_MAX_BYTES = 400;

/** Definitions that can implement an interface: classes, structs, records, enums (not interfaces). */
const IMPLEMENTING_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'record', 'enum']);

/**
 * The implementations of `focus` when it is an interface (Go, Java, C#, TypeScript, PHP) or
 * a Rust trait; none for anything else. At most `limit`, own directory first, then code
 * before tests and build output, then by path.
 */
export function implementationsOf(t: NavTarget, focus: IndexedDefinition, limit: number): Implementations {
  const found =
    focus.kind === 'interface' && focus.file.lang === 'go'
      ? goImplementations(t.reader, focus, (d) => readIndexedBytes(t.root, d.file))
      : declaredImplementations(t, focus);
  const home = path.posix.dirname(focus.file.path);
  found.sort(
    (a, b) =>
      Number(path.posix.dirname(a.file.path) !== home) - Number(path.posix.dirname(b.file.path) !== home) ||
      fileStanding(a.file) - fileStanding(b.file) ||
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : a.start - b.start),
  );
  return { types: found.slice(0, limit), more: Math.max(0, found.length - limit) };
}

/** The types whose heads name `focus`, an interface or a Rust trait, in no order; none for anything else. */
function declaredImplementations(t: NavTarget, focus: IndexedDefinition): IndexedDefinition[] {
  const contract = focus.kind === 'interface' || (focus.kind === 'trait' && focus.file.lang === 'rust');
  if (!contract || !DECLARING_LANGS.has(focus.file.lang)) return [];
  const found: IndexedDefinition[] = [];
  const files = useRowsOf(t.reader, focus.name)
    .map((u) => u.file)
    .filter((f) => DECLARING_LANGS.has(f.lang) && sameFamily(f.lang, focus.file.lang))
    .slice(0, CTX_IMPLEMENTATION_FILES_MAX);
  for (const file of files) {
    const bytes = readIndexedBytes(t.root, file);
    if (!bytes) continue;
    const defs = t.reader.fileDefinitions(file.path);
    if (file.lang === 'rust') {
      for (const type of rustImplementors(Buffer.from(bytes).toString('utf8'), focus.name)) {
        const def =
          defs.find((d) => d.name === type && OWNER_KINDS.has(d.kind)) ??
          t.reader.definitions(type).find((d) => OWNER_KINDS.has(d.kind) && d.file.lang === 'rust');
        if (def && !found.includes(def)) found.push(def);
      }
      continue;
    }
    for (const d of defs) {
      if (!IMPLEMENTING_KINDS.has(d.kind)) continue;
      const head = Buffer.from(bytes.subarray(d.nameEnd, Math.min(d.end, d.start + TYPE_HEAD_MAX_BYTES)))
        .toString('utf8')
        .split('{')[0];
      if (namesContract(head, focus.name, file.lang)) found.push(d);
    }
  }
  return found;
}

/** TypeScript and JavaScript are one family; other languages stand alone. */
function sameFamily(a: string, b: string): boolean {
  const family = (l: string) => (l === 'tsx' ? 'typescript' : l);
  return family(a) === family(b);
}

/** Whether a type's head after its name (`<T> extends Base implements I, J`) declares `name`. */
function namesContract(head: string, name: string, lang: string): boolean {
  // C#: `class A : Base, I` (a `where` constraint after it names type parameters' bounds).
  const clause =
    lang === 'csharp' ? /:\s*([\s\S]*?)(?:\bwhere\b|$)/.exec(head)?.[1] : /\bimplements\b([\s\S]*)$/.exec(head)?.[1];
  if (clause === undefined) return false;
  // The last segment of each listed name, generic arguments left out (`Comparable<T>`, `\App\Contracts\I`).
  return clause
    .replace(/<[^<>]*>/g, '')
    .split(',')
    .some((n) => n.trim().split(/[\\.]/).pop()?.trim() === name);
}

/** The types a Rust file implements `trait` for (`impl<T> Trait for Type<T>`, `impl fmt::Display for X`). */
function rustImplementors(text: string, trait: string): string[] {
  const out: string[] = [];
  const impl =
    /\bimpl\b\s*(?:<[^{]*?>)?\s*((?:\w+::)*\w+)(?:<[^{]*?>)?\s+for\s+&?(?:'\w+\s+)?(?:mut\s+)?((?:\w+::)*\w+)/g;
  for (let m = impl.exec(text); m; m = impl.exec(text)) {
    if (m[1].split('::').pop() === trait) out.push(m[2].split('::').pop()!);
  }
  return out;
}
