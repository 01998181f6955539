// The README's library example, run as written: the first ```ts block under "## Library
// API" is compiled (typescript's transpileModule) and run against a real repository, with
// `@trufflepig/workspace` bound to this package's public entry. A change of the API that
// breaks the example, or an example that drifts from the API, fails here. The error table
// is checked against ERROR_TABLE, row by row.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as api from '../src';
import { makeRepo } from './ws-helpers';

const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

/** The first fenced block of `lang` after the heading `heading`. */
function blockAfter(heading: string, lang: string): string {
  const at = README.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading ${heading}`);
  const open = README.indexOf('```' + lang + '\n', at);
  const close = README.indexOf('\n```', open + 1);
  return README.slice(open + lang.length + 4, close + 1);
}

const BUCKET_TS =
  'export class TokenBucket {\n  private tokens = 0;\n\n  /** Refill tokens. */\n  refillTokens(n: number): void {\n    this.tokens += n;\n  }\n}\n';

describe('README', () => {
  it('the library example compiles and runs against a repository', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-readme-')));
    const root = makeRepo(path.join(base, 'repo'), {
      'src/bucket.ts': BUCKET_TS,
      'README.md': '# Bucket\n\nRefill tokens over time.\n',
    });
    const env = {
      ...process.env,
      XDG_CACHE_HOME: path.join(base, '.cache'),
      XDG_CONFIG_HOME: path.join(base, '.config'),
    };

    const source = blockAfter('## Library API', 'ts');
    expect(source).toContain("from '@trufflepig/workspace'");
    // Type-check-free transpile to CommonJS (the types are checked by the consumer test in apps/cli).
    const ts = require('typescript') as typeof import('typescript');
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;

    // The example's own root, with this test's cache and environment (never the user's).
    let closed = false;
    const bound: typeof api = {
      ...api,
      openWorkspace: async (options) => {
        const ws = await api.openWorkspace({ ...options, cache: path.join(base, 'cache'), env, noWorkspace: true });
        const close = ws.close.bind(ws);
        ws.close = async () => {
          await close();
          closed = true;
        };
        return ws;
      },
    };
    const out: string[] = [];
    const errors: string[] = [];
    const fakeConsole = { log: (s: string) => out.push(String(s)), error: (e: unknown) => errors.push(String(e)) };
    const fakeProcess = {
      argv: [process.execPath, 'example.js', root],
      exitCode: undefined as number | undefined,
      env,
    };
    const requireBound = (id: string) => {
      if (id === '@trufflepig/workspace') return bound;
      throw new Error(`the example requires ${id}`);
    };
    const module = { exports: {} };
    new Function('require', 'module', 'exports', 'process', 'console', js)(
      requireBound,
      module,
      module.exports,
      fakeProcess,
      fakeConsole,
    );
    for (let waited = 0; !closed && errors.length === 0 && waited < 60_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));

    expect(errors).toEqual([]);
    expect(fakeProcess.exitCode).toBeUndefined();
    expect(closed).toBe(true);
    expect(out[0]).toMatch(/^coverage: complete \(complete; /);
    expect(out[1]).toMatch(/^[0-9a-z]{6,}:1 src\/bucket\.ts:\d+-\d+ /);
    // The read: the hit's lines, as they are on disk.
    expect(out.join('\n')).toContain('refillTokens(n: number): void {');
  });

  it('the error table lists every ErrorCode with its meaning and next step, as ERROR_TABLE has them', () => {
    const section = README.slice(README.indexOf('\n### Errors\n'), README.indexOf('\n### close()\n'));
    const rows = section.split('\n').filter((l) => /^\| `[a-z_]+` \|/.test(l));
    const expected = api.ERROR_CODES.map(
      (c) => `| \`${c}\` | ${api.ERROR_TABLE[c].meaning} | ${api.ERROR_TABLE[c].next} |`,
    );
    expect(rows).toEqual(expected);
  });

  it('no longer says workspaces are not implemented', () => {
    expect(README).not.toMatch(/not implemented yet/);
  });
});
