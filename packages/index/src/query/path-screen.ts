// The filename lane's screen: which paths of a generation hold a word (IndexReader.pathsHolding).
import { lastAtOrBefore } from '../extract/text';

/** Strings joined with `\n`, and where each begins. */
interface Joined {
  readonly text: string;
  readonly starts: Uint32Array;
}

function join(parts: readonly string[]): Joined {
  const starts = new Uint32Array(parts.length);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    starts[i] = at;
    at += parts[i].length + 1;
  }
  return { text: parts.join('\n'), starts };
}

/** Calls `found` with the index of each part of `joined` that holds `word` (no newline in it), ascending. */
function eachHolding(joined: Joined, word: string, found: (index: number) => void): void {
  const { text, starts } = joined;
  for (let at = text.indexOf(word); at !== -1;) {
    const i = lastAtOrBefore(starts, at); // the part holding offset `at`
    found(i);
    at = i + 1 < starts.length ? text.indexOf(word, starts[i + 1]) : -1;
  }
}

/**
 * Lowercased paths (in files() order) split into their directories and basenames, so a
 * word is looked for in each directory once rather than in every path under it: the
 * kernel's 78,000 paths are 3.0 MB joined, their runs of one directory 0.16 MB and their
 * basenames 1.1 MB (a word's screen 3.7 → 1.7 ms). A word without `/` that a path holds
 * lies inside its directory or inside its basename, never across the slash, so the
 * answer is exactly the whole paths' one.
 *
 * Depends only on the paths: a reader of a later generation whose paths are the same
 * takes it over (FileTable.pathScreen).
 */
export class PathScreen {
  private constructor(
    private readonly paths: readonly string[],
    /** The directory of each run of consecutive paths in one directory. */
    private readonly dirs: Joined,
    /** Where each run begins in `paths`, and `paths.length` after the last. */
    private readonly runStarts: Uint32Array,
    private readonly bases: Joined,
  ) {}

  static of(paths: readonly string[]): PathScreen {
    const dirs: string[] = [];
    const runStarts: number[] = [];
    const bases: string[] = new Array<string>(paths.length);
    let dir: string | undefined;
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i];
      const slash = p.lastIndexOf('/');
      bases[i] = p.slice(slash + 1);
      // Paths come sorted, so one directory's files mostly follow each other; a directory
      // met again after a subdirectory's files starts another run.
      if (dir === undefined || dir.length !== Math.max(slash, 0) || !p.startsWith(dir)) {
        dir = slash < 0 ? '' : p.slice(0, slash);
        dirs.push(dir);
        runStarts.push(i);
      }
    }
    runStarts.push(paths.length);
    return new PathScreen(paths, join(dirs), Uint32Array.from(runStarts), join(bases));
  }

  /** Indexes of the paths holding one of `words`, ascending. */
  holding(words: readonly string[]): number[] {
    const holds = new Uint8Array(this.paths.length);
    for (const w of words) {
      if (w === '' || w.includes('\n') || w.includes('/')) {
        for (let i = 0; i < this.paths.length; i++) if (this.paths[i].includes(w)) holds[i] = 1;
        continue;
      }
      eachHolding(this.dirs, w, (run) => holds.fill(1, this.runStarts[run], this.runStarts[run + 1]));
      eachHolding(this.bases, w, (i) => (holds[i] = 1));
    }
    const out: number[] = [];
    for (let i = 0; i < holds.length; i++) if (holds[i]) out.push(i);
    return out;
  }
}
