// Watches a root for changes with one non-recursive fs.watch per directory.
//
// Node 20's fs.watch(root, { recursive: true }) does work on Linux, but it adds one
// inotify watch per *file* and descends into .git, node_modules and target too (measured:
// 2,051 watches and 0.57 s of set-up for 50 directories of 2,000 files). A watch per
// directory sees the same creations, deletions and writes of its entries, and the ignored
// trees are never entered. The ignored trees are the walk's: the never-entered directories
// (@trufflepig/base ALWAYS_SKIPPED_DIRS, one list for the walk and this watcher), except the
// directories inside them that hold files Git tracks, which are indexed and so watched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isAlwaysSkippedDir } from '@trufflepig/base/skipped-dirs';
import { errnoCode, errorText } from './errors';
import { MAX_WATCHED_DIRECTORIES } from './limits';

type IndexPackage = typeof import('@trufflepig/index');
// Loaded on first use, like the daemon's reconcile: clients import this package on their fast path.
const indexPackage = (): IndexPackage => require('@trufflepig/index') as IndexPackage;

function hasSkippedName(relative: string): boolean {
  return relative.split(/[\\/]/).some(isAlwaysSkippedDir);
}

/**
 * True when a root-relative path lies inside (or is) a directory the walk never enters.
 * `tracked` holds the directories inside such names that hold tracked files (the walk
 * indexes those): their entries are not ignored.
 */
export function isIgnoredPath(relative: string, tracked: ReadonlySet<string> = new Set()): boolean {
  if (!hasSkippedName(relative)) return false;
  const parent = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
  return !tracked.has(parent) && !tracked.has(relative);
}

export interface TreeWatcherEvents {
  /**
   * Something changed at this root-relative path: a file or directory, or the watched
   * directory itself when the kernel did not name the entry ('' is the root).
   */
  onChange(relative: string): void;
  /** The watcher stopped working (limit reached, watch failed); it has closed itself. */
  onFailure(reason: string): void;
}

export class TreeWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private closed = false;
  /** Directories inside never-entered names that hold tracked files, as of start(). */
  private tracked: ReadonlySet<string> = new Set();

  constructor(
    private readonly root: string,
    private readonly events: TreeWatcherEvents,
    private readonly maxDirectories = MAX_WATCHED_DIRECTORIES,
  ) {}

  /** Watch the whole tree; undefined on success, else why it could not. */
  start(): string | undefined {
    this.tracked = indexPackage().trackedDirsUnderSkipped(this.root);
    const failed = this.addTree('');
    if (failed) this.close();
    return failed;
  }

  get directories(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  /** Watch `relative` and every directory below it; stops at ignored names and symlinks. */
  private addTree(relative: string): string | undefined {
    const stack = [relative];
    while (stack.length > 0) {
      const dir = stack.pop() as string;
      if (this.watchers.has(dir)) continue;
      if (this.watchers.size >= this.maxDirectories) return `more than ${this.maxDirectories} directories to watch`;
      const failed = this.watchOne(dir);
      if (failed) return failed;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.root, dir), { withFileTypes: true });
      } catch (err) {
        if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') continue; // removed meanwhile
        return `cannot list ${dir || '.'}: ${errorText(err)}`;
      }
      for (const e of entries) {
        const child = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory() && (this.tracked.has(child) || !hasSkippedName(child))) stack.push(child);
      }
    }
    return undefined;
  }

  private watchOne(dir: string): string | undefined {
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(path.join(this.root, dir), { persistent: false }, (type, name) =>
        this.onEvent(dir, type, name),
      );
    } catch (err) {
      if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined; // removed meanwhile
      return `cannot watch ${dir || '.'}: ${errorText(err)}`;
    }
    watcher.on('error', (err) => this.onWatcherError(dir, err));
    this.watchers.set(dir, watcher);
    return undefined;
  }

  private onEvent(dir: string, type: string, name: string | Buffer | null): void {
    if (this.closed) return;
    const relative = name === null ? dir : dir ? `${dir}/${String(name)}` : String(name);
    if (isIgnoredPath(relative, this.tracked)) return;
    if (type === 'rename' && name !== null) this.followRename(relative);
    this.events.onChange(relative);
  }

  /** A created directory gets watched (with its subtree); a removed one is forgotten. */
  private followRename(relative: string): void {
    let isDirectory: boolean;
    try {
      isDirectory = fs.lstatSync(path.join(this.root, relative)).isDirectory();
    } catch {
      this.forget(relative);
      return;
    }
    if (!isDirectory) return;
    const failed = this.addTree(relative);
    if (failed) this.fail(failed);
  }

  private forget(relative: string): void {
    for (const [dir, w] of this.watchers) {
      if (dir === relative || dir.startsWith(`${relative}/`)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
  }

  private onWatcherError(dir: string, err: Error): void {
    if (this.closed) return;
    if (!fs.existsSync(path.join(this.root, dir))) {
      this.forget(dir); // its directory went away: the parent reports that change
      this.events.onChange(dir);
      return;
    }
    this.fail(`watching ${dir || '.'} failed: ${errorText(err)}`);
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.close();
    this.events.onFailure(reason);
  }
}
