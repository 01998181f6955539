// What `status` says of the index's structure: files per language, and the code it holds as
// text only. An agent cannot tell from `indexed_files` that the Neovim runtime's 1,351 Vim
// script files have no definitions, no refs sites and no outline (a trial; `sym:` and
// `refs` now name such files when they mention a name, status says it up front). Pure.
import { hasCodeExtension, type IndexedFile } from '@trufflepig/index';
import { extension } from '@trufflepig/rank';
import { STATUS_UNPARSED_EXTENSIONS } from '../core/limits';

export interface StructureReport {
  /** Indexed files per extractor language (`text`: no extractor), most first. */
  readonly languages: Record<string, number>;
  /**
   * Files of programming languages no extractor reads (hasCodeExtension), by extension
   * (`.vim`, `.s`), most first, the first STATUS_UNPARSED_EXTENSIONS.
   */
  readonly unparsed_code?: Record<string, number>;
  /** Files of the extensions unparsed_code leaves out. */
  readonly unparsed_code_more?: number;
}

export function structureOf(files: readonly IndexedFile[]): StructureReport {
  const languages = new Map<string, number>();
  const unparsed = new Map<string, number>();
  for (const f of files) {
    if (f.excluded) continue;
    languages.set(f.lang, (languages.get(f.lang) ?? 0) + 1);
    if (f.lang === 'text' && hasCodeExtension(f.path)) {
      const key = `.${extension(f.path)}`;
      unparsed.set(key, (unparsed.get(key) ?? 0) + 1);
    }
  }
  const ordered = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const code = ordered(unparsed);
  const shown = code.slice(0, STATUS_UNPARSED_EXTENSIONS);
  const more = code.slice(STATUS_UNPARSED_EXTENSIONS).reduce((n, [, c]) => n + c, 0);
  return {
    languages: Object.fromEntries(ordered(languages)),
    ...(shown.length ? { unparsed_code: Object.fromEntries(shown) } : {}),
    ...(more ? { unparsed_code_more: more } : {}),
  };
}
