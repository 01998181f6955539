// Settling provisional spans (docs/cli.md "Decision: narrow the page, settle the rest").
// A search narrows the spans of the hits its first page prints; the hits past it are stored
// with the index's own span and the mark `unsettled`, and are narrowed here, from the same
// index and the same bytes, when first read: by `more` for its page, by `show`/`ctx`/`hist`
// for one handle. The store keeps the first settled form for good, so a handle printed once
// keeps its span.
import { percentDecode } from '@trufflepig/base/stored-path';
import type { IndexReader, ParsedQuery, SearchHit } from '@trufflepig/index';
import type { LiveSourceEntry, ResultEntry, ResultStore, StoredSet } from '@trufflepig/result-cache';
import { parseHandle } from '@trufflepig/result-cache';
import { fail, ok, type Outcome } from './errors';
import type { Host } from './host';
import { ownerIndexOptions } from './owner';
import { openPublished, releaseReader } from './reader-pool';
import { parseWords, searchHitOf, snippetTerms, spanFields } from './search';
import { narrowFromFile } from './spans';

const isProvisional = (e: ResultEntry | undefined): e is LiveSourceEntry & { unsettled: true } =>
  e !== undefined && e.tag === 'live_source' && e.unsettled === true;

/** The entry made final: its narrowed span when the file still has its revision, else its own. */
function settledEntry(e: LiveSourceEntry, narrowed: SearchHit | undefined): LiveSourceEntry {
  const { unsettled: _provisional, ...rest } = e;
  if (!narrowed) return rest;
  // The hit line names what its span is (narrowHit): the narrowed name, or the definition a window is in.
  const { name: _indexed, within: _none, ...unnamed } = rest;
  return { ...unnamed, ...spanFields(narrowed) };
}

/** Owner index of an entry: its cache, its root, and how that index opens. */
function ownerKey(e: LiveSourceEntry): string {
  return JSON.stringify([e.cache ?? '', e.root, ownerIndexOptions(e)]);
}

/**
 * Settles the provisional entries among positions [from, to) of `set` and returns the set
 * as stored afterwards (unchanged when none is provisional). An entry whose owner index
 * cannot be opened, or whose file changed since, settles on its own span: a later `show`
 * of it answers stale_source, as it would have for a span narrowed at search time.
 */
export async function settleEntries(
  host: Host,
  store: ResultStore,
  set: StoredSet,
  from: number,
  to: number,
): Promise<Outcome<StoredSet>> {
  const positions: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, set.entries.length); i++)
    if (isProvisional(set.entries[i])) positions.push(i);
  if (positions.length === 0) return ok(set);
  const parsed = parseWords(set.meta.query);
  const query: ParsedQuery | undefined = parsed.ok ? parsed.value : undefined;
  const terms = set.meta.words ?? (query ? snippetTerms(query) : []);
  const replacements = new Map<number, ResultEntry>();
  const byOwner = new Map<string, number[]>();
  for (const at of positions) {
    const key = ownerKey(set.entries[at] as LiveSourceEntry);
    byOwner.set(key, [...(byOwner.get(key) ?? []), at]);
  }
  for (const group of byOwner.values()) {
    const first = set.entries[group[0]] as LiveSourceEntry;
    const reader = query && first.cache ? await openOwnerIndex(host, first) : undefined;
    try {
      for (const at of group) {
        const e = set.entries[at] as LiveSourceEntry;
        const narrowed = reader && query ? narrowFromFile(reader, query, terms, searchHitOf(e))?.hit : undefined;
        replacements.set(at, settledEntry(e, narrowed));
      }
    } finally {
      if (reader) releaseReader(reader);
    }
  }
  return store.settle(set.id, replacements);
}

async function openOwnerIndex(host: Host, e: LiveSourceEntry): Promise<IndexReader | undefined> {
  const opened = await openPublished(host, e.cache!, percentDecode(e.root).toString('utf8'), ownerIndexOptions(e));
  return opened.ok ? opened.value : undefined;
}

/**
 * Settles the entry a handle (`SET:N`, or its `SET:N~BYTE` continuation) names, in the
 * first of `stores` that knows its set, before a verb reads the entry. Errors are left to
 * the verb's own resolution of the handle, which reports them as it always has.
 */
export async function settleHandle(host: Host, stores: readonly ResultStore[], handle: string): Promise<void> {
  const parsed = parseHandle(handle.trim().replace(/~\d+$/, ''));
  if (!parsed.ok) return;
  for (const store of stores) {
    const loaded = store.load(parsed.value.setId);
    if (!loaded.ok) {
      if (loaded.error.code === 'unknown_result') continue;
      return;
    }
    const at = parsed.value.ordinal - 1;
    if (isProvisional(loaded.value.entries[at])) await settleEntries(host, store, loaded.value, at, at + 1);
    return;
  }
}

/**
 * The set of `cursor` from the first of `stores` that knows it (as `firstKnown` picks), with
 * its page [offset, offset + limit) settled in that store.
 */
export async function settledPage(
  host: Host,
  stores: readonly ResultStore[],
  cursor: string,
  limit: (set: StoredSet) => number,
): Promise<Outcome<{ readonly set: StoredSet; readonly offset: number }>> {
  let first: Outcome<{ readonly set: StoredSet; readonly offset: number }> | undefined;
  for (const store of stores) {
    const page = store.page(cursor);
    if (!page.ok && page.error.code === 'unknown_result') {
      first ??= page;
      continue;
    }
    if (!page.ok) return page;
    const { set, offset } = page.value;
    const settled = await settleEntries(host, store, set, offset, offset + limit(set));
    return settled.ok ? ok({ set: settled.value, offset }) : settled;
  }
  return first ?? fail('unknown_result', `no result set for cursor ${cursor.slice(0, 40)}; run the search again`);
}
