// Code the index holds as text only (Vim script, shell, Objective-C++…) that mentions a
// name: `refs`, `show sym:` and a `sym:` search without hits say where, so an answer
// without it is never read as the whole truth.
import { counted } from '@trufflepig/render';
import { UNPARSED_PATHS_SHOWN } from './limits';

/** The first UNPARSED_PATHS_SHOWN of `paths` named, the rest counted: `a.mm, b.mm, c.mm, +2`. */
function listedPaths(paths: readonly string[]): string {
  const more = paths.length - UNPARSED_PATHS_SHOWN;
  return `${paths.slice(0, UNPARSED_PATHS_SHOWN).join(', ')}${more > 0 ? `, +${more}` : ''}`;
}

/**
 * The coverage words: `2 files in languages not parsed for references mention it: a.mm,
 * b.mm (search "name" lists their lines)`. `paths` are printed paths, all of them: the
 * first UNPARSED_PATHS_SHOWN are named, the rest counted.
 */
export function unparsedWords(paths: readonly string[], name: string, parsedFor: 'references' | 'definitions'): string {
  return `${counted(paths.length, 'file')} in languages not parsed for ${parsedFor} mention it: ${listedPaths(paths)} (search "${name}" lists their lines)`;
}

/** The JSON coverage fields of the same (`unparsed_files`, `unparsed_paths`). */
export function unparsedFields(paths: readonly string[]): { unparsed_files: number; unparsed_paths: string[] } {
  return { unparsed_files: paths.length, unparsed_paths: paths.slice(0, UNPARSED_PATHS_SHOWN) };
}

/**
 * The coverage words for code files too large to index that mention a name: `1 file too
 * large to index mentions it: sqlite3.c (search "name" lists its lines)`. `paths` are
 * printed paths, all of them: the first UNPARSED_PATHS_SHOWN are named, the rest counted.
 */
function tooLargeWords(paths: readonly string[], name: string): string {
  const one = paths.length === 1;
  return `${counted(paths.length, 'file')} too large to index ${one ? 'mentions' : 'mention'} it: ${listedPaths(paths)} (search "${name}" lists ${one ? 'its' : 'their'} lines)`;
}

/** The JSON coverage fields of the same (`too_large_files`, `too_large_paths`). */
export function tooLargeFields(paths: readonly string[]): { too_large_files: number; too_large_paths: string[] } {
  return { too_large_files: paths.length, too_large_paths: paths.slice(0, UNPARSED_PATHS_SHOWN) };
}

/**
 * `paths` told by the directories holding them, as few words as names would take: the
 * deepest grouping by leading directories into at most `max` groups, each `N under DIR/`
 * (a group of one is its path). Undefined when no grouping fits (files at the top level).
 */
export function directoryGroups(paths: readonly string[], max: number): string | undefined {
  const dirs = paths.map((p) => p.split('/').slice(0, -1));
  for (let depth = Math.max(0, ...dirs.map((d) => d.length)); depth >= 1; depth--) {
    const groups = new Map<string, string[]>();
    for (const [i, d] of dirs.entries()) {
      const key = d.slice(0, depth).join('/');
      groups.set(key, [...(groups.get(key) ?? []), paths[i]]);
    }
    if (groups.size > max || [...groups].some(([key, members]) => key === '' && members.length > 1)) continue;
    return [...groups]
      .map(([key, members]) => (members.length === 1 ? members[0] : `${members.length} under ${key}/`))
      .join(', ');
  }
  return undefined;
}

/**
 * The coverage words for files too large to index that a query left unread, past the live
 * bound of one query (index TOO_LARGE_LIVE_BYTES_MAX): `2 files too large to index not
 * searched: a.h, b.h (file:PATH searches one)`. A match may be in them, so they are never
 * left out silently. More than UNPARSED_PATHS_SHOWN are told by their directories
 * (directoryGroups): the kernel's `33 files too large to index not searched: 32 under
 * drivers/gpu/drm/amd/include/asic_reg/, drivers/misc/habanalabs/include/gaudi2/asic_reg/gaudi2_regs.h`
 * (before, three register headers by name, 95 tokens repeated in half the answers of an
 * agent trial, said less than where all 33 are). `paths` are printed paths, all of them.
 */
export function tooLargeUnsearchedWords(paths: readonly string[]): string {
  const grouped = paths.length > UNPARSED_PATHS_SHOWN ? directoryGroups(paths, UNPARSED_PATHS_SHOWN) : undefined;
  return `${counted(paths.length, 'file')} too large to index not searched: ${grouped ?? listedPaths(paths)} (file:PATH searches one)`;
}

/**
 * The coverage words of navigation's too-large check (refs tooLargeMentions) for `name`:
 * the files that mention it, then those past the live bound, which may; none when neither.
 */
export function tooLargeNotes(
  found: { readonly mentioning: readonly string[]; readonly unsearched: readonly string[] },
  name: string,
): string[] {
  return [
    ...(found.mentioning.length ? [tooLargeWords(found.mentioning, name)] : []),
    ...(found.unsearched.length ? [tooLargeUnsearchedWords(found.unsearched)] : []),
  ];
}

/** The JSON coverage fields of the same (`too_large_unsearched`, `too_large_unsearched_paths`). */
export function tooLargeUnsearchedFields(paths: readonly string[]): {
  too_large_unsearched: number;
  too_large_unsearched_paths: string[];
} {
  return { too_large_unsearched: paths.length, too_large_unsearched_paths: paths.slice(0, UNPARSED_PATHS_SHOWN) };
}
