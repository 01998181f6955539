// Fact shapes produced by extraction and stored per file.
import type { Language } from '../classify';

/** Occurrence roles as bits; lower bits rank first when choosing a file's representative. */
export const ROLE = {
  declaration: 1,
  module: 2,
  member: 4,
  local: 8,
  import: 16,
  call: 32,
  type: 64,
  reference: 128,
} as const;
export type RoleName = keyof typeof ROLE;

export function roleNames(bits: number): RoleName[] {
  return (Object.keys(ROLE) as RoleName[]).filter((k) => (bits & ROLE[k]) !== 0);
}

export interface Definition {
  readonly name: string;
  readonly kind: string;
  readonly container: string | null;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly nameStart: number;
  readonly nameEnd: number;
}

/** All occurrences of one name in one file, aggregated. */
export interface NameUse {
  readonly name: string;
  readonly count: number;
  readonly roles: number;
  /** The representative occurrence: the first declaration, else the first use. */
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export interface Region {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Innermost definition containing the region, `Container::name` when owned. */
  readonly symbol: string | null;
  /** Searchable text of the region. */
  readonly body: string;
  /** Identifier expansions (`refillTokens` → `refill tokens`) and the symbol's words. */
  readonly idents: string;
}

/**
 * One imported name as spelled in the source: `use App\Models\User;` → spelled
 * `App\Models\User`, name `User`; `from a.b import c as d` → spelled `a.b`, name `c`, alias
 * `d`; `import "fmt"` → spelled `fmt`, name null (the whole module or namespace). Name `*`
 * is a glob. Spans are the bytes of the whole import statement.
 */
export interface ImportFact {
  readonly spelled: string;
  readonly name: string | null;
  readonly alias: string | null;
  /** Re-exported to importers of this file (`pub use`, `export … from`). */
  readonly reexport: boolean;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/** One identifier occurrence with its single role (not stored: recomputed on demand for reference sites). */
export interface Occurrence {
  readonly name: string;
  readonly role: RoleName;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  /** Inside a part of the file the grammar could not read: its role is a guess. */
  readonly inError?: boolean;
}

export type ParseStatus = 'ok' | 'partial' | 'failed' | 'none';

export interface Extraction {
  /** Set when the content chose another language than the path did (a C++ header named `.h`): the file's stored language. */
  readonly lang?: Language;
  readonly definitions: Definition[];
  readonly names: NameUse[];
  readonly regions: Region[];
  readonly imports: ImportFact[];
  readonly parse: ParseStatus;
  readonly factLimited: boolean;
}

/**
 * How a definition is named on a hit, a `map` row or a `ctx` item: `Owner::name`, or the
 * bare name of a definition without an owner. The one spelling every verb prints.
 */
export function qualifiedName(d: { readonly name: string; readonly container: string | null }): string {
  return d.container ? `${d.container}::${d.name}` : d.name;
}
