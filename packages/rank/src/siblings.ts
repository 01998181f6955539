// Sibling spreading: a page of free-text hits must not be one directory of look-alike
// files. Tried on yargs, "did you mean similar command recommendation" filled its first
// page with 12 `locales/*.json` translations of one string and no code (an agent trial).
// Pure: ranked items in, the same items out in a stable new order; nothing is dropped.

import { SIBLINGS_FIRST_MAX } from './limits';
import { extension } from './paths';

/**
 * Items whose group (`groupOf`, undefined for none) already holds SIBLINGS_FIRST_MAX
 * earlier items move, in their order, after every other item; the rest keep their ranks.
 * Applied to non-code files only (translations, fixtures, generated docs), where siblings
 * say the same thing: code files of one directory are each their own answer.
 */
export function spreadSiblings<T>(ranked: readonly T[], groupOf: (item: T) => string | undefined): T[] {
  const seen = new Map<string, number>();
  const first: T[] = [];
  const later: T[] = [];
  for (const item of ranked) {
    const group = groupOf(item);
    if (group === undefined) {
      first.push(item);
      continue;
    }
    const n = seen.get(group) ?? 0;
    seen.set(group, n + 1);
    (n < SIBLINGS_FIRST_MAX ? first : later).push(item);
  }
  return [...first, ...later];
}

/**
 * The sibling group of a non-code file: its directory and extension (`locales/*.json`),
 * or undefined for code and for files with neither a docs nor a config tag.
 */
export function nonCodeSiblingGroup(path: string, tags: readonly string[]): string | undefined {
  if (tags.includes('source:code') || !(tags.includes('source:config') || tags.includes('source:docs')))
    return undefined;
  const slash = path.lastIndexOf('/');
  return `${slash >= 0 ? path.slice(0, slash) : ''}/*.${extension(path)}`;
}
