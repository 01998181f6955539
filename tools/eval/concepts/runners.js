'use strict';
// The two retrievers, each answering ranked hits [{path, startLine, endLine, member?}].
const fs = require('fs');
const path = require('path');
const { timedRun, parseJsonOutput } = require('../../lib/proc');
// rg's answer (first matching line of each file, path order) is the fixture replay's.
const { decodePath, rgSearch, EVAL_BUDGET: BUDGET, EVAL_LIMIT: LIMIT } = require('../runners');
// Another contributor may be rebuilding the CLI: a half-built dist answers "Cannot find
// module"; wait for the build to finish instead of scoring the failure.
const HALF_BUILT = /Cannot find module/;
const REBUILD_WAIT_SECONDS = '30';
const REBUILD_RETRIES = 10;

function runCli(cli, args, options = {}) {
  let r;
  for (let attempt = 0; attempt <= REBUILD_RETRIES; attempt++) {
    r = timedRun(process.execPath, [cli, ...args], options);
    if (!HALF_BUILT.test(`${r.stdout}${r.stderr}`)) break;
    process.stderr.write(`concepts: the CLI is being rebuilt (Cannot find module); retrying in ${REBUILD_WAIT_SECONDS} s\n`);
    timedRun('sleep', [REBUILD_WAIT_SECONDS]);
  }
  return r;
}

function index(cli, selector, cwd) {
  const r = runCli(cli, ['--no-daemon', '--json', ...selector, 'index'], { cwd });
  if (r.status !== 0) throw new Error(`trufflepig index exited ${r.status}: ${(r.stdout + r.stderr).trim().slice(0, 400)}`);
  const reports = r.stdout.split('\n').filter((l) => l.trim()).map((l) => {
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
    return { hits: [], seconds: r.seconds, error: `${code}: ${((out && out.error && out.error.message) || r.stderr || r.stdout).trim().slice(0, 160)}` };
  }
  const hits = out.hits.map((h) => ({ path: decodePath(h.path), startLine: h.start_line, endLine: h.end_line, member: h.member }));
  // stopped_by "-n" only says more pages exist; any other stop (the budget) may hide hits.
  const stoppedBy = out.stopped_by || null;
  return { hits, seconds: r.seconds, stoppedBy, budgetCut: Boolean(out.truncated) && stoppedBy !== '-n' };
}

const rootSelector = (root, cache, workspaceAware) => ['--root', root, ...(workspaceAware ? ['--no-workspace'] : []), '--cache', cache];
const workspaceSelector = (file, cache) => ['--workspace', file, '--cache', cache];

/** Whether this build has workspace federation (its --help lists --workspace). */
function supportsWorkspace(cli) {
  const r = runCli(cli, ['--help']);
  return /--workspace\b/.test(r.stdout + r.stderr);
}

/** The workspace file naming the members, written next to (not inside) their roots. */
function writeWorkspaceFile(work, name, members) {
  const file = path.join(work, 'trufflepig.workspace.toml');
  const lines = ['[workspace]', `name = "${name}"`, `members = [${members.map((m) => `"${m.name}"`).join(', ')}]`];
  for (const m of members) lines.push('', `[members.${m.name}]`, `path = ${JSON.stringify(m.dir)}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

module.exports = { index, search, rgSearch, rootSelector, workspaceSelector, supportsWorkspace, writeWorkspaceFile };
