// The workspace coordinator through the CLI: demand-started by a workspace read, starting
// member daemons, waiting for an unpublished home, reporting members past the deadline,
// and stopped alone by `stop`. Every daemon a test starts is stopped by that test.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, TEST_ENV } from './cli';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@e',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@e',
};

function repo(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir], { env: GIT_ENV });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return fs.realpathSync(dir);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function daemonPids(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/(daemon|coordinator)-main\.js/.test(cmd) && cmd.includes(TEST_ENV.XDG_CACHE_HOME!)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('the workspace coordinator', () => {
  const base = tempDir('coord');
  const app = repo(
    path.join(base, 'app'),
    Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/m${i}.rs`, `pub fn app_item_${i}() {}\n`])),
  );
  const lib = repo(path.join(base, 'lib'), { 'src/story.ts': 'export class StoryTeller {}\n' });
  repo(
    path.join(base, 'big'),
    Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`src/b${i}.rs`, `pub fn big_item_${i}() { let v = ${i}; }\n`]),
    ),
  );
  fs.writeFileSync(
    path.join(base, 'trufflepig.workspace.toml'),
    '[workspace]\nname = "pair"\n\n[members.app]\npath = "app"\n\n[members.lib]\npath = "lib"\n\n[members.big]\npath = "big"\n\n[members.gone]\npath = "gone"\n',
  );
  const cli = (cwd: string, args: string[], env: NodeJS.ProcessEnv = TEST_ENV) =>
    runCli(args, cwd, { daemon: true, env });

  afterAll(() => {
    for (const pid of daemonPids()) process.kill(pid, 'SIGTERM');
  });

  it('a workspace read starts the coordinator and the home member daemon, and waits for the home to publish', () => {
    const page = cli(app, ['search', 'app_item_7']).json();
    expect(page.hits[0]).toMatchObject({ member: 'app', path: 'src/m7.rs' });
    expect(page.coverage.members.app.state).toBe('complete');
    const cmds = daemonPids().map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    expect(cmds.filter((c) => c.includes('serving/host/coordinator-main.js'))).toHaveLength(1);
    expect(cmds.filter((c) => c.includes('serving/host/daemon-main.js') && c.includes(app))).toHaveLength(1);
    expect(cmds.some((c) => c.includes('serving/host/daemon-main.js') && c.includes(lib))).toBe(false);
  });

  it('members missing and warming are reported, members past the deadline time out', () => {
    const env = { ...TEST_ENV, TRUFFLEPIG_HOME_WAIT_MS: '0' };
    // The coordinator is already running: restart it with the short settings.
    cli(base, ['stop']);
    const all = cli(base, ['search', 'ws:all', 'StoryTeller'], env).json();
    expect(all.coverage.members.gone.state).toBe('unavailable');
    // big's daemon was started by this query; 1,500 files take its first reconcile seconds.
    expect(all.coverage.members.big.state).toBe('warming');
    expect(all.coverage.members.app.state).toBe('complete');
    cli(base, ['stop']);
    const late = cli(base, ['search', 'ws:all', 'StoryTeller'], { ...TEST_ENV, TRUFFLEPIG_QUERY_DEADLINE_MS: '0' });
    expect(late.status).toBe(2);
    expect(late.json().error.code).toBe('timed_out');
    cli(base, ['stop']);
  });

  it('serve in a workspace refuses with workspace_selected and says how to serve one root', () => {
    const r = cli(app, ['serve']);
    expect(r.status).toBe(2);
    expect(r.json().error.code).toBe('workspace_selected');
    // The coordinator exists: the message must not say otherwise (it did until issue 12).
    expect(r.stderr).not.toContain('no workspace coordinator');
    expect(r.stderr).toContain('--no-workspace');
  });

  it('stop in a workspace stops only the coordinator', async () => {
    cli(app, ['search', 'app_item_3']);
    const before = daemonPids();
    const stopped = cli(app, ['stop']).json();
    expect(stopped.what).toBe('workspace coordinator');
    for (let i = 0; i < 50 && pidAlive(stopped.stopped); i++) await new Promise((r) => setTimeout(r, 100));
    expect(pidAlive(stopped.stopped)).toBe(false);
    const members = before.filter((pid) => pid !== stopped.stopped);
    expect(members.length).toBeGreaterThan(0);
    expect(members.every(pidAlive)).toBe(true);
  });
});
