// Errors are inside the budget too, on the full path and through the daemon; inputs are
// bounded before SQL; no stack trace ever reaches a user; user text is escaped and quoted
// only in part (issue 10, findings 6, 7 and 10).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, runCli, tempDir, tokens, TEST_ENV, type Repo, type Run } from './cli';

const MAIN = path.resolve(__dirname, '..', 'dist', 'main.js');
const BUDGETS = [0, 1, 3, 8, 12, 16, 20, 40, 100, 600];
const STACK = /\n\s+at .+:\d+:\d+/;

/** Stdout within `budget`; when anything is printed, the code is whole; stderr one coded line. */
function expectFitted(r: Run, budget: number, code: string | RegExp): void {
  const n = tokens(r.stdout);
  expect({ budget, n, within: n <= budget, status: r.status }).toMatchObject({ within: true, status: 2 });
  if (budget === 0) expect(r.stdout).toBe('');
  if (r.stdout) expect(r.json().error.code).toMatch(code);
  expect(r.stderr).toMatch(
    new RegExp(`^trufflepig: (?:${typeof code === 'string' ? code : code.source}): [^\\n]+\\n$`),
  );
  expect(r.stderr.length).toBeLessThan(1200);
  expect(r.stdout + r.stderr).not.toMatch(STACK);
}

describe('errors within the budget', () => {
  let repo: Repo;
  const daemon = (...args: string[]) =>
    runCli(['--root', repo.root, '--cache', repo.cache, ...args], repo.root, { daemon: true });

  beforeAll(() => {
    repo = makeRepo({ 'src/a.ts': 'export class A {\n  method() {}\n}\n' }, 'errbudget');
    expect(repo.cli('index').status).toBe(0);
    // A read starts the daemon (status asks a running one and starts none).
    expect(daemon('search', 'A').status).toBe(0);
    expect(daemon('status').json().daemon).toMatchObject({ state: 'serving' });
  });

  afterAll(() => {
    daemon('stop');
  });

  it('with a daemon running, search -b 0 with no query prints nothing on stdout', () => {
    const r = daemon('-b', '0', 'search');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^trufflepig: bad_arguments: search needs a query/);
  });

  it('usage errors through the daemon fit every budget', () => {
    for (const b of BUDGETS) {
      expectFitted(daemon('-b', String(b), 'search'), b, 'bad_arguments');
      expectFitted(daemon('-b', String(b), 'more'), b, 'bad_arguments');
    }
  });

  it('coded errors fit every budget, full path and daemon alike, the code never cut', () => {
    const cases: [string[], string | RegExp][] = [
      [['show', 'zzzzzz:1'], /unknown_result|expired_result/],
      [['show', '0123456789abcdef0123456789abcdef:1'], 'bad_handle'],
      [['search', 'x', `lang:${'k'.repeat(2000)}`], 'bad_query'],
      [['search', 'x', 'lang:klingon'], 'unknown_language'],
      [['map', 'no/such/dir/'], 'no_indexed_path'],
    ];
    for (const [args, code] of cases) {
      for (const b of [0, 3, 12, 20, 100]) {
        expectFitted(repo.cli('-b', String(b), ...args), b, code);
        expectFitted(daemon('-b', String(b), ...args), b, code);
      }
    }
  });

  it('a small budget keeps the code and cuts the message (…)', () => {
    const whole = repo.cli('search', 'x', 'lang:klingon').json().error;
    const cut = repo.cli('-b', '20', 'search', 'x', 'lang:klingon').json().error;
    expect(cut.code).toBe('unknown_language');
    expect(cut.message.endsWith('…')).toBe(true);
    expect(whole.message.startsWith(cut.message.slice(0, -1))).toBe(true);
  });

  it('a 100,000-character regex under -b 100 prints a bounded error, on both paths', () => {
    const pattern = `re:(${'a'.repeat(100_000)}`;
    for (const r of [repo.cli('-b', '100', 'search', pattern), daemon('-b', '100', 'search', pattern)]) {
      expectFitted(r, 100, /bad_regex|bad_query|request_too_large/);
    }
    const mid = `re:(${'a'.repeat(30_000)}`; // small enough for a daemon request
    expectFitted(daemon('-b', '100', 'search', mid), 100, /bad_regex|bad_query/);
  });

  it('kind:method with a 50,000-character word is bad_query, no stack, on both paths', () => {
    const word = 'a'.repeat(50_000);
    for (const r of [repo.cli('search', 'kind:method', word), daemon('search', 'kind:method', word)]) {
      expectFitted(r, 600, 'bad_query');
      expect(r.stderr).toContain('1024-character limit');
    }
  });

  it('an unexpected failure (a deleted working directory) prints one coded line, within the budget', () => {
    for (const extra of [[], ['--no-daemon']]) {
      const dir = path.join(tempDir('gone'), 'cwd');
      fs.mkdirSync(dir);
      const r = spawnSync(
        'sh',
        [
          '-c',
          'cd "$1" && rmdir "$1" && shift && exec "$@"',
          'sh',
          dir,
          process.execPath,
          MAIN,
          ...extra,
          '-b',
          '3',
          'search',
          'x',
        ],
        {
          encoding: 'utf8',
          env: TEST_ENV,
          timeout: 60_000,
        },
      );
      expect({ status: r.status, stack: STACK.test(r.stdout + r.stderr) }).toEqual({ status: 2, stack: false });
      expect(r.stderr).toMatch(/^trufflepig: internal_error: [^\n]*uv_cwd[^\n]*\n$/);
      expect(tokens(r.stdout)).toBeLessThanOrEqual(3);
    }
  });
});

describe('user text on stderr is escaped and bounded', () => {
  const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]/;

  it('an unknown verb with control or bidi characters', () => {
    for (const verb of ['evil\x1b[2J\u202e', `x\u2066${'y'.repeat(50_000)}`]) {
      const r = runCli([verb, 'arg']);
      expect(r.status).toBe(2);
      const first = r.stderr.split('\n')[0];
      expect(first).toMatch(/^trufflepig: bad_arguments: unknown verb '/);
      expect(first).not.toMatch(CONTROL);
      expect(first.length).toBeLessThan(400);
      expect(r.stdout).toBe('');
    }
  });

  it('an unknown verb named like an Object.prototype member gets a real hint', () => {
    for (const verb of ['constructor', '__proto__', 'toString']) {
      const first = runCli([verb]).stderr.split('\n')[0];
      expect(first).toMatch(
        new RegExp(`^trufflepig: bad_arguments: unknown verb '${verb}'; did you mean: trufflepig [a-z]+`),
      );
      expect(first).not.toMatch(/function|native code|\[object/);
    }
  });

  it('a --format value with control or bidi characters', () => {
    for (const value of ['json\x1b]0;title\x07', `lines\u202e${'z'.repeat(50_000)}`]) {
      const r = runCli(['--format', value, 'status']);
      expect(r.status).toBe(2);
      const first = r.stderr.split('\n')[0];
      expect(first).not.toMatch(CONTROL);
      expect(first.length).toBeLessThan(1200);
    }
  });

  it('errors of serve and stop are coded, escaped lines', () => {
    const missing = path.join(tempDir('nostop'), 'no\x1b[31mroot');
    const r = runCli(['--root', missing, 'stop']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^trufflepig: root_not_found: [^\n]+\n$/);
    expect(r.stderr).not.toMatch(CONTROL);
  });
});
