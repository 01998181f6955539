// The Claude Code hint hook: the classifier's table of real shell commands (pure), the
// shell-word reading under it, the rate limit with an injected clock, and the built
// `trufflepig hook claude` end to end (PreToolUse JSON on stdin, JSON on stdout).
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { classify } from '../src/hook/classify';
import { langOfExtension } from '../src/hook/filters';
import { decideHint, hintKey, HINT_STATE_FILE, parseHintState } from '../src/hook/rate-limit';
import { parseCommandLine, texts } from '../src/hook/shell-words';
import { HINT_INTERVAL_MS } from '../src/limits';
import { MAIN, makeRepo, runCli, tempDir, TEST_ENV, type Repo } from './cli';

const WHERE = { cwd: '/repo', root: '/repo', home: '/home/me' };

describe('classify: real commands and their suggestion (cwd = root = /repo)', () => {
  // [command, class, suggestion after `trufflepig `] or [command] for no suggestion.
  const TABLE: ReadonlyArray<readonly [string, string?, string?]> = [
    ['grep -rn "TokenBucket" .', 'grep', 'search TokenBucket'],
    ['grep -rn TokenBucket src/', 'grep', 'search TokenBucket file:src/'],
    ['grep -R "refill_tokens" --include="*.rs" .', 'grep', 'search refill_tokens lang:rust'],
    ['grep -rni "rate limit" docs/', 'grep', `search '"rate limit"' file:docs/`],
    // A literal with a capital matches as typed (smart case): grep -i's goes in lower case.
    ['grep -rni "Rate Limit" docs/', 'grep', `search '"rate limit"' file:docs/`],
    ['grep -rnw "Bucket" packages/', 'grep', 'search Bucket file:packages/'],
    ['grep -rl "countTokens" packages/render/src', 'grep', 'search countTokens file:packages/render/src/'],
    [`grep -rn "fn refill\\|fn drain" src/`, 'grep', `search 're:fn refill|fn drain' file:src/`],
    ['grep -rnE "fn (refill|drain)_tokens" .', 'grep', `search 're:fn (refill|drain)_tokens'`],
    ['grep -rnF "a.b(c)" .', 'grep', `search '"a.b(c)"'`],
    ['grep -rn -A 3 "TODO" src/', 'grep', `search '"TODO"' file:src/ -C 3`],
    ['grep -rn "timeout" --include=*.ts --exclude-dir=node_modules .', 'grep', `search '"timeout"' lang:typescript`],
    [`egrep -rn "class \\w+Error" .`, 'grep', `search 're:class \\w+Error'`],
    [`grep -r "import.*from '@trufflepig" apps/`, 'grep', `search 're:import.*from '\\''@trufflepig' file:apps/`],
    [`grep -rn "\\(foo\\)\\1" .`],
    ['grep -rc "TODO" src/'],
    ['grep -rv "foo" .'],
    ['grep -rq TokenBucket . && echo yes'],
    ['grep -rn -f patterns.txt .'],
    ['grep foo file.txt'],
    ['grep -n "main" src/main.rs'],
    ['grep -i error build.log'],
    ['ps aux | grep node'],
    ['cat package.json | grep version'],
    ['git log --oneline | grep fix'],
    ['grep -rn foo $SRC'],
    ['rg TokenBucket', 'rg', 'search TokenBucket'],
    ['rg -n "refill_tokens" src', 'rg', 'search refill_tokens file:src/'],
    ['rg -i "rate limit"', 'rg', `search '"rate limit"'`],
    ['rg -w Bucket -t rust', 'rg', 'search Bucket lang:rust'],
    [`rg -t ts "countTokens\\(" packages/`, 'rg', `search '"countTokens("' lang:typescript file:packages/`],
    [`rg -g "*.rs" "impl\\s+\\w+\\s+for"`, 'rg', `search 're:impl\\s+\\w+\\s+for' lang:rust`],
    [`rg -g '!tests/**' -g '*.ts' parseQuery`, 'rg', 'search parseQuery lang:typescript -file:tests/'],
    ['rg -F "a.b(c)"', 'rg', `search '"a.b(c)"'`],
    ['rg -S RefillTokens', 'rg', 'search RefillTokens'],
    ['rg -S refill', 'rg', `search '"refill"'`],
    ['rg -C 2 "fn main"', 'rg', `search '"fn main"' -C 2`],
    ['rg --files', 'rg', 'map .'],
    ['rg --files -g "*.toml"'],
    ['rg --files | grep bucket', 'rg', 'search kind:file bucket'],
    [`rg -l TODO | xargs sed -i 's/TODO/DONE/'`],
    ['rg -c TODO'],
    ['rg --version'],
    ['rg --type-list'],
    ['rg -uu secret'],
    ['rg --no-ignore secret'],
    [`rg -U "foo\\nbar"`],
    ['rg -P "foo(?=bar)"'],
    ['rg foo /etc/hosts'],
    ['rg foo ../other-repo'],
    ['rg foo ~/notes'],
    ['git grep TokenBucket', 'git-grep', 'search TokenBucket'],
    ['git grep -n "refill" -- "*.rs"', 'git-grep', `search '"refill"' lang:rust`],
    [
      `git grep -in "rate limit" -- src/ ':!src/vendor'`,
      'git-grep',
      `search '"rate limit"' file:src/ -file:src/vendor/`,
    ],
    ['git grep -l foo HEAD~3'],
    ['git -C packages/rank grep -w terms', 'git-grep', 'search terms file:packages/rank/'],
    ['git grep -c foo'],
    ['cd packages/index && grep -rn "reconcile" src/', 'grep', `search '"reconcile"' file:packages/index/src/`],
    ['cd packages/index; rg -n walkRoot', 'rg', 'search walkRoot file:packages/index/'],
    ['cd /tmp && grep -rn foo .'],
    ['cd "$DIR" && rg foo'],
    ['FOO=1 rg -n TokenBucket', 'rg', 'search TokenBucket'],
    ['timeout 10 rg -n TokenBucket', 'rg', 'search TokenBucket'],
    ['find . -name "*.rs"', 'find', 'search kind:file lang:rust'],
    ['find . -type f -name "bucket*"', 'find', 'search kind:file file:bucket'],
    ['find . -iname "*config*"', 'find', 'search kind:file config'],
    ['find src -name "*.ts" -not -path "*/node_modules/*"', 'find', 'search kind:file lang:typescript file:src/'],
    ['find . -path ./node_modules -prune -o -name "*.ts" -print', 'find', 'search kind:file lang:typescript'],
    ['find . -name "cache-dir.ts"', 'find', 'search kind:file file:cache-dir.ts'],
    ['find . -name "*.ts" | xargs grep -l countTokens', 'grep', 'search countTokens lang:typescript'],
    ['find . -name "*.rs" -exec grep -n "unsafe" {} +', 'grep', `search '"unsafe"' lang:rust`],
    ['find . -name "*.log" -delete'],
    ['find . -type d -name tests'],
    ['find . -mtime -1'],
    ['find . -name "*.ts" | wc -l'],
    ['find . -name "*.yaml"'],
    ['find packages -type f', 'find', 'map packages/'],
    ['fd bucket', 'fd', 'search kind:file bucket'],
    ['fd -e rs', 'fd', 'search kind:file lang:rust'],
    ['fd -e ts -E node_modules cache', 'fd', 'search kind:file cache lang:typescript'],
    [`fd '^cache-dir'`, 'fd', 'search kind:file file:cache-dir'],
    ['fd -t d src'],
    ['fd -H -I .env'],
    ['fd --version'],
    ['fd -e rs -x grep -n unsafe', 'grep', `search '"unsafe"' lang:rust`],
    ['ls -la'],
    ['cat README.md'],
    ['echo "grep -rn foo ."'],
    ['sed -n 1,20p src/lib.rs'],
  ];

  it('has at least 40 commands, both kinds', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    expect(TABLE.filter((r) => r.length === 1).length).toBeGreaterThanOrEqual(15);
  });

  it.each(TABLE.map((r) => [r[0], r[1] ?? null, r[2] ?? null] as const))('%s', (command, cls, suggestion) => {
    const s = classify(command, WHERE);
    expect(s === undefined ? null : [s.class, s.command]).toEqual(
      cls === null ? null : [cls, `trufflepig ${suggestion}`],
    );
  });

  it('names the absolute targets the command searches, after cd and git -C', () => {
    expect(classify('cd packages/index && grep -rn reconcile src/ tests/', WHERE)?.targets).toEqual([
      '/repo/packages/index/src',
      '/repo/packages/index/tests',
    ]);
    expect(classify('git -C packages/rank grep -w terms', WHERE)?.targets).toEqual(['/repo/packages/rank']);
    expect(classify('rg foo ~/notes', { cwd: '/repo', root: '/', home: '/home/me' })?.targets).toEqual([
      '/home/me/notes',
    ]);
  });

  it('renders relative to the root, with the program and --root it is given', () => {
    const s = classify('rg -n walkRoot', {
      cwd: '/repo/packages/index',
      root: '/repo',
      program: '/usr/bin/node /x/main.js',
      rootOption: '/repo',
    });
    expect(s?.command).toBe('/usr/bin/node /x/main.js --root /repo search walkRoot file:packages/index/');
  });
});

describe('shell words', () => {
  const words = (line: string) => parseCommandLine(line)?.map((p) => p.map((c) => texts(c.words)));

  it('reads quotes, escapes, pipes, separators and drops redirections', () => {
    expect(words(`FOO=1 grep -rn "a b" 'c d' e\\ f 2>/dev/null | head -n 5 && cd x; rg y >out.txt 2>&1`)).toEqual([
      [
        ['FOO=1', 'grep', '-rn', 'a b', 'c d', 'e f'],
        ['head', '-n', '5'],
      ],
      [['cd', 'x']],
      [['rg', 'y']],
    ]);
  });

  it('marks expansions and globs, and gives up on what it cannot read', () => {
    const [[cmd]] = parseCommandLine('rg "$X" $(pwd) *.ts ~/a') ?? [[]];
    expect(cmd.words.map((w) => [w.dynamic, w.glob, w.tilde])).toEqual([
      [false, false, false],
      [true, false, false],
      [true, false, false],
      [false, true, false],
      [false, false, true],
    ]);
    expect(parseCommandLine('grep "unclosed')).toBeUndefined();
    expect(parseCommandLine('cat <<EOF\nx\nEOF')).toBeUndefined();
  });
});

describe('languages come from the index', () => {
  it('maps every extension the index classifies to its lang:, text to none, C and C++ included', () => {
    expect(
      ['rs', 'tsx', 'mjs', 'py', 'c', 'h', 'hpp', 'cc', 'md', 'toml', 'weird'].map((e) => langOfExtension(e)),
    ).toEqual(['rust', 'typescript', 'javascript', 'python', 'c', 'c', 'cpp', 'cpp', undefined, undefined, undefined]);
    expect(classify('rg -n kmalloc -g "*.c" .', WHERE)?.command).toMatch(/lang:c\b/);
  });
});

describe('rate limit (injected clock)', () => {
  const T0 = 1_700_000_000_000;

  it('one hint per session and class within the interval', () => {
    const first = decideHint(undefined, hintKey('s1', 'rg'), T0);
    expect(first.hint).toBe(true);
    const again = decideHint(first.next, hintKey('s1', 'rg'), T0 + HINT_INTERVAL_MS - 1);
    expect(again.hint).toBe(false);
    expect(decideHint(again.next, hintKey('s1', 'find'), T0 + 1000).hint).toBe(true);
    expect(decideHint(again.next, hintKey('s2', 'rg'), T0 + 1000).hint).toBe(true);
    const later = decideHint(again.next, hintKey('s1', 'rg'), T0 + HINT_INTERVAL_MS);
    expect(later.hint).toBe(true);
    expect(later.next.last[hintKey('s1', 'rg')]).toBe(T0 + HINT_INTERVAL_MS);
  });

  it('a suppressed hint does not extend the window; old entries are dropped; a clock that went back hints', () => {
    const first = decideHint(undefined, 'a|rg', T0);
    const suppressed = decideHint(first.next, 'a|rg', T0 + 60_000);
    expect(suppressed.next.last['a|rg']).toBe(T0);
    const other = decideHint(suppressed.next, 'b|rg', T0 + HINT_INTERVAL_MS + 1);
    expect(Object.keys(other.next.last)).toEqual(['b|rg']);
    expect(decideHint(first.next, 'a|rg', T0 - 1).hint).toBe(true);
  });

  it('reads back only a state it could have written', () => {
    expect(parseHintState('{"last":{"a|rg":5,"b":"x"}}')).toEqual({ last: { 'a|rg': 5 } });
    expect(parseHintState('[1]')).toBeUndefined();
    expect(parseHintState('not json')).toBeUndefined();
  });
});

describe('trufflepig hook claude (built CLI, end to end)', () => {
  let repo: Repo;
  const call = (command: string, cwd: string, session = 'session-1', tool = 'Bash') =>
    JSON.stringify({
      session_id: session,
      transcript_path: '/tmp/t.jsonl',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: tool,
      tool_input: { command, description: 'search' },
      tool_use_id: 'toolu_1',
    });
  const hook = (input: string, extra: string[] = [], cwd = repo.root) =>
    runCli(['--cache', repo.cache, 'hook', 'claude', ...extra], cwd, { lines: true, input });
  const context = (r: ReturnType<typeof hook>): string => {
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext?: string; permissionDecision?: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(out.hookSpecificOutput.permissionDecision).toBeUndefined();
    return out.hookSpecificOutput.additionalContext ?? '';
  };
  const silent = (r: ReturnType<typeof hook>) =>
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });

  beforeAll(() => {
    repo = makeRepo(
      {
        'src/bucket.rs':
          'pub struct TokenBucket { tokens: u32 }\nimpl TokenBucket {\n    pub fn refill_tokens(&mut self) { self.tokens = 10; }\n}\n',
        'src/sub/deep.rs': 'pub fn deep() {}\n',
        'src/godebug.rs':
          '// http2client=0 turns HTTP/2 off\npub fn http2_off() -> bool { std::env::var("GODEBUG").map_or(false, |v| v.contains("http2client=0")) }\n',
        'README.md': '# bucket\n',
      },
      'hook',
    );
    const indexed = repo.cli('index');
    expect(indexed.status).toBe(0);
  });

  it('reads a call that reaches stdin late (a pipe that stays open a while)', () => {
    const file = path.join(tempDir('hook-late'), 'call.json');
    fs.writeFileSync(file, call('rg -n TokenBucket src/', repo.root, 'session-late'));
    const r = spawnSync(
      'sh',
      [
        '-c',
        `(sleep 0.3; cat "$1") | "$2" "$3" --no-daemon --cache "$4" hook claude`,
        'sh',
        file,
        process.execPath,
        MAIN,
        repo.cache,
      ],
      { cwd: repo.root, encoding: 'utf8', env: TEST_ENV, timeout: 30_000 },
    );
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain('search TokenBucket file:src/');
  });

  it('suggests a search that keeps what grep prints: a name only in a string and a comment', () => {
    // `sym:` reads definitions and code uses: it would answer 0 hits here.
    const text = context(hook(call('rg -n http2client src/', repo.root, 'session-strings')));
    expect(text).toContain(`search http2client file:src/`);
    const out = repo.cli('search', 'http2client', 'file:src/');
    expect(out.json<{ hits: { path: string }[] }>().hits.map((h) => h.path)).toEqual(['src/godebug.rs']);
  });

  it('answers a grep aimed at the indexed root with the search as added context', () => {
    const text = context(hook(call('rg -n TokenBucket src/', repo.root)));
    // With the --cache the hook runs with: the suggestion must open the same index.
    expect(text).toContain(`\`trufflepig --cache ${repo.cache} search TokenBucket file:src/\``);
    expect(text).toContain('The rg command runs as written');
  });

  it('suggests once per class and session until the interval has passed (state file in the cache dir)', () => {
    const s = 'session-rate';
    expect(context(hook(call('grep -rn refill_tokens .', repo.root, s)))).toContain('search refill_tokens');
    silent(hook(call('grep -rn TokenBucket src', repo.root, s)));
    expect(context(hook(call('find . -name "*.rs"', repo.root, s)))).toContain('search kind:file lang:rust');
    expect(context(hook(call('grep -rn TokenBucket src', repo.root, 'another-session')))).toContain(
      'search TokenBucket',
    );
    // Age the state as if the interval had passed: the next grep is hinted again.
    const stateFile = path.join(repo.cacheDir, HINT_STATE_FILE);
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { last: Record<string, number> };
    expect(state.last[`${s}|grep`]).toBeGreaterThan(0);
    state.last[`${s}|grep`] -= HINT_INTERVAL_MS;
    fs.writeFileSync(stateFile, JSON.stringify(state));
    expect(context(hook(call('grep -rn TokenBucket src', repo.root, s)))).toContain('search TokenBucket');
  });

  it('addresses the root from a subdirectory, and names --root when the command runs elsewhere', () => {
    expect(
      context(
        hook(call('rg -w deep', path.join(repo.root, 'src', 'sub'), 'session-sub'), [], path.join(repo.root, 'src')),
      ),
    ).toContain('search deep file:src/sub/');
    const elsewhere = tempDir('hook-elsewhere');
    const text = context(
      hook(call(`rg -n TokenBucket ${repo.root}/src`, elsewhere, 'session-elsewhere'), [], elsewhere),
    );
    expect(text).toContain(`--root ${repo.root} search TokenBucket file:src/`);
  });

  it('stays silent for commands with no suggestion, other tools and roots that are not indexed', () => {
    silent(hook(call('ps aux | grep node', repo.root, 'quiet')));
    silent(hook(call('grep foo README.md', repo.root, 'quiet')));
    silent(hook(call('rg --version', repo.root, 'quiet')));
    silent(hook(call('ls -la', repo.root, 'quiet')));
    silent(hook(call('rg -n TokenBucket', repo.root, 'quiet', 'Read')));
    const unindexed = makeRepo({ 'a.rs': 'fn a() {}\n' }, 'hook-unindexed');
    silent(hook(call('rg -n TokenBucket', unindexed.root, 'quiet'), [], unindexed.root));
  });

  it('--block denies with the suggestion once, then lets the same class through', () => {
    const first = hook(call('git grep -n refill_tokens', repo.root, 'session-block'), ['--block']);
    expect(first.status).toBe(0);
    const out = JSON.parse(first.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(
      `run \`trufflepig --cache ${repo.cache} search refill_tokens\` instead`,
    );
    silent(hook(call('git grep -n refill_tokens', repo.root, 'session-block'), ['--block']));
  });

  it('never exits 2 (that would block the call): bad input and wrong use are exit 1 and one line', () => {
    const bad = hook('not json');
    expect({ status: bad.status, stdout: bad.stdout }).toEqual({ status: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^trufflepig: bad_hook_input: [^\n]+\n$/);
    const wrong = runCli(['hook', 'codex'], repo.root, { lines: true, input: '{}' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/^trufflepig: bad_arguments: hook knows no harness 'codex'/);
    const flag = runCli(['hook', 'claude', '--force'], repo.root, { lines: true, input: '{}' });
    expect(flag.status).toBe(1);
    silent(runCli(['hook', 'claude'], repo.root, { lines: true, input: '{"tool_name":"Bash"}', env: TEST_ENV }));
  });
});
