// The CLI surface as the built command uses it: the table agrees with the facade's own
// texts and limits, every query example of help is a query, the fast path's one-file
// bundle holds only the packages it may, and the bundler refuses anything else.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  helpText,
  OPTION_TABLE,
  QUERY_FORMS,
  SERVED_VERBS,
  verbSpec,
  VERB_TABLE,
  type OptionSpec,
} from '@trufflepig/cli-surface';
import { TOOLS } from '@trufflepig/mcp';
import {
  CONTEXT_LINES_MAX,
  DEFAULT_BUDGET,
  DEFAULT_LIMIT,
  DEFAULT_SHOW_BUDGET,
  HISTORY_VERB_USAGE,
  REFS_ROW_SHOW_CONTEXT_LINES,
} from '@trufflepig/workspace';
import { FAST_VERBS } from '@trufflepig/workspace/client';
import { makeRepo, runCli, tempDir } from './cli';

const APP = path.resolve(__dirname, '..');
const BUNDLE = path.join(APP, 'dist', 'fast-path.js');
const BUNDLER = path.join(APP, 'scripts', 'bundle-fast-path.js');

describe('the table agrees with the facade', () => {
  it("history verbs' usage errors are the facade's (the daemon answers them too)", () => {
    for (const verb of ['hist', 'blame', 'since', 'diff'] as const)
      expect(verbSpec(verb).usage).toBe(HISTORY_VERB_USAGE[verb]);
  });

  it('help states the limits and defaults the facade applies', () => {
    const help = helpText();
    expect(help).toContain(`(0-${CONTEXT_LINES_MAX})`);
    expect(help.replace(/\s+/g, ' ')).toContain(`a refs row's show reads ${REFS_ROW_SHOW_CONTEXT_LINES} without it`);
    expect(help).toContain(`(default ${DEFAULT_LIMIT})`);
    expect(help).toContain(`default ${DEFAULT_BUDGET},`);
    expect(help).toContain(`show ${DEFAULT_SHOW_BUDGET},`);
  });

  it('the fast path, the daemon and the MCP server serve the same verbs', () => {
    expect([...FAST_VERBS]).toEqual([...SERVED_VERBS]);
    expect(TOOLS.map((t) => t.name).sort()).toEqual([...SERVED_VERBS].sort());
  });

  it('every option of the table is accepted by the built command', () => {
    const repo = makeRepo({ 'src/a.rs': 'fn bucket() {}\n' }, 'surface-options');
    expect(runCli(['--root', repo.root, '--cache', repo.cache, 'index']).status).toBe(0);
    for (const o of OPTION_TABLE as readonly OptionSpec[]) {
      // Workspace options need a workspace; --daemon would start one (the calls here say --no-daemon); help and version run nothing.
      if (['workspace', 'noWorkspace', 'member', 'noDaemon', 'help', 'version'].includes(o.key)) continue;
      const value =
        o.type === 'boolean'
          ? []
          : o.choices !== undefined
            ? [o.choices[0]]
            : o.type === 'number'
              ? [o.key === 'budget' ? '3000' : '3']
              : [repo.root];
      const spellings = [o.long, ...(o.short !== undefined ? [o.short] : [])];
      // A verb that takes the option: status where it does, else a search.
      const verb = o.verbs === 'all' || o.verbs.includes('status') ? ['status'] : ['search', 'bucket'];
      for (const spelling of spellings) {
        const r = runCli(
          [
            '--root',
            repo.root,
            '--cache',
            repo.cache,
            ...verb,
            ...(o.key === 'root' || o.key === 'cache' ? [] : [spelling, ...value]),
          ],
          undefined,
          { lines: true },
        );
        expect({ spelling, status: r.status, stderr: r.stderr }).toEqual({ spelling, status: 0, stderr: '' });
      }
      // Given to a verb it does not apply to, the option is a usage error, never ignored.
      if (o.verbs !== 'all' && !o.verbs.includes('status')) {
        const r = runCli(['--root', repo.root, '--cache', repo.cache, 'status', spellings[0], ...value]);
        expect({ option: o.long, status: r.status }).toEqual({ option: o.long, status: 2 });
        expect(r.stderr).toMatch(
          new RegExp(`^trufflepig: bad_arguments: \\S+ does not apply to status; it applies to `),
        );
      }
    }
  });
});

describe("help's query examples", () => {
  it('each is a query the search verb takes (in:/ws: asks for a workspace)', () => {
    const repo = makeRepo(
      {
        'src/lib.rs':
          'pub struct TokenBucket { n: u32 }\nimpl TokenBucket {\n    pub fn refill(&mut self) { self.n = 1; }\n}\nfn retry_backoff() {}\nfn fn_x_init() {}\n// x-forwarded-for\n',
        'tests/a.rs': 'fn t() {}\n',
      },
      'surface-queries',
    );
    for (const q of QUERY_FORMS) {
      const words = q.example.match(/"[^"]*"|\S+/g) ?? [];
      const r = repo.cli('search', ...words);
      if (q.form.startsWith('in:'))
        expect({ form: q.form, code: r.json().error?.code }).toEqual({ form: q.form, code: 'no_workspace' });
      else
        expect({ form: q.form, status: r.status, stderr: r.stderr }).toEqual({ form: q.form, status: 0, stderr: '' });
    }
  });
});

describe('the fast-path bundle', () => {
  it('was built, and loads no index, tree-sitter or SQLite', () => {
    const text = fs.readFileSync(BUNDLE, 'utf8');
    expect(text.startsWith('// Generated by scripts/bundle-fast-path.js (esbuild)')).toBe(true);
    for (const forbidden of ['@trufflepig/index', 'better-sqlite3', 'tree-sitter', 'yargs'])
      expect({ forbidden, found: text.includes(forbidden) }).toEqual({ forbidden, found: false });
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `
      const client = require(${JSON.stringify(BUNDLE)});
      const loaded = Object.keys(require.cache).filter((f) => f !== ${JSON.stringify(BUNDLE)});
      process.stdout.write(JSON.stringify({ exports: Object.keys(client).sort(), loaded }));
    `,
      ],
      { encoding: 'utf8' },
    );
    expect(probe.status).toBe(0);
    const out = JSON.parse(probe.stdout);
    expect(out.loaded).toEqual([]);
    expect(out.exports).toEqual(expect.arrayContaining(['FAST_VERBS', 'serveFromDaemon', 'queryDaemon', 'askDaemon']));
  });

  it('refuses to bundle a module outside the allow-list, naming it', () => {
    const dir = tempDir('bundle');
    for (const [name, spec] of [
      ['index.js', '@trufflepig/index'],
      ['sqlite.js', 'better-sqlite3'],
      ['grammar.js', 'tree-sitter-rust'],
    ]) {
      const entry = path.join(dir, name);
      fs.writeFileSync(entry, `'use strict';\nmodule.exports = require('${spec}');\n`);
      const r = spawnSync(process.execPath, [BUNDLER, '--entry', entry, '--out', path.join(dir, `out-${name}`)], {
        encoding: 'utf8',
      });
      expect({ spec, status: r.status }).toEqual({ spec, status: 1 });
      expect(r.stderr).toContain(`the fast path may not bundle '${spec}'`);
      expect(fs.existsSync(path.join(dir, `out-${name}`))).toBe(false);
    }
  });

  it('the table lists every verb once', () => {
    const names = VERB_TABLE.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
