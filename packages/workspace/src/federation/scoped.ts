// Scoped searches (docs/spec/per-source.md): `--scopes per_source` or `[retrieval] scopes`, and any
// search asking for commit documents (`source:git-log`). A shared search without commits
// never comes here, so its output stays exactly what it was.
import { searchIndex, type ParsedQuery, type SearchHit } from '@trufflepig/index';
import { DEFAULT_LIMIT, renderGroupedPage, renderSearchPage, type PageHit } from '@trufflepig/render';
import { formatHandle, type ResultStore, type SetPageShape, type StoredSet } from '@trufflepig/result-cache';
import type { Context } from '../core/context';
import { commitPageHit } from '../core/commit-entries';
import { fail, ok, type Outcome } from '../core/errors';
import { setTruncation } from '../core/truncation';
import { runWorkspaceSearch } from './federate';
import type { ResolvedRoot } from '../core/root';
import {
  addGitLogCoverage,
  layoutSections,
  needsScopedSearch,
  scopeLabel,
  sectionsOfMeta,
  type ScopeSetting,
  type Section,
} from './scope-layout';
import type { Host } from '../core/host';
import {
  coverageOf,
  hitEntry,
  lineMatchOf,
  openIndex,
  pageHits,
  pageOfSet,
  runSearch,
  snippetTerms,
  type SearchData,
} from '../core/search';
import { releaseReader } from '../core/reader-pool';
import { renderedResult, type RenderChoice, type RenderedAnswer } from '../core/render-choice';
import { narrowHits } from '../core/spans';
import { readEachOnce } from '../core/live';
import { staleFilesOf } from '../core/stale';

export interface ScopedData extends SearchData {
  /** `shared`, `per_source` or `explicit`. */
  readonly scopes: string;
  readonly sections: readonly Section[];
}

/** A scoped page, or its coded error (exit 2). */
export type ScopedRender = RenderedAnswer | { readonly stdout: string; readonly stderr: string; readonly exitCode: 2 };

/** The scope setting of a request: `--scopes` wins, then a workspace's `[retrieval] scopes`, then shared. */
export function scopeSettingOf(requested: ScopeSetting | undefined, ctx: Context): ScopeSetting {
  if (requested !== undefined) return requested;
  return ctx.kind === 'workspace' ? (ctx.ws.config.scopes as ScopeSetting) : 'shared';
}

/** A single-root scoped search: the global ranking and each scope's own, stored as sections of one set. */
export async function runScopedSearch(
  host: Host,
  r: ResolvedRoot,
  q: ParsedQuery,
  scopes: ScopeSetting,
  store: ResultStore,
  page?: SetPageShape,
): Promise<Outcome<ScopedData>> {
  if (q.members.length > 0 || q.workspace !== null) {
    const out = await runSearch(r, q, { indexIfMissing: true, store, host });
    return out.ok ? fail('no_workspace', 'workspace selectors need a workspace') : out;
  }
  const reader = await openIndex(host, r, true);
  if (!reader.ok) return reader;
  try {
    const gen = reader.value.generation;
    const outcome = searchIndex(reader.value, q, { scopes });
    const terms = snippetTerms(q);
    const memo = new Map<SearchHit, SearchHit>();
    const narrow = (hits: readonly SearchHit[]) => narrowHits(reader.value, q, terms, hits, memo);
    const layout = layoutSections(
      scopeLabel(scopes),
      narrow(outcome.hits).map((h) => hitEntry(r, gen, h)),
      (outcome.groups ?? []).map((g) => ({ scope: g.scope, entries: narrow(g.hits).map((h) => hitEntry(r, gen, h)) })),
    );
    const lineMatch = lineMatchOf(q);
    const saved = store.save(
      {
        query: q.input,
        truncated: outcome.truncated || layout.cut,
        words: terms,
        scopes: layout.label,
        sections: layout.sections,
        ...(lineMatch ? { lines: lineMatch } : {}),
        ...(page ? { page: page } : {}),
      },
      layout.entries,
    );
    if (!saved.ok) return fail(saved.error.code, saved.error.message);
    const cov = addGitLogCoverage(
      coverageOf(reader.value.coverage(), setTruncation(outcome, saved.value.truncated), layout.sections[0].count, {
        ...outcome,
        // Each section's first page, as a page of an unscoped search is checked.
        staleFiles: staleFilesOf(
          r.root,
          layout.sections
            .flatMap((sec) => layout.entries.slice(sec.offset, sec.offset + Math.min(sec.count, DEFAULT_LIMIT)))
            .filter((e) => e.tag === 'live_source'),
          readEachOnce(),
        ),
      }),
      [[undefined, outcome.gitLog]],
    );
    return ok({
      query: q.input,
      setId: saved.value.id,
      offset: 0,
      entries: layout.entries.slice(0, saved.value.stored),
      truncated: saved.value.truncated,
      coverage: cov.json,
      coverageLine: cov.line,
      words: terms,
      scopes: layout.label,
      sections: layout.sections,
      ...(lineMatch ? { lineMatch } : {}),
    });
  } finally {
    releaseReader(reader.value);
  }
}

/** Page hits of entries [from, to): file hits as everywhere, commit hits with their date and changed paths. */
export function sectionHits(data: SearchData, from: number, to: number, limit: number, context: number): PageHit[] {
  const end = Math.min(to, data.entries.length);
  if (from >= end) return [];
  const files = pageHits({ ...data, entries: data.entries.slice(0, end), offset: from }, limit, context);
  return files.map((hit, i) => {
    const e = data.entries[from + i];
    return e.tag === 'commit' ? commitPageHit(e, formatHandle(data.setId, from + i + 1), data.words, i < limit) : hit;
  });
}

export function sectionAt(sections: readonly Section[], offset: number): number {
  const i = sections.findIndex((s) => offset >= s.offset && offset < s.offset + s.count);
  return i < 0 ? 0 : i;
}

/**
 * Render a scoped page. A first page of per_source (or an explicit list) shows the global
 * ranking and every group; a continuation shows the one ranking its cursor points into.
 */
export function renderScoped(
  data: ScopedData,
  first: boolean,
  opts: RenderChoice & { limit?: number; context?: number },
  budget: number,
): ScopedRender {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  const at = sectionAt(data.sections, data.offset);
  const section = data.sections[at];
  const base = {
    query: data.query,
    setId: data.setId,
    offset: data.offset,
    limit,
    coverage: data.coverage,
    coverageLine: data.coverageLine,
    truncated: data.truncated,
    ...(data.members ? { members: data.members } : {}),
  };
  const hitsFrom = (s: Section, from: number) => sectionHits(data, from, s.offset + s.count, limit, opts.context ?? 0);
  return renderedResult(opts, (format) => {
    if (first && data.scopes !== 'shared') {
      const groups = data.sections
        .slice(1)
        .map((s) => ({ scope: s.scope, offset: s.offset, hits: hitsFrom(s, s.offset) }));
      return renderGroupedPage(
        { ...base, hits: hitsFrom(section, data.offset), scopes: data.scopes, groups },
        { format, budget },
      );
    }
    if (at > 0) {
      return renderGroupedPage(
        {
          ...base,
          hits: [],
          scopes: data.scopes,
          groups: [{ scope: section.scope, offset: data.offset, hits: hitsFrom(section, data.offset) }],
        },
        { format, budget },
      );
    }
    return renderSearchPage({ ...base, hits: hitsFrom(section, data.offset) }, { format, budget });
  });
}

/** The page data of a set made by a scoped search from `offset` (`more` renders it with renderScoped); undefined for any other set. */
export function scopedMoreData(set: StoredSet, offset: number): ScopedData | undefined {
  const sections = sectionsOfMeta(set.meta);
  if (!sections) return undefined;
  const section = sections[sectionAt(sections, offset)];
  // A plain set's page, counted within the section the offset falls in.
  return {
    ...pageOfSet(set, offset),
    coverage: { state: 'complete', hits: section.count, ...(set.meta.truncated ? { truncated: true } : {}) },
    coverageLine: `page of ${section.count} hits${section.scope.length ? ` in scope ${section.scope.join(' ')}` : ''} from offset ${offset - section.offset}${set.meta.truncated ? '; truncated' : ''}`,
    scopes: set.meta.scopes ?? 'per_source',
    sections,
  };
}

/**
 * The data of a `search` under a scope setting: undefined when the plain path applies
 * (shared, no commit documents asked for), so that path's output stays byte-for-byte as it was.
 */
export async function scopedSearchData(
  ctx: Context,
  q: ParsedQuery,
  requested: ScopeSetting | undefined,
  opts: { noDaemon?: boolean; page?: SetPageShape },
  store: () => ResultStore,
): Promise<Outcome<ScopedData> | undefined> {
  const scopes = scopeSettingOf(requested, ctx);
  if (!needsScopedSearch(q, scopes)) return undefined;
  if (ctx.kind === 'workspace') {
    const ws = await runWorkspaceSearch(ctx.ws, q, {
      noDaemon: opts.noDaemon === true,
      scopes,
      host: ctx.host,
      ...(opts.page ? { page: opts.page } : {}),
    });
    return ws.ok
      ? ok({
          ...ws.value,
          scopes: ws.value.scoped?.label ?? scopeLabel(scopes),
          sections: ws.value.scoped?.sections ?? [{ scope: [], offset: 0, count: ws.value.entries.length }],
        })
      : ws;
  }
  return runScopedSearch(ctx.host, ctx.root, q, scopes, store(), opts.page);
}
