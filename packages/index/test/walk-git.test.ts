// The walk against Git itself (issue 10, finding 9): seeded random rule sets in real
// repositories, plus the cases the walk has to handle around `git ls-files`. Every Git
// call (the walk's too) runs with an empty HOME and no system config.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { walkRoot, type WalkResult } from '../src';
import { walkByRules } from '../src/walk';
import { tempDir, writeTree } from './helpers';

interface Check {
  readonly check: string;
  readonly via: string;
  readonly missing: string[];
  readonly extra: string[];
  readonly expectedVia?: string;
}
interface GitignoreTool {
  runCase(
    seed: number,
    walk: { walkRoot: typeof walkRoot; walkByRules: typeof walkByRules },
    base: string,
    env: NodeJS.ProcessEnv,
  ): { checks: Check[] };
  caseSeed(seed: number, index: number): number;
  isolatedEnv(home: string): { env: NodeJS.ProcessEnv; restore: () => void };
}

const tool = require('../../../tools/reliability/gitignore.js') as GitignoreTool;

let env: NodeJS.ProcessEnv;
let restoreEnv: () => void;
let home: string;

beforeAll(() => {
  home = tempDir('walk-git-home');
  ({ env, restore: restoreEnv } = tool.isolatedEnv(home));
});
afterAll(() => restoreEnv());

function git(cwd: string, ...args: string[]): Buffer {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    env: { ...process.env },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout;
}

function repo(label: string, files: Record<string, string | Buffer>): string {
  const root = tempDir(label);
  git(root, 'init', '-q');
  writeTree(root, files);
  return root;
}

function paths(result: WalkResult): string[] {
  return result.files.map((f) => f.path);
}

/** `git ls-files -co --exclude-standard` as Git itself answers it for `cwd` (plain, with whatever config is in effect). */
function gitListing(cwd: string): string[] {
  return git(cwd, 'ls-files', '-z', '-co', '--exclude-standard').toString('utf8').split('\0').filter(Boolean).sort();
}

describe('walk against git ls-files over seeded random .gitignore rule sets', () => {
  const seeds = Array.from({ length: 40 }, (_, i) => tool.caseSeed(1, i));
  it.each(seeds)(
    'rule set %i: the walk lists what Git lists (root, subdirectory as root, tracked phase, rules walk)',
    (seed) => {
      const base = tempDir(`walk-git-case-${seed}`);
      const { checks } = tool.runCase(seed, { walkRoot, walkByRules }, base, env);
      expect(checks.map((c) => c.check)).toEqual(['git', 'rules', 'git-subdirectory', 'git-tracked']);
      for (const c of checks) {
        const expectedVia = c.expectedVia ?? (c.check === 'rules' ? 'rules' : 'git');
        expect({ check: c.check, via: c.via, missing: c.missing, extra: c.extra }).toEqual({
          check: c.check,
          via: expectedVia,
          missing: [],
          extra: [],
        });
      }
    },
  );
});

describe('walk in a Git work tree', () => {
  it('matches case-sensitively and lets a nested !deeper/ undo a parent rule (both walks)', () => {
    const root = repo('walk-git-finding9', {
      '.gitignore': '*.TXT\ndeeper/\n',
      'b.txt': 'x',
      'C.TXT': 'x',
      'a/.gitignore': '!deeper/\n',
      'a/deeper/kept.rs': 'x',
      'b/deeper/gone.rs': 'x',
    });
    const expected = ['.gitignore', 'a/.gitignore', 'a/deeper/kept.rs', 'b.txt'];
    expect(gitListing(root)).toEqual(expected);
    const viaGit = walkRoot(root);
    expect(viaGit.via).toBe('git');
    expect(paths(viaGit)).toEqual(expected);
    expect(paths(walkByRules(root))).toEqual(expected);
  });

  it("does not read the user's global excludes file (core.excludesFile or the XDG default)", () => {
    const root = repo('walk-git-global', { 'a.rs': 'x', 'b.md': 'x', 'c.txt': 'x' });
    const xdgIgnore = path.join(home, '.config', 'git', 'ignore');
    fs.mkdirSync(path.dirname(xdgIgnore), { recursive: true });
    fs.writeFileSync(xdgIgnore, '*.md\n');
    try {
      expect(gitListing(root)).toEqual(['a.rs', 'c.txt']);
      expect(paths(walkRoot(root))).toEqual(['a.rs', 'b.md', 'c.txt']);
      fs.writeFileSync(path.join(home, 'global-ignore'), '*.rs\n');
      fs.writeFileSync(path.join(home, '.gitconfig'), `[core]\n\texcludesFile = ${path.join(home, 'global-ignore')}\n`);
      expect(gitListing(root)).toEqual(['b.md', 'c.txt']);
      expect(paths(walkRoot(root))).toEqual(['a.rs', 'b.md', 'c.txt']);
    } finally {
      fs.rmSync(path.join(home, '.config'), { recursive: true, force: true });
      fs.rmSync(path.join(home, '.gitconfig'), { force: true });
    }
  });

  it("lists a subdirectory root relative to it, with the repository's rules above it applying", () => {
    const root = repo('walk-git-sub', {
      '.gitignore': '*.log\n',
      'sub/keep.rs': 'x',
      'sub/drop.log': 'x',
      'sub/deep/f.rs': 'x',
      'other.rs': 'x',
    });
    fs.writeFileSync(path.join(root, '.git/info/exclude'), 'deep/\n');
    const result = walkRoot(path.join(root, 'sub'));
    expect(result.via).toBe('git');
    expect(paths(result)).toEqual(['keep.rs']);
  });

  it('walks a root the repository ignores by its own rules, as a directory outside Git', () => {
    const root = repo('walk-git-ignored-root', {
      '.gitignore': '*\n!.gitignore\n',
      'projects/p/src/main.rs': 'x',
      'projects/p/.gitignore': 'out/\n',
      'projects/p/out/x.rs': 'x',
    });
    const result = walkRoot(path.join(root, 'projects', 'p'));
    expect(result.via).toBe('rules');
    expect(paths(result)).toEqual(['.gitignore', 'src/main.rs']);
  });

  it('lists a linked worktree, where the common .git/info/exclude applies', () => {
    const root = repo('walk-git-worktree', { 'tracked.rs': 'x', '.gitignore': '*.log\n' });
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'one');
    const worktree = path.join(tempDir('walk-git-worktree-parent'), 'wt');
    git(root, 'worktree', 'add', '-q', worktree);
    fs.writeFileSync(path.join(root, '.git/info/exclude'), 'private.rs\n');
    writeTree(worktree, { 'new.rs': 'x', 'private.rs': 'x', 'x.log': 'x' });
    const result = walkRoot(worktree);
    expect(result.via).toBe('git');
    expect(paths(result)).toEqual(['.gitignore', 'new.rs', 'tracked.rs']);
    expect(paths(result)).toEqual(gitListing(worktree));
  });

  it('keeps tracked files under ignored paths, lists a nested repository by its own rules, and skips deleted files, submodules, FIFOs and links in the path', () => {
    const root = repo('walk-git-entries', {
      '.gitignore': 'build/\n',
      'build/tracked.rs': 'x',
      'build/untracked.rs': 'x',
      'gone.rs': 'x',
      'kept.rs': 'fn k() {}\n',
      'swap/f.rs': 'x',
      'nested/inner.rs': 'x',
      'nested/.gitignore': 'skip.rs\n',
      'nested/skip.rs': 'x',
      'nested/build/x.rs': 'x',
      'sub/inside.rs': 'x',
    });
    git(root, 'add', '-f', 'build/tracked.rs', 'gone.rs', 'kept.rs', 'swap/f.rs');
    git(path.join(root, 'nested'), 'init', '-q');
    git(root, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`);
    fs.rmSync(path.join(root, 'gone.rs'));
    const outside = tempDir('walk-git-outside');
    writeTree(outside, { 'f.rs': 'fn leaked() {}\n' });
    fs.renameSync(path.join(root, 'swap'), path.join(root, 'swap.moved'));
    fs.symlinkSync(outside, path.join(root, 'swap'));
    // A tracked file that became a FIFO (Git lists it from the index; reading it would hang).
    writeTree(root, { 'pipe.rs': 'x' });
    git(root, 'add', 'pipe.rs');
    fs.rmSync(path.join(root, 'pipe.rs'));
    expect(spawnSync('mkfifo', [path.join(root, 'pipe.rs')]).status).toBe(0);
    const result = walkRoot(root);
    expect(result.via).toBe('git');
    expect(result.files.map((f) => [f.path, f.symlink])).toEqual([
      ['.gitignore', false],
      ['build/tracked.rs', false],
      ['kept.rs', false],
      ['nested/.gitignore', false],
      ['nested/build/x.rs', false],
      ['nested/inner.rs', false],
      ['swap', true],
      ['swap.moved/f.rs', false],
    ]);
    expect(result.issues).toEqual([]);
    const kept = result.files.find((f) => f.path === 'kept.rs')!;
    const st = fs.lstatSync(path.join(root, 'kept.rs'), { bigint: true });
    expect([kept.size, kept.mtimeNs, kept.ino]).toEqual([Number(st.size), st.mtimeNs, Number(st.ino)]);
    expect(result.files.find((f) => f.path === 'swap')!.size).toBe(0);
  });

  it("lists a checked-out submodule's files by its own Git, nested ones too, and counts one not checked out", () => {
    // A vendored library as a submodule: its files were never listed, and coverage said
    // `complete` with nothing excluded (`show sym:` of its functions: no_definition).
    const lib = repo('walk-git-sublib', { 'lib.py': 'def libfn():\n    return 1\n', '.gitignore': 'skip.py\n' });
    const deep = repo('walk-git-subdeep', { 'deep.c': 'int deep(void) { return 0; }\n' });
    git(deep, 'add', '-A');
    git(deep, 'commit', '-q', '-m', 'deep');
    writeTree(lib, { 'skip.py': 'x' });
    git(lib, 'add', '-A');
    git(lib, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', deep, 'third_party/deep');
    git(lib, 'commit', '-q', '-m', 'lib');
    const root = repo('walk-git-superproject', { 'main.py': 'from lib import libfn\n' });
    git(root, 'add', '-A');
    git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib');
    git(root, '-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive');
    git(root, 'commit', '-q', '-m', 'app');
    const result = walkRoot(root);
    expect(paths(result)).toEqual([
      '.gitmodules',
      'main.py',
      'vendor/lib/.gitignore',
      'vendor/lib/.gitmodules',
      'vendor/lib/lib.py',
      'vendor/lib/third_party/deep/deep.c',
    ]);
    expect(result.skipped.counts.submodule).toBe(0);
    // A clone without --recurse-submodules: an empty directory, counted, never silent.
    const clone = tempDir('walk-git-clone');
    git(clone, 'clone', '-q', root, 'app');
    const cloned = walkRoot(path.join(clone, 'app'));
    expect(paths(cloned)).toEqual(['.gitmodules', 'main.py']);
    expect(cloned.skipped.counts.submodule).toBe(1);
    expect(cloned.skipped.largest).toEqual([{ path: 'vendor/lib/', class: 'submodule', files: 0 }]);
  });

  it('never enters untracked always-skipped directories, even where no rule ignores them, and lists the files Git tracks in them', () => {
    const root = repo('walk-git-skipped', {
      'node_modules/p/i.js': 'x',
      'node_modules/q/j.js': 'x',
      'a/target/t.rs': 'x',
      'a/kept.rs': 'x',
      '.trufflepig/c': 'x',
      'ok.rs': 'x',
      target: 'x',
    });
    git(root, 'add', '-f', 'node_modules/p/i.js', 'a/kept.rs');
    const result = walkRoot(root);
    expect(paths(result)).toEqual(['a/kept.rs', 'node_modules/p/i.js', 'ok.rs']);
    // node_modules/q/, a/target/, .trufflepig/ and the file named target.
    expect(result.skipped.counts).toEqual({ ignored: 0, untracked_vendor: 4, submodule: 0 });
  });

  it('keeps non-UTF-8 and otherwise odd names byte for byte', () => {
    const root = repo('walk-git-names', {});
    const names = [
      Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2e, 0x72, 0x73]),
      Buffer.from('50% off: a\tb.rs'),
      Buffer.from('new\nline.rs'),
      Buffer.from('"quoted".rs'),
    ];
    for (const n of names) fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), n]), 'x');
    git(root, 'add', '--', names[1].toString());
    const result = walkRoot(root);
    expect(result.via).toBe('git');
    expect(result.files.map((f) => f.raw.toString('hex')).sort()).toEqual(names.map((n) => n.toString('hex')).sort());
  });

  it('answers for its own root whatever GIT_DIR the caller inherited', () => {
    const root = repo('walk-git-env', { 'mine.rs': 'x' });
    const other = repo('walk-git-env-other', { 'theirs.rs': 'x' });
    process.env.GIT_DIR = path.join(other, '.git');
    process.env.GIT_WORK_TREE = other;
    try {
      const result = walkRoot(root);
      expect(result.via).toBe('git');
      expect(paths(result)).toEqual(['mine.rs']);
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_WORK_TREE;
    }
  });

  it('walks by the rules when git is not on PATH, and inside a .git directory', () => {
    const root = repo('walk-git-nogit', { '.gitignore': '*.log\n', 'a.rs': 'x', 'b.log': 'x' });
    const savedPath = process.env.PATH;
    process.env.PATH = tempDir('walk-git-empty-path');
    try {
      const result = walkRoot(root);
      expect(result.via).toBe('rules');
      expect(paths(result)).toEqual(['.gitignore', 'a.rs']);
    } finally {
      process.env.PATH = savedPath;
    }
    expect(walkRoot(path.join(root, '.git')).via).toBe('rules');
  });
});
