// Scope resolution of docs/spec/per-source.md: pure, order-independent, only `source:` tags become scopes.

export type ScopeMode = 'shared' | 'per_source';
export type Scope = readonly string[];

const SOURCE_PREFIX = 'source:';

function isSourceTag(tag: string): boolean {
  return tag.startsWith(SOURCE_PREFIX) && tag.length > SOURCE_PREFIX.length;
}

function scopeKey(scope: readonly string[]): string {
  return JSON.stringify(scope);
}

/**
 * The scopes a document with `tags` belongs to. `shared` → the global scope only;
 * `per_source` → the global scope then one singleton per distinct source tag, sorted;
 * an explicit list → the listed scopes whose every tag the document carries, in list order
 * (scopes naming non-source tags are ignored, never applied unconditionally). A document
 * that no listed scope applies to falls back to the global scope `[[]]`, which holds every
 * document: it stays rankable instead of silently vanishing.
 */
export function resolveScopes(
  tags: readonly string[],
  configured: ScopeMode | readonly (readonly string[])[],
): string[][] {
  const sourceTags = [...new Set(tags.filter(isSourceTag))].sort();
  if (configured === 'shared') return [[]];
  if (configured === 'per_source') return [[], ...sourceTags.map((t) => [t])];
  const held = new Set(sourceTags);
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const scope of configured) {
    const normalized = [...new Set(scope)].sort();
    if (!normalized.every((t) => isSourceTag(t) && held.has(t))) continue;
    const key = scopeKey(normalized);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(normalized);
  }
  return out.length > 0 ? out : [[]];
}
