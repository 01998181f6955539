// Real Git repositories in temp directories, with one commit a day from 2024-01-01 so
// dates and order are fixed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-history-${prefix}-`)));
  made.push(dir);
  return dir;
}

export interface TestRepo {
  readonly root: string;
  git(...args: string[]): string;
  write(rel: string, text: string): void;
  read(rel: string): string;
  /** Stage everything and commit; returns the new commit's id. */
  commit(subject: string): string;
}

export function makeRepo(prefix = 'repo', at?: string): TestRepo {
  const root = at ?? path.join(tempDir(prefix), 'root');
  fs.mkdirSync(root, { recursive: true });
  let day = 0;
  const git = (...args: string[]): string => {
    const date = `2024-01-${String(1 + (day % 28)).padStart(2, '0')}T12:00:00+00:00`;
    const r = spawnSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'T',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 'T',
        GIT_COMMITTER_EMAIL: 't@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  if (at === undefined) git('init', '-q', '-b', 'main');
  return {
    root,
    git,
    write: (rel, text) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    commit: (subject) => {
      day++;
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', subject);
      return git('rev-parse', 'HEAD').trim();
    },
  };
}

/** Lines `from`-`to` (1-based) of the first occurrence of `needle` … its closing line `}` at column 0. */
export function spanOf(text: string, needle: string): { start: number; end: number } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(needle)) + 1;
  if (start === 0) throw new Error(`${needle} not found`);
  let end = start;
  while (end <= lines.length && lines[end - 1] !== '}') end++;
  return { start, end };
}
