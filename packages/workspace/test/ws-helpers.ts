// Real Git repositories, worktrees and workspace files in temp directories.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ParsedQuery } from '@trufflepig/index';
import { isFolded, type ShownRow, type SourceRow } from '@trufflepig/render';
import {
  ctxCommand,
  indexCommand,
  parseWords,
  refsCommand,
  searchCommand,
  type CommandOptions,
  type CommandResult,
} from '../src';

/** A shown row that must be source text (the reads of these tests fold nothing). */
export function sourceRow(row: ShownRow): SourceRow {
  if (isFolded(row)) throw new Error(`unexpected folded rows at line ${row.line}`);
  return row;
}

/** A query parsed as the facade parses it where a search enters; a bad one fails the test. */
export function query(words: readonly string[]): ParsedQuery {
  const q = parseWords(words);
  if (!q.ok) throw new Error(`${q.error.code}: ${q.error.message}`);
  return q.value;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** A committed Git repository. */
export function makeRepo(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return fs.realpathSync(dir);
}

export const APP_FILES = {
  'src/bucket.rs':
    'pub struct TokenBucket { tokens: u32 }\n\nimpl TokenBucket {\n    pub fn refill_tokens(&mut self) {\n        self.tokens += 1;\n    }\n}\n',
  'src/lib.rs': 'mod bucket;\npub use bucket::TokenBucket;\n',
  'README.md': '# app\n\nA token bucket.\n',
};

export const LIB_FILES = {
  'src/story.ts':
    'export class StoryTeller {\n  tell(chapter: number): string {\n    return `chapter ${chapter}`;\n  }\n}\n',
  'src/index.ts': "export { StoryTeller } from './story';\n",
};

export interface Space {
  readonly base: string;
  readonly app: string;
  readonly lib: string;
  readonly config: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Two members (Rust `app`, TypeScript `lib`) and a workspace file beside them; caches and registry isolated. */
export function makeSpace(label: string, extraToml = ''): Space {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-space-${label}-`)));
  const app = makeRepo(path.join(base, 'app'), APP_FILES);
  const lib = makeRepo(path.join(base, 'lib'), LIB_FILES);
  const config = path.join(base, 'trufflepig.workspace.toml');
  fs.writeFileSync(
    config,
    `[workspace]\nname = "space"\n${extraToml}\n[members.app]\npath = "app"\n\n[members.lib]\npath = "lib"\n`,
  );
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(base, '.cache'),
    XDG_CONFIG_HOME: path.join(base, '.config'),
    HOME: base,
  };
  return { base, app, lib, config, env };
}

export function opts(space: Space, cwd: string, more: Partial<CommandOptions> = {}): CommandOptions {
  return { cwd, env: space.env, noDaemon: true, ...more };
}

/** stdout as JSON; fails the test with the error when the command failed unexpectedly. */
export function json(out: CommandResult): Record<string, any> {
  return JSON.parse(out.stdout) as Record<string, any>;
}

export function errorCode(out: CommandResult): string | undefined {
  return out.exitCode === 2 ? (JSON.parse(out.stdout) as { error: { code: string } }).error.code : undefined;
}

/** A single-root repository indexed in the foreground with its own cache and XDG dirs. */
export interface IndexedRepo {
  readonly root: string;
  /** Options for a foreground call against it (lines unless its defaults say otherwise); `more` overrides any of them. */
  readonly at: (more?: Partial<CommandOptions>) => CommandOptions;
}

/**
 * Makes, commits and indexes a repository of `files` in a new temp directory named after
 * `prefix`; `defaults` (a format, a budget) stand in every call's options under its `more`.
 */
export async function indexedRepo(
  prefix: string,
  files: Record<string, string>,
  defaults: Partial<CommandOptions> = {},
): Promise<IndexedRepo> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const root = makeRepo(path.join(base, 'repo'), files);
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(base, '.cache'),
    XDG_CONFIG_HOME: path.join(base, '.config'),
  };
  const at = (more: Partial<CommandOptions> = {}): CommandOptions => ({
    cwd: root,
    env,
    noDaemon: true,
    noWorkspace: true,
    cache: path.join(base, 'cache'),
    format: 'lines',
    ...defaults,
    ...more,
  });
  const indexed = await indexCommand(at());
  if (indexed.exitCode !== 0) throw new Error(`index of ${root} failed: ${indexed.stdout}${indexed.stderr ?? ''}`);
  return { root, at };
}

/** One `refs` row as JSON gives it: where, its role, and how it resolves. */
export interface RefsSite {
  path: string;
  start_line: number;
  role: string;
  resolution: string;
  definition?: string;
}

/**
 * Every `refs WORDS` row of an indexed repository, as JSON: a row costs ~100 tokens with its
 * URI, whose length follows the temporary directory's, so the page gets room for all.
 */
export async function refsSites(repo: IndexedRepo, words: string[]): Promise<RefsSite[]> {
  return json(await refsCommand(words, repo.at({ format: 'json', budget: 5000 }))).hits as RefsSite[];
}

/** The lines of `ctx` of the first hit of `search WORDS` (`sym:NAME` lands on its definition). */
export async function ctxLinesOf(repo: IndexedRepo, words: string[]): Promise<string[]> {
  const page = (await searchCommand(words, repo.at({ format: 'lines' }))).stdout;
  const handle = page.split('\n')[0].split(/ {2}/)[0];
  return (await ctxCommand(handle, repo.at({ format: 'lines' }))).stdout.split('\n');
}

/** The `LABEL:` rows of ctx lines (`caller`, `subclass`, …) as `PATH:LINE KIND NAME [resolution]`, handles dropped. */
export function ctxRows(lines: readonly string[], label: string): string[] {
  return lines.filter((l) => l.startsWith(`${label}:`)).map((l) => l.split('\t').slice(1).join(' '));
}
