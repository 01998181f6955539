// Reading first-parent commit messages from Git (docs/spec/per-source.md, `source:git-log`). Only a
// root that is itself a Git top level with full history has commit documents: a shallow
// clone's history is cut off, and a subdirectory's commits are mostly about other paths.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { COMMIT_CHANGED_PATHS_MAX, GIT_LOG_TIMEOUT_MS, GIT_PROBES_REMEMBERED } from '../limits';
import { gitEnvironment, percentEncode } from '@trufflepig/base';

/** Why a root has (or has no) commit documents; reported by coverage as `git_log`. */
export type GitLogState = 'indexed' | 'shallow_clone' | 'not_git' | 'not_git_root' | 'no_commits' | 'git_error';

export interface GitProbe {
  readonly state: GitLogState;
  /** The commit HEAD names, when `state` is `indexed`. */
  readonly head?: string;
}

export interface CommitRecord {
  readonly hash: string;
  /** Committer date, strict ISO 8601. */
  readonly date: string;
  /** Subject and body as Git stores them, trailing blank lines removed. */
  readonly message: string;
  /** Percent-encoded root-relative paths changed against the first parent, at most COMMIT_CHANGED_PATHS_MAX. */
  readonly paths: readonly string[];
  /** Changed paths beyond the stored ones. */
  readonly morePaths: number;
}

function git(root: string, args: readonly string[]): { ok: boolean; stdout: Buffer } {
  const r = spawnSync('git', ['-C', root, ...args], {
    maxBuffer: 1024 * 1024 * 1024,
    timeout: GIT_LOG_TIMEOUT_MS,
    // Only this repository counts: nothing inherited may point Git elsewhere.
    env: gitEnvironment({ GIT_OPTIONAL_LOCKS: '0' }),
  });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? Buffer.alloc(0) };
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The files a probe's answer depends on, as one string of their identities (inode, size,
 * modification time): `HEAD`, the ref it names, `packed-refs`, `shallow`, a reftable's list.
 * Undefined when `.git` is not a directory (a linked worktree's `.git` file points elsewhere):
 * such a root is probed every time.
 */
function gitStateStamp(root: string): string | undefined {
  const dir = `${root}/.git`;
  try {
    if (!fs.lstatSync(dir).isDirectory()) return undefined;
    const head = fs.readFileSync(`${dir}/HEAD`, 'utf8');
    const ref = /^ref: (refs\/[^\n]+)/.exec(head)?.[1];
    const files = ['HEAD', 'packed-refs', 'shallow', 'reftable/tables.list', ...(ref ? [ref] : [])];
    const ids = files.map((f) => {
      const st = fs.statSync(`${dir}/${f}`, { bigint: true, throwIfNoEntry: false });
      return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : '-';
    });
    return `${head.trim()}|${ids.join('|')}`;
  } catch {
    return undefined;
  }
}

/** The last probe of each root with the stamp it was made under (a daemon probes on every reconcile). */
const lastProbes = new Map<string, { readonly stamp: string; readonly probe: GitProbe }>();

/**
 * Is `root` a Git top level with complete history, and what is HEAD? Two `git rev-parse`
 * calls (40 ms of a kernel edit's reconcile), skipped while the files HEAD is read from are
 * the same as at this root's last probe.
 */
export function probeGit(root: string): GitProbe {
  const stamp = gitStateStamp(root);
  const last = lastProbes.get(root);
  if (stamp !== undefined && last?.stamp === stamp) return last.probe;
  const probe = probeGitNow(root);
  if (stamp !== undefined) {
    if (lastProbes.size >= GIT_PROBES_REMEMBERED) lastProbes.delete(lastProbes.keys().next().value!);
    lastProbes.set(root, { stamp, probe });
  }
  return probe;
}

function probeGitNow(root: string): GitProbe {
  if (!fs.existsSync(`${root}/.git`)) return { state: 'not_git' };
  const r = git(root, ['rev-parse', '--show-toplevel', '--is-shallow-repository']);
  if (!r.ok) return { state: 'not_git' };
  const [top, shallow] = r.stdout.toString('utf8').split('\n');
  if (realpath(top) !== realpath(root)) return { state: 'not_git_root' };
  if (shallow === 'true') return { state: 'shallow_clone' };
  const head = git(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  if (!head.ok) return { state: 'no_commits' };
  return { state: 'indexed', head: head.stdout.toString('utf8').trim() };
}

/**
 * How many commits `head`'s first-parent chain has before reaching `indexed` (0 when they are
 * equal), or undefined when `indexed` is not on the newest `max` of that chain (history was
 * rewritten, or HEAD moved to another branch): the stored history is then rebuilt.
 */
export function commitsSince(root: string, indexed: string, head: string, max: number): number | undefined {
  if (indexed === head) return 0;
  const r = git(root, ['rev-list', '--first-parent', `-n${max}`, head, '--']);
  if (!r.ok) return undefined;
  const at = r.stdout.toString('latin1').split('\n').indexOf(indexed);
  return at < 0 ? undefined : at;
}

/**
 * The newest `max` first-parent commits of `head`, newest first, at most `max`.
 * Paths are read as raw bytes (`-z`), so unusual names keep their exact bytes.
 */
export function readCommits(root: string, head: string, max: number): CommitRecord[] | undefined {
  const r = git(root, [
    '-c',
    'core.quotePath=false',
    'log',
    '--first-parent',
    '--diff-merges=first-parent',
    '--no-renames',
    `-n${max}`,
    '--format=%x1e%H%x1f%cI%x1f%B%x1f',
    '--name-only',
    '-z',
    head,
    '--',
  ]);
  if (!r.ok) return undefined;
  const text = r.stdout.toString('latin1');
  const out: CommitRecord[] = [];
  for (const record of text.split('\x1e')) {
    if (!record) continue;
    const [hash, date, body, rest = ''] = record.split('\x1f');
    const paths = rest
      .split('\0')
      .map((p) => p.replace(/^\n/, ''))
      .filter(Boolean)
      .map((p) => percentEncode(Buffer.from(p, 'latin1')));
    out.push({
      hash,
      date,
      message: Buffer.from(body, 'latin1').toString('utf8').replace(/\s+$/, ''),
      paths: paths.slice(0, COMMIT_CHANGED_PATHS_MAX),
      morePaths: Math.max(0, paths.length - COMMIT_CHANGED_PATHS_MAX),
    });
  }
  return out;
}

/** Whether the commit object exists locally (`git cat-file -e`). */
export function commitExists(root: string, hash: string): boolean {
  return /^[0-9a-f]{40,64}$/.test(hash) && git(root, ['cat-file', '-e', `${hash}^{commit}`]).ok;
}

/** The message of one local commit, as indexed (trailing blank lines removed); undefined when unreadable. */
export function readCommitMessage(root: string, hash: string): string | undefined {
  if (!/^[0-9a-f]{40,64}$/.test(hash)) return undefined;
  const r = git(root, ['log', '-1', '--format=%B', hash, '--']);
  return r.ok ? r.stdout.toString('utf8').replace(/\s+$/, '') : undefined;
}

/**
 * The text of a commit document: what is shown and what byte spans count in. The message,
 * then the commit id, its date and the changed paths, each on its own line.
 */
export function commitDocument(c: Pick<CommitRecord, 'hash' | 'date' | 'message' | 'paths' | 'morePaths'>): string {
  const lines = [c.message, '', `commit: ${c.hash}`, `date: ${c.date}`, ...c.paths.map((p) => `changed: ${p}`)];
  if (c.morePaths > 0) lines.push(`changed: +${c.morePaths} more`);
  return `${lines.join('\n')}\n`;
}
