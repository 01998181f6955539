import { PROCESS_READER_POOL, type ReaderPool } from './reader-pool';

/**
 * Which process a command runs in, as a value passed down with the command instead of a
 * process-wide flag, so a call site says what a search will do:
 *
 * - the **client** (one-shot CLI, library callers) may index an unpublished root in the
 *   foreground; the CLI opens a reader per use, a library Workspace keeps its own pool of
 *   readers until it is closed;
 * - a **root daemon** answers from publications only (its own reconciler indexes; an
 *   unpublished root answers `index_warming`) and keeps readers open until a newer
 *   generation is published;
 * - the **coordinator** of a workspace is a root daemon of no root: it demand-starts the
 *   member daemons and gives every member query a deadline.
 */
export interface Host {
  readonly name: 'client' | 'root-daemon' | 'coordinator';
  /** A request may index an unpublished root before answering. */
  readonly indexesInForeground: boolean;
  /** Where readers stay open between requests (a long-lived process, a library Workspace); none: one per use. */
  readonly readers?: ReaderPool;
  /**
   * A `re:` scan of many files shares the reading with a helper thread kept for the
   * process's life (@trufflepig/index ScanPool): worth its start-up only in a long-lived process.
   */
  readonly sharesRegexScans: boolean;
}

export const CLIENT_HOST: Host = {
  name: 'client',
  indexesInForeground: true,
  sharesRegexScans: false,
};
export const ROOT_DAEMON_HOST: Host = {
  name: 'root-daemon',
  indexesInForeground: false,
  readers: PROCESS_READER_POOL,
  sharesRegexScans: true,
};
export const COORDINATOR_HOST: Host = {
  name: 'coordinator',
  indexesInForeground: false,
  readers: PROCESS_READER_POOL,
  sharesRegexScans: true,
};

/** A member search coordinated by a daemon: members are demand-started and queries get a deadline. */
export function coordinates(host: Host): boolean {
  return !host.indexesInForeground;
}
