// How a scoped search (docs/spec/per-source.md) lives in one result set: the global ranking first,
// then each scope's own ranking, one after the other. Every hit is an ordinary entry, so
// every handle resolves; `sections` in the set's meta say where each ranking starts, so
// `more` continues within one ranking and never runs into the next.
import { GIT_LOG_TAG, type ParsedQuery, type ScopeGroup } from '@trufflepig/index';
import {
  MAX_HITS_PER_SET,
  type CommitEntry,
  type LiveSourceEntry,
  type ResultEntry,
  type SetMeta,
  type SetSection,
} from '@trufflepig/result-cache';

export type ScopeSetting = 'shared' | 'per_source' | readonly (readonly string[])[];

/** One ranking of the set (its meta's `sections`, declared by result-cache). */
export type Section = SetSection;

export interface ScopedLayout {
  /** `shared` (commit documents asked for with source:git-log), `per_source` or `explicit`. */
  readonly label: string;
  readonly entries: ResultEntry[];
  readonly sections: Section[];
  /** Some section lost entries to the set ceiling. */
  readonly cut: boolean;
}

export function scopeLabel(scopes: ScopeSetting): string {
  return typeof scopes === 'string' ? scopes : 'explicit';
}

/** A scoped search is needed for any mode but shared, and for commit documents (their entries are `commit` entries). */
export function needsScopedSearch(q: ParsedQuery, scopes: ScopeSetting): boolean {
  return scopes !== 'shared' || q.sources.includes(GIT_LOG_TAG);
}

export function sameScope(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** The distinct scopes of several members' groups, in the order the members give them (per_source: by tag). */
export function groupScopes(perMember: readonly (readonly ScopeGroup[])[]): string[][] {
  const out: string[][] = [];
  for (const groups of perMember) {
    for (const g of groups) if (g.hits.length > 0 && !out.some((s) => sameScope(s, g.scope))) out.push([...g.scope]);
  }
  return out.sort(
    (a, b) =>
      firstIndex(perMember, a) - firstIndex(perMember, b) ||
      (a.join(' ') < b.join(' ') ? -1 : a.join(' ') > b.join(' ') ? 1 : 0),
  );
}

function firstIndex(perMember: readonly (readonly ScopeGroup[])[], scope: readonly string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const groups of perMember) {
    const i = groups.findIndex((g) => sameScope(g.scope, scope));
    if (i >= 0) best = Math.min(best, i);
  }
  return best;
}

/**
 * Lay the rankings out in one set. With groups, the global ranking keeps half of the set
 * ceiling and the groups share the other half equally, so no ranking crowds out another.
 */
export function layoutSections(
  label: string,
  global: readonly (LiveSourceEntry | CommitEntry)[],
  groups: readonly { scope: readonly string[]; entries: readonly (LiveSourceEntry | CommitEntry)[] }[],
  ceiling = MAX_HITS_PER_SET,
): ScopedLayout {
  const withHits = groups.filter((g) => g.entries.length > 0);
  const globalShare = withHits.length === 0 ? ceiling : Math.floor(ceiling / 2);
  const groupShare = withHits.length === 0 ? 0 : Math.floor((ceiling - globalShare) / withHits.length);
  const entries: ResultEntry[] = global.slice(0, globalShare);
  const sections: Section[] = [{ scope: [], offset: 0, count: entries.length }];
  let cut = global.length > globalShare;
  for (const g of withHits) {
    const kept = g.entries.slice(0, groupShare).map((e) => ({ ...e, scope: [...g.scope] }));
    cut ||= g.entries.length > groupShare;
    sections.push({ scope: [...g.scope], offset: entries.length, count: kept.length });
    entries.push(...kept);
  }
  return { label, entries, sections, cut };
}

/** The sections of a stored set, when it was made by a scoped search. */
export function sectionsOfMeta(meta: SetMeta): readonly Section[] | undefined {
  return meta.sections !== undefined && meta.sections.length > 0 ? meta.sections : undefined;
}

const GIT_LOG_WORDS: Readonly<Record<string, string>> = {
  indexed: 'commits indexed',
  shallow_clone: 'shallow clone, no commit history',
  not_git: 'not a Git repository, no commit history',
  not_git_root: 'not a Git top level, no commit history',
  no_commits: 'no commits yet',
  git_error: 'git failed, no commit history',
};

/**
 * Coverage of commit documents (docs/spec/per-source.md: a shallow clone or non-Git root has none,
 * and coverage says so): `git_log` in JSON (state and commit count, per member in a
 * workspace) and a `git-log:` part of the coverage line.
 */
export function addGitLogCoverage(
  coverage: { json: Record<string, unknown>; line: string },
  states: readonly (readonly [string | undefined, { state: string; commits: number } | undefined])[],
): { json: Record<string, unknown>; line: string } {
  const known = states.filter((s): s is [string | undefined, { state: string; commits: number }] => s[1] !== undefined);
  if (known.length === 0) return coverage;
  const describe = (g: { state: string; commits: number }) =>
    g.state === 'indexed' ? `${g.commits} commits` : (GIT_LOG_WORDS[g.state] ?? g.state);
  const single = known.length === 1 && known[0][0] === undefined;
  const json = single
    ? { ...coverage.json, git_log: known[0][1] }
    : { ...coverage.json, git_log: Object.fromEntries(known.map(([name, g]) => [name, g])) };
  const line = `${coverage.line}; git-log: ${single ? describe(known[0][1]) : known.map(([name, g]) => `${name} ${describe(g)}`).join(', ')}`;
  return { json, line };
}
