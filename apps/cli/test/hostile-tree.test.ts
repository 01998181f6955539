// Repository content is untrusted: a checkout may swap an indexed file or directory for a
// symlink out of the root, a FIFO or a device between indexing and reading. Nothing from
// outside the root may be printed, nothing may block, and the index must keep taking edits.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, runCli, tempDir, type Repo, type Run } from './cli';

/** A file outside every root whose marker must never appear in any output. */
function outsideCanary(): { file: string; dir: string; marker: string } {
  const dir = tempDir('outside');
  const marker = `OUTSIDECANARY${process.pid}x${Date.now()}`;
  const file = path.join(dir, 'secret.ts');
  fs.writeFileSync(file, `export const secret = "${marker} root token";\nfunction leaked() { return "${marker}"; }\n`);
  return { file, dir, marker };
}

function expectNoLeak(run: Run, marker: string): void {
  expect(run.stdout).not.toContain(marker);
  expect(run.stderr).not.toContain(marker);
  expect(run.stdout).not.toContain('root:x:0:0');
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

function handlesOf(run: Run): string[] {
  return [...run.stdout.matchAll(/"handle":"([0-9a-z]{6,16}:\d+)"/g)].map((m) => m[1]);
}

function timedCli(repo: Repo, args: string[], timeoutMs = 15_000): Run & { ms: number } {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [
      path.resolve(__dirname, '..', 'dist', 'main.js'),
      '--no-daemon',
      '--json',
      '--root',
      repo.root,
      '--cache',
      repo.cache,
      ...args,
    ],
    {
      encoding: 'utf8',
      timeout: timeoutMs,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const ms = Date.now() - started;
  if (r.error) throw new Error(`${args.join(' ')} did not end within ${timeoutMs} ms (${r.error.message})`);
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, ms, json: () => JSON.parse(r.stdout) };
}

describe('a file swapped for a symlink out of the root', () => {
  test('no lane, snippet or show prints the outside bytes', () => {
    const canary = outsideCanary();
    const repo = makeRepo({
      'src/token.ts': 'export const token = "root token";\nfunction leaked() { return 1; }\n',
      'src/other.ts': 'export const other = 2;\n',
    });
    expect(repo.cli('index').status).toBe(0);
    const before = repo.cli('search', 'leaked');
    const oldHandles = handlesOf(before);
    expect(oldHandles.length).toBeGreaterThan(0);
    fs.rmSync(repo.abs('src/token.ts'));
    fs.symlinkSync(canary.file, repo.abs('src/token.ts') as string);
    fs.symlinkSync('/etc/passwd', repo.abs('src/passwd.ts') as string);
    const runs: Run[] = [];
    for (const q of [
      ['re:root'],
      ['re:OUTSIDECANARY'],
      ['"root token"'],
      ['leaked'],
      ['token'],
      ['"root:x"'],
      ['re:root:x'],
    ]) {
      const r = repo.cli('search', ...q);
      runs.push(r);
      for (const h of handlesOf(r)) runs.push(repo.cli('show', h));
    }
    for (const h of oldHandles) {
      const r = repo.cli('show', h);
      runs.push(r);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/stale_source/);
    }
    runs.push(repo.cli('show', 'path:src/token.ts'), repo.cli('show', 'path:src/passwd.ts'));
    for (const r of runs) expectNoLeak(r, canary.marker);
  });

  test('a directory swapped for a link to an outside directory is not read', () => {
    const canary = outsideCanary();
    const repo = makeRepo({
      'lib/secret.ts': 'export const secret = "root token";\nfunction leaked() { return 1; }\n',
      'main.ts': 'export const m = 1;\n',
    });
    expect(repo.cli('index').status).toBe(0);
    const handles = handlesOf(repo.cli('search', 'leaked'));
    fs.rmSync(repo.abs('lib'), { recursive: true });
    fs.symlinkSync(canary.dir, repo.abs('lib') as string);
    const runs = [
      repo.cli('search', 're:OUTSIDECANARY'),
      repo.cli('search', '"root token"'),
      repo.cli('search', 'leaked'),
      repo.cli('show', 'path:lib/secret.ts'),
    ];
    for (const h of handles) runs.push(repo.cli('show', h));
    for (const r of [...runs]) for (const h of handlesOf(r)) runs.push(repo.cli('show', h));
    for (const r of runs) expectNoLeak(r, canary.marker);
  });

  test('served by a daemon, the swapped link is not read either', async () => {
    const canary = outsideCanary();
    const repo = makeRepo({ 'src/token.ts': 'export const token = "root token";\n' });
    const daemon = (...args: string[]) =>
      runCli(['--root', repo.root, '--cache', repo.cache, ...args], undefined, { daemon: true });
    try {
      expect(repo.cli('index').status).toBe(0);
      fs.rmSync(repo.abs('src/token.ts'));
      fs.symlinkSync(canary.file, repo.abs('src/token.ts') as string);
      for (let i = 0; i < 3; i++) {
        for (const q of ['re:root', '"root token"', 'token']) {
          const r = daemon('search', q);
          expectNoLeak(r, canary.marker);
          for (const h of handlesOf(r)) expectNoLeak(daemon('show', h), canary.marker);
        }
      }
    } finally {
      daemon('stop');
    }
  });
});

// The show path: race (a file flipping between a regular file and a link) is tested
// in-process, where thousands of attempts fit: packages/workspace/test/show-race.test.ts.

describe('FIFOs and devices', () => {
  const mkfifo = (p: string) => {
    const r = spawnSync('mkfifo', [p]);
    if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  };

  test('a FIFO in the tree does not hang index or show path:', () => {
    const repo = makeRepo({ 'a.ts': 'export const a = 1;\n' });
    mkfifo(repo.abs('pipe.ts') as string);
    expect(timedCli(repo, ['index']).status).toBe(0);
    const r = timedCli(repo, ['show', 'path:pipe.ts']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/trufflepig: not_regular_file: .*FIFO/);
  });

  test('a FIFO named .gitignore (git blocks opening it) costs a bounded wait, then the rules walk answers', () => {
    const repo = makeRepo({ 'a.ts': 'export const fifoIgnored = 1;\n', 'sub/b.ts': 'export const beside = 2;\n' });
    mkfifo(repo.abs('sub/.gitignore') as string);
    const r = timedCli(repo, ['index'], 30_000);
    expect(r.status).toBe(0);
    expect(r.ms).toBeLessThan(20_000);
    expect(repo.cli('search', 'beside').stdout).toContain('sub/b.ts');
  }, 40_000);

  test('a FIFO swapped in for an indexed file hangs no verb', () => {
    const repo = makeRepo({ 'a.ts': 'export const alpha = "root token";\n', 'b.ts': 'export const beta = 2;\n' });
    expect(repo.cli('index').status).toBe(0);
    const handles = handlesOf(repo.cli('search', 'alpha'));
    fs.rmSync(repo.abs('a.ts'));
    mkfifo(repo.abs('a.ts') as string);
    for (const args of [
      ['search', 're:root'],
      ['search', '"root token"'],
      ['search', 'alpha'],
      ['show', 'path:a.ts'],
      ...handles.map((h) => ['show', h]),
      ['index'],
      ['search', 'beta'],
    ]) {
      const r = timedCli(repo, args);
      expect(r.ms).toBeLessThan(10_000);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
  });

  test('a symlink to /dev/zero is never read', () => {
    const repo = makeRepo({ 'a.ts': 'export const zero = 0;\n' });
    expect(repo.cli('index').status).toBe(0);
    fs.rmSync(repo.abs('a.ts'));
    fs.symlinkSync('/dev/zero', repo.abs('a.ts') as string);
    for (const args of [
      ['search', 're:\\x00'],
      ['search', '"zero"'],
      ['search', 'zero'],
      ['show', 'path:a.ts'],
      ['index'],
    ]) {
      const r = timedCli(repo, args);
      expect(r.ms).toBeLessThan(10_000);
      expect(r.stdout.length).toBeLessThan(100_000);
    }
  });
});

describe('a file changing type does not freeze the index', () => {
  test.each([
    [
      'a symlink',
      (repo: Repo) => {
        fs.rmSync(repo.abs('x.ts'));
        fs.symlinkSync('y.ts', repo.abs('x.ts') as string);
      },
    ],
    ['binary', (repo: Repo) => repo.write('x.ts', Buffer.from([0x61, 0, 0x62, 0x0a]))],
    ['larger than 2 MiB', (repo: Repo) => repo.write('x.ts', 'export const big = 1;\n'.repeat(110_000))],
  ])('after the file becomes %s, later edits are indexed', (_label, change) => {
    const repo = makeRepo({ 'x.ts': 'export const first = 1;\n', 'y.ts': 'export const second = 2;\n' });
    expect(repo.cli('index').status).toBe(0);
    change(repo);
    const again = repo.cli('index');
    expect(again.stderr).not.toMatch(/UNIQUE|cache_unwritable/);
    expect(again.status).toBe(0);
    repo.write('y.ts', 'export const freshlyEditedWord = 3;\n');
    expect(repo.cli('index').status).toBe(0);
    expect(repo.cli('search', 'freshlyEditedWord').stdout).toContain('y.ts');
    const status = repo.cli('status').json<{ coverage: { state: string } }>();
    expect(status.coverage.state).toBe('complete');
  });
});

describe('names that parsers choke on', () => {
  test('show path: with a newline in the name is coded, never a TypeError', () => {
    const repo = makeRepo({ 'a.ts': 'export const a = 1;\n' });
    expect(repo.cli('index').status).toBe(0);
    const r = repo.cli('show', 'path:new\nline.ts');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^trufflepig: source_missing: /m);
    expect(r.stderr).not.toMatch(/TypeError/);
    fs.writeFileSync(repo.abs('new\nline.ts') as string, 'export const nl = 1;\n');
    const shown = repo.cli('show', 'path:new\nline.ts');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('nl = 1');
  });
});
