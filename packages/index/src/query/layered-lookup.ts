// File rows by id and by path, handed from the reader of one generation to the reader of
// the next (reader.ts FileTable). Building both maps anew for the kernel's 78,000 rows was
// ~50 ms of the first search after every edit; a later generation changes a few rows.
//
// A lookup is a base map, never changed once built and so safe to share between readers of
// different generations, and an overlay of the keys the generations since have changed (a
// null entry: the key is gone). Pure: no I/O, nothing changed in place.

/** A key's row, as the base and the overlay hold it. */
export class LayeredLookup<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly overlay: ReadonlyMap<K, V | null>,
  ) {}

  /** A lookup of `entries` alone (a later key wins, as in a Map). */
  static of<K, V>(entries: Iterable<readonly [K, V]>): LayeredLookup<K, V> {
    return new LayeredLookup(new Map(entries), new Map());
  }

  get(key: K): V | undefined {
    const changed = this.overlay.get(key);
    if (changed !== undefined) return changed ?? undefined;
    return this.base.get(key);
  }

  /**
   * This lookup without `removed` and with `added` (removals first, so a key both removed
   * and added holds its new value); undefined once the overlay would hold more than
   * `overlayMax` keys, when building a new base is the cheaper lookup. This lookup is unchanged.
   */
  with(removed: Iterable<K>, added: Iterable<readonly [K, V]>, overlayMax: number): LayeredLookup<K, V> | undefined {
    const overlay = new Map(this.overlay);
    for (const k of removed) overlay.set(k, null);
    for (const [k, v] of added) overlay.set(k, v);
    return overlay.size > overlayMax ? undefined : new LayeredLookup(this.base, overlay);
  }
}
