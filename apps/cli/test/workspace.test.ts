// The workspace end to end through the built CLI: members searched in worker threads, the
// background indexer of an unpublished worktree, and the ws verbs.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, tokens, until, HANDLE, TEST_ENV } from './cli';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@e',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@e',
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: GIT_ENV, stdio: 'ignore' });
}

function repo(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'init');
  return fs.realpathSync(dir);
}

function space() {
  const base = tempDir('space');
  const rust = repo(path.join(base, 'rust'), {
    'src/pool.rs': 'pub struct WorkerPool { size: usize }\nimpl WorkerPool {\n    pub fn spawn_worker(&self) {}\n}\n',
  });
  const web = repo(path.join(base, 'web'), {
    'src/pool.ts': 'export function spawnWorker(size: number) {\n  return new Array(size);\n}\n',
  });
  const docs = repo(path.join(base, 'docs'), {
    'guide.md': '# Guide\n\nEvery worker pool spawns one worker per core.\n',
  });
  fs.writeFileSync(
    path.join(base, 'trufflepig.workspace.toml'),
    '[workspace]\nname = "trio"\n\n[members.rust]\npath = "rust"\n\n[members.web]\npath = "web"\n\n[members.docs]\npath = "docs"\n',
  );
  return { base, rust, web, docs };
}

describe('trufflepig in a workspace', () => {
  const s = space();

  beforeAll(() => {
    const indexed = runCli(['index'], s.base);
    expect(indexed.status).toBe(0);
  });

  it("searches all members from outside any member, within the budget, naming each hit's member", () => {
    const run = runCli(['-b', '400', 'search', 'worker', 'pool'], s.base);
    expect(run.status).toBe(0);
    expect(tokens(run.stdout)).toBeLessThanOrEqual(400);
    // How many hits fit 400 tokens depends on how the random set id tokenizes: check the
    // members on a page with room for all of them.
    const page = runCli(['-b', '1500', 'search', 'worker', 'pool'], s.base).json();
    expect(new Set(page.hits.map((h: { member: string }) => h.member))).toEqual(new Set(['rust', 'web', 'docs']));
    for (const h of page.hits) expect(h.handle).toMatch(HANDLE);
    expect(page.members).toEqual({ rust: s.rust, web: s.web, docs: s.docs });
    const lines = runCli(['--format', 'lines', '-b', '400', 'search', 'worker', 'pool'], s.base);
    expect(tokens(lines.stdout)).toBeLessThanOrEqual(400);
    expect(lines.stdout).toMatch(/^[0-9a-z]{6,16}:1 {2}(rust|web|docs)\//m);
    expect(lines.stdout).toMatch(
      /^coverage: rust complete \d+ hits?; web complete \d+ hits?; docs complete \d+ hits?; scope all members$/m,
    );
  });

  it('members searched in worker threads give the same page as members searched on one thread', () => {
    const oneThread = runCli(['search', 'worker', 'pool'], s.base).json();
    const workers = runCli(['search', 'worker', 'pool'], s.base, {
      env: { ...TEST_ENV, TRUFFLEPIG_WORKER_MIN_INDEX_BYTES: '0' },
    }).json();
    const strip = (page: Record<string, any>) =>
      (page.hits as { handle: string }[]).map((h) => ({ ...h, handle: h.handle.split(':')[1] }));
    expect(strip(workers)).toEqual(strip(oneThread));
    expect(workers.coverage).toEqual(oneThread.coverage);
  });

  it("reads a hit back from another member's directory", () => {
    const page = runCli(['search', 'in:web', 'spawnWorker'], s.rust).json();
    const shown = runCli(['show', page.hits[0].handle], s.docs).json();
    expect(shown).toMatchObject({ member: 'web', path: 'src/pool.ts' });
  });

  it('ws status in lines: one row per member, a note the members share once, within the default budget', () => {
    const run = runCli(['--format', 'lines', 'ws', 'status'], s.base);
    expect(run.status).toBe(0);
    expect(tokens(run.stdout)).toBeLessThanOrEqual(600);
    for (const name of ['rust', 'web', 'docs'])
      expect(run.stdout).toMatch(
        new RegExp(`^member ${name}: ${name} {2}complete {2}generation \\d+ {2}\\d+ files`, 'm'),
      );
    // Each member's status had been a JSON object on one line, its history note repeated.
    expect(run.stdout).not.toMatch(/[{}]/);
    const json = runCli(['-b', '3000', 'ws', 'status'], s.base).json();
    const histories = new Set(
      Object.values(json.members).map((m) => JSON.stringify((m as { history: unknown }).history)),
    );
    expect(run.stdout.match(/^history/gm)).toHaveLength(histories.size);
    expect(runCli(['--format', 'lines', 'ws', 'show'], s.base).stdout).toMatch(/^member web: web {2}available$/m);
    // One member's status is its root's, parse failures and skipped directories included
    // (`--member` had been ignored: the workspace's rows again).
    const one = runCli(['--format', 'lines', '--member', 'web', 'status'], s.base).stdout;
    expect(one).toContain(`root: ${s.web}\n`);
    expect(one).toMatch(/^coverage\.indexed_files: 1$/m);
    expect(one).not.toMatch(/^member /m);
  });

  it('an unpublished worktree answers from its member at once while its own daemon (seeded) publishes it', async () => {
    const wt = path.join(s.base, 'rust-topic');
    git(s.rust, 'worktree', 'add', '-q', '-b', 'topic', wt);
    fs.writeFileSync(path.join(wt, 'src', 'extra.rs'), 'pub fn drain_pool() {}\n');
    const first = runCli(['search', 'spawn_worker'], wt, { daemon: true }).json();
    expect(first.coverage.members.rust).toMatchObject({
      state: 'parent_fallback',
      served_from: 'rust index',
      differs: 1,
    });
    const status = await until(
      'the worktree publication',
      () => {
        // Its JSON names every member's root and cache, as long as the temporary directory's paths.
        const st = runCli(['ws', 'status', '-b', '3000'], wt, { daemon: true }).json();
        return st.members.rust.generation === 1 ? st : undefined;
      },
      90_000,
    );
    expect(status.members.rust).toMatchObject({
      state: 'complete',
      seed: { state: 'seeded' },
      worktree: fs.realpathSync(wt),
      // The worktree's daemon, and the coordinator: `ws status` had said `daemon: none` whatever ran.
      daemon: { state: 'serving', pid: expect.any(Number) },
    });
    expect(status.daemon).toMatchObject({ state: 'serving', pid: expect.any(Number) });
    const later = runCli(['search', 'drain_pool'], wt, { daemon: true }).json();
    expect(later.coverage.members.rust.state).toBe('complete');
    expect(later.hits[0]).toMatchObject({ member: 'rust', path: 'src/extra.rs' });
    // This test started the coordinator and the worktree's daemon: stop both.
    expect(runCli(['stop'], wt, { daemon: true }).json()).toMatchObject({
      what: 'workspace coordinator',
      stopped: expect.any(Number),
    });
    expect(runCli(['--root', wt, '--no-workspace', 'stop'], wt, { daemon: true }).json()).toMatchObject({
      what: 'root daemon',
      stopped: expect.any(Number),
    });
  });

  it('ws discover proposes a configuration and applies nothing', () => {
    const out = runCli(['ws', 'discover', 'rust', 'web'], s.base).json();
    expect(out.proposal.workspace.members).toEqual(['rust', 'web']);
    expect(out.applied).toBe(false);
  });

  it('bad workspace flags are usage errors with the next step', () => {
    const both = runCli(['--workspace', 'x.toml', '--no-workspace', 'search', 'x'], s.base);
    expect(both.status).toBe(2);
    expect(both.stderr.split('\n')[0]).toMatch(/--no-workspace conflicts with --workspace/);
    const noSub = runCli(['ws'], s.base);
    expect(noSub.status).toBe(2);
    expect(noSub.stderr.split('\n')[0]).toMatch(/ws takes show, status or discover/);
    const missing = runCli(['--workspace', 'missing.toml', 'search', 'x'], s.base);
    expect(missing.status).toBe(2);
    expect(missing.json().error.code).toBe('workspace_not_found');
  });
});

describe('navigation verbs through the CLI', () => {
  const s = space();

  it('show sym:, refs, map and ctx answer with member provenance, within their budgets', () => {
    expect(runCli(['index'], s.base).status).toBe(0);
    const sym = runCli(['show', 'sym:WorkerPool'], s.base);
    expect(sym.json()).toMatchObject({ member: 'rust', path: 'src/pool.rs', kind: 'struct' });
    const filtered = runCli(['show', 'sym:WorkerPool', 'lang:typescript'], s.base);
    expect(filtered.status).toBe(2);
    expect(filtered.json().error.code).toBe('no_definition');
    const refs = runCli(['-b', '300', '--format', 'lines', 'refs', 'spawnWorker'], s.base);
    expect(tokens(refs.stdout)).toBeLessThanOrEqual(300);
    // One row per site under its member's file: `N LINE role: text` (docs/navigation.md).
    expect(refs.stdout).toMatch(
      /^web\/src\/pool\.ts\n1 1 declaration: export function spawnWorker\(size: number\) \{$/m,
    );
    const map = runCli(['map', 'src/pool.rs'], s.rust).json();
    expect(map.hits.map((h: { name: string }) => h.name)).toEqual([
      'WorkerPool',
      'WorkerPool::spawn_worker',
      'WorkerPool::size',
    ]);
    const ctx = runCli(['ctx', map.hits[1].handle], s.rust).json();
    expect(ctx.container).toMatchObject({ member: 'rust', name: 'WorkerPool' });
    const unknown = runCli(['outline', 'src/pool.rs'], s.rust);
    expect(unknown.stderr.split('\n')[0]).toMatch(/did you mean: trufflepig map PATH/);
  });
});
