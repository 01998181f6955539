'use strict';
// The two retrievers, each answering ranked hits [{path, startLine, endLine, member?}].
const { timedRun, parseJsonOutput, whileRebuilding, supportsWorkspace: helpListsWorkspace } = require('../../lib/proc');
// rg's answer (first matching line of each file, path order) is the fixture replay's.
const { decodePath, rgSearch, EVAL_BUDGET: BUDGET, EVAL_LIMIT: LIMIT } = require('../retrieval/runners');
// Another contributor may be rebuilding the CLI: a half-built dist answers "Cannot find
// module"; wait for the build to finish instead of scoring the failure.
const REBUILD = {
  retries: 10,
  waitMs: 30000,
  onRetry: () => process.stderr.write('concepts: the CLI is being rebuilt (Cannot find module); retrying in 30 s\n'),
};

const runCli = (cli, args, options = {}) =>
  whileRebuilding(() => timedRun(process.execPath, [cli, ...args], options), REBUILD);

function index(cli, selector, cwd) {
  const r = runCli(cli, ['--no-daemon', '--json', ...selector, 'index'], { cwd });
  if (r.status !== 0)
    throw new Error(`trufflepig index exited ${r.status}: ${(r.stdout + r.stderr).trim().slice(0, 400)}`);
  const reports = r.stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    });
  return { seconds: r.seconds, reports: reports.filter(Boolean) };
}

function search(cli, selector, query, cwd) {
  const r = runCli(cli, ['--no-daemon', '--json', ...selector, '-b', BUDGET, '-n', LIMIT, 'search', query], { cwd });
  const out = parseJsonOutput(r.stdout);
  if (r.status !== 0 || !out || !Array.isArray(out.hits)) {
    const code = out && out.error ? out.error.code : `exit ${r.status}`;
    return {
      hits: [],
      seconds: r.seconds,
      error: `${code}: ${((out && out.error && out.error.message) || r.stderr || r.stdout).trim().slice(0, 160)}`,
    };
  }
  const hits = out.hits.map((h) => ({
    path: decodePath(h.path),
    startLine: h.start_line,
    endLine: h.end_line,
    member: h.member,
  }));
  // stopped_by "-n" only says more pages exist; any other stop (the budget) may hide hits.
  const stoppedBy = out.stopped_by || null;
  return { hits, seconds: r.seconds, stoppedBy, budgetCut: Boolean(out.truncated) && stoppedBy !== '-n' };
}

const rootSelector = (root, cache, workspaceAware) => [
  '--root',
  root,
  ...(workspaceAware ? ['--no-workspace'] : []),
  '--cache',
  cache,
];
const workspaceSelector = (file, cache) => ['--workspace', file, '--cache', cache];

/** Whether this build has workspace federation (its --help lists --workspace). */
const supportsWorkspace = (cli) => helpListsWorkspace(cli, REBUILD);

module.exports = { index, search, rgSearch, rootSelector, workspaceSelector, supportsWorkspace };
