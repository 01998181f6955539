// `trufflepig mcp` end to end: the built CLI spoken to by the MCP SDK's own Client over a
// real stdio transport, on a real repository (the server package's own tests cover the
// tools, errors and lifetimes in depth; this checks the verb and its global options).
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, runCli, TEST_ENV, tempDir, tokens } from './cli';

const MAIN = path.resolve(__dirname, '..', 'dist', 'main.js');

describe('trufflepig mcp', () => {
  test('serves --root from another directory: tools listed, a search, a returned handle shown, each within its budget', async () => {
    const repo = makeRepo(
      {
        'src/bucket.rs':
          'pub struct TokenBucket { tokens: u32 }\nimpl TokenBucket {\n    pub fn refill(&mut self) { self.tokens += 1; }\n}\n',
        'src/other.rs': 'pub fn unrelated() -> u32 { 7 }\n',
      },
      'mcp',
    );
    const elsewhere = tempDir('mcp-cwd');
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, '--no-daemon', '--root', repo.root, '--cache', repo.cache, 'mcp'],
        cwd: elsewhere,
        env: TEST_ENV as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
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
      const found = (await client.callTool({ name: 'search', arguments: { query: 'refill tokens', budget: 300 } })) as {
        content: { text: string }[];
        structuredContent?: unknown;
      };
      expect(tokens(found.content[0].text)).toBeLessThanOrEqual(300);
      // No JSON view unless --json: clients that see one hand it to the model instead of the lines.
      expect(found.structuredContent).toBeUndefined();
      expect(found.content[0].text).toMatch(/^[0-9a-z]{6,}:1 {2}src\/bucket\.rs:/);
      const read = (await client.callTool({
        name: 'show',
        arguments: { target: found.content[0].text.split('  ')[0] },
      })) as { content: { text: string }[] };
      expect(read.content[0].text).toContain('self.tokens += 1;');
      // ctx of a definition by name, as the CLI's `ctx sym:NAME file:src/`.
      const context = (await client.callTool({
        name: 'ctx',
        arguments: { handle: 'sym:TokenBucket file:src/' },
      })) as { content: { text: string }[] };
      expect(context.content[0].text).toMatch(/^symbol: [0-9a-z]{6,}:1\tsrc\/bucket\.rs:\d+\t\w+ TokenBucket$/m);
    } finally {
      await client.close();
    }
  }, 60_000);

  test('--json mcp adds the JSON view of each answer as structured content, beside the same lines', async () => {
    const repo = makeRepo({ 'src/bucket.rs': 'pub struct TokenBucket { tokens: u32 }\n' }, 'mcp-json');
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, '--no-daemon', '--json', '--root', repo.root, '--cache', repo.cache, 'mcp'],
        cwd: repo.root,
        env: TEST_ENV as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const found = (await client.callTool({ name: 'search', arguments: { query: 'sym:TokenBucket' } })) as {
        content: { text: string }[];
        structuredContent?: { hits?: { handle?: string }[] };
      };
      expect(found.content[0].text).toMatch(/^[0-9a-z]{6,}:1 {2}src\/bucket\.rs:/);
      expect(found.structuredContent?.hits?.[0]?.handle).toBe(found.content[0].text.split('  ')[0]);
    } finally {
      await client.close();
    }
  }, 60_000);

  test('mcp takes no words: a usage error, nothing on stdout', () => {
    const r = runCli(['mcp', 'extra'], undefined, { lines: true });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^trufflepig: bad_arguments: mcp takes no arguments/);
  });
});
