import type { IndexReader } from '@trufflepig/index';

/**
 * One open index a navigation step reads: the caller (the workspace facade) selects and
 * opens the targets, this package only reads them. Every function here takes targets and
 * returns values; none opens, indexes or closes an index.
 */
export interface NavTarget {
  /** Workspace member name; undefined for a single root. */
  readonly member?: string;
  readonly root: string;
  readonly cacheDir: string;
  readonly reader: IndexReader;
  /** The invocation directory relative to this root ('' at the root; undefined outside it). */
  readonly here?: string;
}
