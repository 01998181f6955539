// `serveMcp` driven by the SDK's own Client over a real stdio transport, on a real Git
// repository: tools listed, search, show of a returned handle, more, a coded tool error
// for a stale handle, protocol errors for bad calls, and every text within its budget.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

interface Encoder {
  encode(text: string, allowedSpecial?: string[] | 'all', disallowedSpecial?: string[] | 'all'): number[];
}
const { Tiktoken } = require('js-tiktoken/lite') as { Tiktoken: new (ranks: unknown) => Encoder };
const encoder = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
/** o200k_base tokens: the oracle every budget is checked against. */
const tokens = (text: string) => encoder.encode(text, [], []).length;

const SERVE = path.join(__dirname, 'serve-stdio.js');
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-mcp-${prefix}-`)));
  made.push(d);
  return d;
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A repository whose answers are known: a token bucket in TypeScript and its callers. */
function makeRepo(): { root: string; cache: string; env: Record<string, string> } {
  const root = tempDir('repo');
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(
    path.join(root, 'src', 'bucket.ts'),
    [
      'export class TokenBucket {',
      '  private tokens = 0;',
      '  constructor(private readonly capacity: number, private readonly perSecond: number) {}',
      '  /** Refill the bucket by the time passed since the last refill. */',
      '  refill(elapsedSeconds: number): void {',
      '    this.tokens = Math.min(this.capacity, this.tokens + elapsedSeconds * this.perSecond);',
      '  }',
      '  take(): boolean {',
      '    if (this.tokens < 1) return false;',
      '    this.tokens -= 1;',
      '    return true;',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  for (let i = 0; i < 4; i++) {
    fs.writeFileSync(
      path.join(root, 'src', `user${i}.ts`),
      `import { TokenBucket } from './bucket';\nexport function limiter${i}(): TokenBucket {\n  const b = new TokenBucket(${i + 1}, 2);\n  b.refill(1);\n  return b;\n}\n`,
    );
  }
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'bucket');
  const cache = tempDir('cache');
  const home = tempDir('home');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    TP_CACHE: cache,
  } as Record<string, string>;
  return { root, cache, env };
}

/** The root's cache directory by the facade's own rule (mcp imports workspace's public entry only). */
function cacheDirOf(repo: { root: string; cache: string }): string {
  const { resolveRoot } = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
  const resolved = resolveRoot({ root: repo.root, cache: repo.cache });
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.value.cacheDir;
}

async function connect(root: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'trufflepig-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [SERVE], cwd: root, env, stderr: 'pipe' }),
  );
  return client;
}

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

/** The coded line of a call refused for its arguments: a tool error the model reads (SEP-1303). */
async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  expect(r.isError).toBe(true);
  expect(r.structuredContent?.error?.code).toBe('bad_arguments');
  return r.content[0].text;
}

function checked(r: unknown, budget: number): Result {
  const res = r as Result;
  expect(res.content[0].type).toBe('text');
  expect(tokens(res.content[0].text)).toBeLessThanOrEqual(budget);
  if (res.structuredContent) expect(tokens(JSON.stringify(res.structuredContent) + '\n')).toBeLessThanOrEqual(budget);
  return res;
}

describe('trufflepig MCP server over stdio (in-process verbs)', () => {
  const repo = makeRepo();
  const env = { ...repo.env, TP_NO_DAEMON: '1' };
  let client: Client;

  beforeAll(async () => {
    client = await connect(repo.root, env);
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  test('lists the eleven read tools, each with an object schema of its arguments', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'blame',
      'ctx',
      'diff',
      'hist',
      'map',
      'more',
      'refs',
      'search',
      'show',
      'since',
      'status',
    ]);
    const diff = tools.find((t) => t.name === 'diff')!;
    expect(Object.keys(diff.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['rev', 'uncommitted', 'target', 'budget']),
    );
    expect((diff.inputSchema.properties as any).uncommitted.type).toBe('boolean');
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.type).toBe('object');
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['query', 'budget', 'limit', 'context']),
    );
    expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.annotations?.openWorldHint === false)).toBe(
      true,
    );
  });

  test('a single root lists no member argument (only a workspace has members), and refuses one', async () => {
    const { tools } = await client.listTools();
    expect(tools.filter((t) => Object.hasOwn(t.inputSchema.properties ?? {}, 'member')).map((t) => t.name)).toEqual([]);
    // What the listing cost an agent in a trial on one root: 3,224 tokens, 500 of them `member`.
    expect(tokens(JSON.stringify({ tools }))).toBeLessThan(2_800);
    expect(await refusal(client, 'search', { query: 'refill', member: 'x' })).toMatch(
      /^trufflepig: bad_arguments: search has no argument "member"; it takes query,/,
    );
  });

  test('search answers lines text within the budget, and nothing else the model would be handed instead', async () => {
    const r = checked(await client.callTool({ name: 'search', arguments: { query: 'refill bucket tokens' } }), 600);
    expect(r.isError).toBeFalsy();
    const first = r.content[0].text.split('\n')[0];
    expect(first).toMatch(/^[0-9a-z]{6,}:1 {2}src\/bucket\.ts:\d+-\d+/);
    expect(r.content[0].text).toMatch(/^coverage: /m);
    // Claude Code, Codex and OpenCode give the model JSON.stringify(structuredContent) in place of the
    // text whenever it is present: by default there is none, so the model reads these lines.
    expect(r.structuredContent).toBeUndefined();
    expect(r.content).toHaveLength(1);
  });

  test('show reads a returned handle, verified, within the show budget', async () => {
    const s = checked(await client.callTool({ name: 'search', arguments: { query: 'sym:refill' } }), 600);
    const handle = s.content[0].text.split('  ')[0];
    const r = checked(await client.callTool({ name: 'show', arguments: { target: handle } }), 1200);
    expect(r.isError).toBeFalsy();
    expect(r.content[0].text).toContain('this.tokens = Math.min(this.capacity');
    expect(r.structuredContent).toBeUndefined();
  });

  test('more pages a search with the cursor its text printed, under a small budget', async () => {
    const s = checked(
      await client.callTool({ name: 'search', arguments: { query: 'TokenBucket', limit: 2, budget: 200 } }),
      200,
    );
    const next = /^next: more (\S+)/m.exec(s.content[0].text);
    expect(next).not.toBeNull();
    const page = checked(
      await client.callTool({ name: 'more', arguments: { cursor: next![1], limit: 2, budget: 200 } }),
      200,
    );
    expect(page.isError).toBeFalsy();
    const firstHandles: string[] = s.content[0].text.match(/^\S+:\d+(?= {2})/gm) ?? [];
    const nextHandles = page.content[0].text.match(/^\S+:\d+(?= {2})/gm) ?? [];
    expect(nextHandles.length).toBeGreaterThan(0);
    expect(nextHandles.some((h) => firstHandles.includes(h))).toBe(false);
  });

  test('refs, map, ctx and status answer within their budgets', async () => {
    const refs = checked(await client.callTool({ name: 'refs', arguments: { name: 'TokenBucket' } }), 600);
    expect(refs.content[0].text).toContain('src/user0.ts');
    const map = checked(await client.callTool({ name: 'map', arguments: { path: 'src/bucket.ts' } }), 600);
    expect(map.content[0].text).toMatch(/refill/);
    // A map page names its set once: `(show SET:N reads row N)`; row 1 is the class.
    const set = /\(show (\S+):N reads row N\)/.exec(map.content[0].text)?.[1];
    expect(set).toBeDefined();
    const ctx = checked(await client.callTool({ name: 'ctx', arguments: { handle: `${set!}:1` } }), 600);
    expect(ctx.content[0].text).toMatch(/refill/);
    expect(ctx.isError).toBeFalsy();
    // limit sets the rows per list, as the CLI's -n does.
    const one = checked(await client.callTool({ name: 'ctx', arguments: { handle: `${set!}:1`, limit: 1 } }), 600);
    expect(one.content[0].text.split('\n').filter((l: string) => l.startsWith('member:'))).toHaveLength(1);
    const status = checked(await client.callTool({ name: 'status', arguments: {} }), 600);
    expect(status.content[0].text).toMatch(/^state: published$/m);
  });

  test('a handle to bytes that changed is a coded tool error, never other bytes', async () => {
    const s = checked(await client.callTool({ name: 'search', arguments: { query: 'limiter3' } }), 600);
    const handle = s.content[0].text.split('  ')[0];
    fs.appendFileSync(path.join(repo.root, 'src', 'user3.ts'), '// edited\n');
    const r = checked(await client.callTool({ name: 'show', arguments: { target: handle } }), 1200);
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^trufflepig: stale_source: /);
    expect(r.structuredContent?.error?.code).toBe('stale_source');
  });

  test('an unknown tool is a protocol error carrying the stable code', async () => {
    const err = await client.callTool({ name: 'grep', arguments: { query: 'x' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    // The client prefixes "MCP error -32602: " once; the server's own message starts with the code.
    expect((err as McpError).message).toMatch(/^MCP error -32602: unknown_tool: no tool "grep"; the tools are search,/);
    expect((err as McpError).data).toEqual({ code: 'unknown_tool' });
  });

  test.each([
    [
      'a budget of the wrong type',
      'search',
      { query: 'x', budget: '5' },
      /^trufflepig: bad_arguments: budget takes a whole number/,
    ],
    ['a budget of 0', 'search', { query: 'x', budget: 0 }, /bad_arguments: budget takes 1 to/],
    ['a budget of 10,000,000', 'search', { query: 'x', budget: 10_000_000 }, /bad_arguments: budget takes 1 to/],
    ['a missing query', 'search', {}, /bad_arguments: search needs query/],
    [
      'an argument the tool does not take',
      'show',
      { target: 'x', root: '/' },
      /bad_arguments: show has no argument "root"/,
    ],
    ['an empty handle', 'ctx', { handle: '  ' }, /bad_arguments: handle must not be empty/],
  ])('%s is a tool error the model reads, carrying the stable code', async (_what, name, args, message) => {
    expect(await refusal(client, name, args as Record<string, unknown>)).toMatch(message);
    // The server is still there.
    expect((await client.listTools()).tools.length).toBe(11);
  });
});

describe('trufflepig MCP server with structured content (trufflepig --json mcp)', () => {
  const repo = makeRepo();
  const env = { ...repo.env, TP_NO_DAEMON: '1', TP_MCP_STRUCTURED: '1' };

  test('an answer carries the JSON view of the same result set beside the text, each within the budget', async () => {
    const client = await connect(repo.root, env);
    try {
      const r = checked(await client.callTool({ name: 'search', arguments: { query: 'refill bucket tokens' } }), 600);
      const handle = r.content[0].text.split('  ')[0];
      expect(handle).toMatch(/^[0-9a-z]{6,}:1$/);
      expect(r.structuredContent?.hits?.[0]?.handle).toBe(handle);
      const status = checked(await client.callTool({ name: 'status', arguments: {} }), 600);
      expect(status.structuredContent?.state).toBe('published');
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** A server process spoken to in raw lines: what a broken client would send. */
function rawServer(root: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVE], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    out += d;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const nextLine = async (): Promise<Record<string, any>> => {
    while (!out.includes('\n')) await new Promise<void>((resolve) => waiters.push(resolve));
    const i = out.indexOf('\n');
    const line = out.slice(0, i);
    out = out.slice(i + 1);
    return JSON.parse(line) as Record<string, any>;
  };
  return { child, nextLine, exited, send: (text: string) => child.stdin.write(text) };
}

describe('trufflepig MCP server: broken clients', () => {
  const repo = makeRepo();
  const env = { ...repo.env, TP_NO_DAEMON: '1' };
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  test('a line that is not JSON-RPC gets a parse error; the server goes on answering', async () => {
    const s = rawServer(repo.root, env);
    s.send('this is not json\n');
    const err = await s.nextLine();
    expect(err.id).toBeNull();
    expect(err.error.code).toBe(-32700);
    s.send(`${init}\n`);
    const ok = await s.nextLine();
    expect(ok.id).toBe(1);
    expect(ok.result.serverInfo.name).toBe('trufflepig');
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  }, 30_000);

  test('stdin closed in the middle of a call: the call is still answered, then the process ends cleanly', async () => {
    const s = rawServer(repo.root, env);
    s.send(`${init}\n`);
    await s.nextLine();
    s.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    s.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'refill' } } })}\n`,
    );
    s.child.stdin.end();
    const answer = await s.nextLine();
    expect(answer.id).toBe(2);
    expect(answer.result.content[0].text).toContain('src/bucket.ts');
    expect(await s.exited).toBe(0);
  }, 30_000);

  test('a client that goes away mid-call (stdin and stdout closed): the process ends without a crash', async () => {
    const s = rawServer(repo.root, env);
    s.send(`${init}\n`);
    await s.nextLine();
    s.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'tokens' } } })}\n`,
    );
    s.child.stdout.destroy();
    s.child.stdin.end();
    let stderr = '';
    s.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await s.exited).toBe(0);
    expect(stderr).not.toMatch(/Error:|at .*\.js:\d+/);
  }, 30_000);
});

describe('trufflepig MCP server through the daemons', () => {
  const repo = makeRepo();
  const { rootDaemonStatus } = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
  const cacheDir = cacheDirOf(repo);
  afterAll(async () => {
    // Whatever the test's outcome, no daemon outlives it.
    await (require('@trufflepig/workspace') as typeof import('@trufflepig/workspace')).stopDaemonIn(cacheDir);
  });

  test('a call starts the root daemon and is answered by it, with the JSON view when asked (--json); the session stops the daemon it started', async () => {
    expect(await rootDaemonStatus(cacheDir)).toBe('none');
    const client = await connect(repo.root, { ...repo.env, TP_MCP_STRUCTURED: '1' });
    let r: Result | undefined;
    // A daemon that has not indexed the root yet answers index_warming (as for the CLI).
    for (let i = 0; i < 80; i++) {
      r = checked(await client.callTool({ name: 'search', arguments: { query: 'refill bucket tokens' } }), 600);
      if (!r.isError) break;
      expect(r.structuredContent?.error?.code).toBe('index_warming');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(r?.isError).toBeFalsy();
    expect(r!.content[0].text).toMatch(/^[0-9a-z]{6,}:1 {2}src\/bucket\.ts:/);
    expect(r!.structuredContent?.hits?.[0]?.handle).toBe(r!.content[0].text.split('  ')[0]);
    const daemon = await rootDaemonStatus(cacheDir);
    expect(daemon).not.toBe('none');
    const status = checked(await client.callTool({ name: 'status', arguments: {} }), 600);
    expect(status.structuredContent?.daemon?.state).toBe('serving');
    await client.close();
    for (let i = 0; i < 80 && (await rootDaemonStatus(cacheDir)) !== 'none'; i++)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await rootDaemonStatus(cacheDir)).toBe('none');
  }, 60_000);
});

describe('trufflepig MCP server: a handle whose file was edited, through the daemons', () => {
  const repo = makeRepo();
  const cacheDir = cacheDirOf(repo);
  afterAll(() => (require('@trufflepig/workspace') as typeof import('@trufflepig/workspace')).stopDaemonIn(cacheDir));

  test('the stale_source error names the show sym: that reads the definition as it is now, and that call does', async () => {
    const client = await connect(repo.root, repo.env);
    try {
      let s: Result | undefined;
      for (let i = 0; i < 80; i++) {
        s = checked(await client.callTool({ name: 'search', arguments: { query: 'sym:limiter3' } }), 600);
        if (!s.isError) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const handle = s!.content[0].text.split('  ')[0];
      const file = path.join(repo.root, 'src', 'user3.ts');
      fs.writeFileSync(file, `// moved down a line\n${fs.readFileSync(file, 'utf8')}`);
      const stale = checked(await client.callTool({ name: 'show', arguments: { target: handle } }), 1200);
      expect(stale.isError).toBe(true);
      const next =
        /^trufflepig: stale_source: .*; show (sym:limiter3 file:src\/user3\.ts) reads the definition as it is now/.exec(
          stale.content[0].text,
        );
      expect(next).not.toBeNull();
      // The daemon catches up with the edit on its own (its watcher); the call then reads it.
      let now: Result | undefined;
      for (let i = 0; i < 80; i++) {
        now = checked(await client.callTool({ name: 'show', arguments: { target: next![1] } }), 1200);
        if (!now.isError) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(now!.isError).toBeFalsy();
      expect(now!.content[0].text).toMatch(/^\S+ {2}src\/user3\.ts:3-7 {2}limiter3$/m);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('trufflepig MCP server: ended by a signal', () => {
  const repo = makeRepo();
  const { rootDaemonStatus, stopDaemonIn } = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
  const cacheDir = cacheDirOf(repo);
  afterAll(() => stopDaemonIn(cacheDir));

  test('SIGTERM after a call that started a daemon: the server stops that daemon and exits 0', async () => {
    const s = rawServer(repo.root, repo.env);
    s.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await s.nextLine();
    s.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'status', arguments: {} } })}\n`,
    );
    expect((await s.nextLine()).id).toBe(2);
    expect(await rootDaemonStatus(cacheDir)).not.toBe('none');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(await rootDaemonStatus(cacheDir)).toBe('none');
  }, 60_000);
});

describe('trufflepig MCP server in a workspace', () => {
  // Two members, each a real Git repository, and the workspace file above them.
  const base = tempDir('ws');
  const env = { ...makeRepo().env, TP_NO_DAEMON: '1' };
  for (const [name, file, text] of [
    ['alpha', 'src/limiter.ts', 'export function refillTokens(bucket: number[]): void {\n  bucket.push(1);\n}\n'],
    ['beta', 'src/bucket.rs', 'pub fn refill_tokens(bucket: &mut Vec<u8>) {\n    bucket.push(1);\n}\n'],
  ] as const) {
    const root = path.join(base, name);
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', name);
  }
  fs.writeFileSync(
    path.join(base, 'trufflepig.workspace.toml'),
    '[workspace]\nname = "pair"\nmembers = ["alpha", "beta"]\n\n[members.alpha]\npath = "alpha"\n\n[members.beta]\npath = "beta"\n',
  );

  test('ws:all fuses the members with member prefixes; the member argument selects one', async () => {
    const client = await connect(base, env);
    try {
      const { tools } = await client.listTools();
      const takeMember = tools.filter((t) => Object.hasOwn(t.inputSchema.properties ?? {}, 'member'));
      expect(takeMember.map((t) => t.name).sort()).toEqual(
        ['blame', 'ctx', 'diff', 'hist', 'map', 'more', 'refs', 'search', 'show', 'since'].sort(),
      );
      const all = checked(await client.callTool({ name: 'search', arguments: { query: 'refill tokens ws:all' } }), 600);
      expect(all.isError).toBeFalsy();
      expect(all.content[0].text).toMatch(/^\S+:\d+ {2}alpha\/src\/limiter\.ts:/m);
      expect(all.content[0].text).toMatch(/^\S+:\d+ {2}beta\/src\/bucket\.rs:/m);
      const one = checked(
        await client.callTool({ name: 'search', arguments: { query: 'refill tokens', member: 'beta' } }),
        600,
      );
      expect(one.content[0].text).toMatch(/^\S+:\d+ {2}beta\/src\/bucket\.rs:/m);
      expect(one.content[0].text).not.toMatch(/alpha\//);
      const unknown = checked(
        await client.callTool({ name: 'search', arguments: { query: 'refill', member: 'gamma' } }),
        600,
      );
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent?.error?.code).toBe('unknown_member');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('trufflepig MCP server: history tools', () => {
  const repo = makeRepo();
  const env = { ...repo.env, TP_NO_DAEMON: '1' };
  const file = path.join(repo.root, 'src', 'bucket.ts');
  fs.writeFileSync(
    file,
    fs
      .readFileSync(file, 'utf8')
      .replace(
        'this.tokens + elapsedSeconds * this.perSecond',
        'this.tokens + Math.floor(elapsedSeconds * this.perSecond)',
      ),
  );
  git(repo.root, 'commit', '-q', '-am', 'refill whole tokens only');

  test('hist lists the commits that changed a definition, a change handle shows its hunk and either side; blame names the commit of each run', async () => {
    const client = await connect(repo.root, env);
    try {
      const hist = checked(await client.callTool({ name: 'hist', arguments: { target: 'sym:refill' } }), 600);
      expect(hist.isError).toBeFalsy();
      expect(hist.content[0].text).toMatch(/refill whole tokens only/);
      expect(hist.content[0].text).toMatch(/bucket/);
      const set = /\(show (\S+):N reads change N\)/.exec(hist.content[0].text)?.[1];
      expect(set).toBeDefined();
      const hunk = checked(await client.callTool({ name: 'show', arguments: { target: `${set!}:1` } }), 1200);
      expect(hunk.content[0].text).toContain('Math.floor(elapsedSeconds * this.perSecond)');
      const before = checked(
        await client.callTool({ name: 'show', arguments: { target: `${set!}:1`, side: 'before' } }),
        1200,
      );
      expect(before.content[0].text).toContain('this.tokens + elapsedSeconds * this.perSecond');
      expect(before.content[0].text).not.toContain('Math.floor');
      const blame = checked(await client.callTool({ name: 'blame', arguments: { target: 'sym:refill' } }), 600);
      expect(blame.content[0].text).toMatch(/refill whole tokens only/);
      expect(blame.structuredContent).toBeUndefined();
      expect(await refusal(client, 'show', { target: `${set!}:1`, side: 'middle' })).toMatch(
        /bad_arguments: side takes one of before, after/,
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  test('since and diff compare a revision (or HEAD: uncommitted) with the working tree; a diff handle shows its hunk', async () => {
    // With structured content (--json): the history verbs run in this process and carry it too.
    const client = await connect(repo.root, { ...env, TP_MCP_STRUCTURED: '1' });
    try {
      const since = checked(await client.callTool({ name: 'since', arguments: { rev: 'HEAD~1' } }), 600);
      expect(since.isError).toBeFalsy();
      expect(since.content[0].text).toMatch(/^\d+ ~ method TokenBucket::refill \d+-\d+ \+1 -1$/m);
      const diff = checked(
        await client.callTool({ name: 'diff', arguments: { rev: 'HEAD~1', target: 'sym:refill' } }),
        600,
      );
      expect(diff.content[0].text).toMatch(/^\+\d+\t.*Math\.floor\(elapsedSeconds \* this\.perSecond\)/m);
      expect(diff.structuredContent?.hits?.[0]).toMatchObject({ section: 'definition', status: 'changed' });
      const handle = diff.structuredContent!.hits[0].handle as string;
      const shown = checked(await client.callTool({ name: 'show', arguments: { target: handle } }), 1200);
      expect(shown.content[0].text).toContain('Math.floor');
      const clean = checked(await client.callTool({ name: 'diff', arguments: { uncommitted: true } }), 600);
      expect(clean.structuredContent).toMatchObject({ hits: [], coverage: { changes: 0, uncommitted: true } });
      expect(await refusal(client, 'diff', { rev: 'HEAD', uncommitted: true })).toMatch(
        /bad_arguments: diff takes exactly one of rev, uncommitted/,
      );
      expect(await refusal(client, 'since', {})).toMatch(/bad_arguments: since takes exactly one of rev, uncommitted/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
