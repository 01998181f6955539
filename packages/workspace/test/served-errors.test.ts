// What a daemon answers for usage errors and exceptions: fitted to the budget, one coded
// line, never a stack trace (issue 10, findings 6 and 7).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countTokens } from '@trufflepig/render';
import { CLIENT_HOST, handleServedRequest, indexCommand, internalErrorResult } from '../src';
import { makeRepo } from './ws-helpers';

describe('daemon-served errors', () => {
  let root: string;
  let cache: string;
  const ask = (verb: string, args: string[], options: Record<string, string | number | boolean> = {}) =>
    handleServedRequest(
      { verb, args, options: { root, cache, noWorkspace: true, ...options }, cwd: root },
      CLIENT_HOST,
    );

  beforeAll(async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-served-')));
    root = makeRepo(path.join(base, 'repo'), { 'src/a.ts': 'export class A {\n  method() {}\n}\n' });
    cache = path.join(base, 'cache');
    expect((await indexCommand({ root, cache, noDaemon: true, noWorkspace: true })).exitCode).toBe(0);
  });

  it('search -b 0 with no query prints nothing on stdout, the coded line on stderr', async () => {
    const out = await ask('search', [], { budget: 0 });
    expect(out).toEqual({
      stdout: '',
      stderr: expect.stringMatching(/^trufflepig: bad_arguments: search needs a query[^\n]*\n$/),
      exitCode: 2,
      errorCode: 'bad_arguments',
    });
  });

  it('every usage error fits every budget', async () => {
    for (const [verb, args] of [
      ['search', []],
      ['more', []],
      ['show', ['a', 'b']],
      ['ctx', []],
      ['map', []],
      ['refs', []],
      ['index', []],
    ] as const) {
      for (const budget of [0, 1, 5, 10, 14, 20, 40, 600]) {
        const out = await ask(verb, [...args], { budget });
        expect({
          verb,
          budget,
          n: countTokens(out.stdout),
          within: countTokens(out.stdout) <= budget,
          exit: out.exitCode,
        }).toMatchObject({ within: true, exit: 2 });
        expect(out.stderr).toMatch(/^trufflepig: bad_arguments: [^\n]+\n$/);
        if (out.stdout) expect(JSON.parse(out.stdout).error.code).toBe('bad_arguments');
      }
    }
  });

  it('an unknown verb is quoted in part and escaped', async () => {
    const out = await ask(`x\u202e\x1b[2J${'v'.repeat(10_000)}`, [], { budget: 600 });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).not.toMatch(/[\u202e\x1b]/);
    expect(out.stderr.length).toBeLessThan(400);
  });

  it('a query too long for SQL answers bad_query, not an exception', async () => {
    const out = await ask('search', ['kind:method', 'a'.repeat(50_000)], { budget: 100 });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(
      /^trufflepig: bad_query: a+…\(50000 characters\) is over the 1024-character limit[^\n]*\n$/,
    );
    expect(countTokens(out.stdout)).toBeLessThanOrEqual(100);
  });

  it('an exception in a verb answers internal_error in one line, never a stack', async () => {
    // An argument whose text cannot be read throws inside the verb (parseQuery joins the words).
    const hostile = {
      toString(): string {
        throw new TypeError("Cannot read properties of null (reading '1')\n    at parse (x.js:1:1)");
      },
    } as unknown as string;
    for (const verb of ['search', 'refs', 'map', 'show']) {
      const out = await handleServedRequest(
        {
          verb,
          args: verb === 'show' ? ['sym:x', hostile] : [hostile],
          options: { root, cache, noWorkspace: true, budget: 600, format: 'json' },
          cwd: root,
        },
        CLIENT_HOST,
      );
      expect({ verb, exit: out.exitCode }).toEqual({ verb, exit: 2 });
      expect(out.stderr).toBe(
        "trufflepig: internal_error: Cannot read properties of null (reading '1') (an internal error: please report it with the command that caused it)\n",
      );
      expect(JSON.parse(out.stdout).error.code).toBe('internal_error');
      // lines (the default): the stderr line alone
      const plain = await handleServedRequest(
        {
          verb,
          args: verb === 'show' ? ['sym:x', hostile] : [hostile],
          options: { root, cache, noWorkspace: true, budget: 600 },
          cwd: root,
        },
        CLIENT_HOST,
      );
      expect({ verb, exit: plain.exitCode, stdout: plain.stdout, stderr: plain.stderr }).toEqual({
        verb,
        exit: 2,
        stdout: '',
        stderr: out.stderr,
      });
    }
    // a cache path that is a regular file: whatever it answers, one coded line, no stack
    const file = path.join(root, '..', 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const out = await ask('search', ['method'], { cache: file, budget: 600 });
    expect(out.stderr).toMatch(/^trufflepig: [a-z_]+: [^\n]+\n$/);
    expect(out.stdout + out.stderr).not.toMatch(/\n\s+at /);
  });

  it('internalErrorResult: the first line of the message, coded, bounded, within the budget', () => {
    const err = new TypeError(`Cannot read properties of null (reading '1')\n${'x'.repeat(50_000)}`);
    const out = internalErrorResult(err, 600);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/^trufflepig: internal_error: Cannot read properties of null \(reading '1'\)[^\n]*\n$/);
    expect(out.stderr).not.toContain(err.stack!.split('\n')[1]);
    expect(JSON.parse(out.stdout).error.code).toBe('internal_error');
    for (const budget of [0, 3, 12, 30])
      expect(countTokens(internalErrorResult(err, budget).stdout)).toBeLessThanOrEqual(budget);
  });
});
