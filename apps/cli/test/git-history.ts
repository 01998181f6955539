// Real Git histories for the history tests: commits with fixed, increasing dates (one day
// apart) by a fixed author, so hist and blame rows are reproducible.
import { spawnSync } from 'node:child_process';

export interface DatedGit {
  /** `git -C root ARGS`, dated on the current day; throws with Git's stderr on failure. */
  git(root: string, ...args: string[]): string;
  /** `git add -A` and a commit on the next day; its hash. */
  commit(root: string, subject: string): string;
  /** Moves to the next day (a merge commit made with `git` gets its own date). */
  advance(): void;
}

/** A Git runner whose commits fall on successive days of `month` (`2024-02`). */
export function datedGit(month: string): DatedGit {
  let day = 0;
  const git = (root: string, ...args: string[]): string => {
    const date = `${month}-${String(1 + (day % 28)).padStart(2, '0')}T09:00:00+00:00`;
    const r = spawnSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'T',
        GIT_AUTHOR_EMAIL: 't@e',
        GIT_COMMITTER_NAME: 'T',
        GIT_COMMITTER_EMAIL: 't@e',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const commit = (root: string, subject: string): string => {
    day++;
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', subject);
    return git(root, 'rev-parse', 'HEAD').trim();
  };
  return {
    git,
    commit,
    advance: () => {
      day++;
    },
  };
}

/** `count` small exported functions (`filler0`...): lines for a definition to move among. */
export function fillers(count: number, step: number): string {
  return Array.from(
    { length: count },
    (_, i) => `export function filler${i}(n: number): number {\n  return n * ${i} + ${i * step};\n}\n`,
  ).join('\n');
}

/** An exported function `name` with the given body lines. */
export const fn = (name: string, body: string[]): string =>
  `export function ${name}(y: number): number {\n${body.map((l) => `  ${l}\n`).join('')}}\n`;
