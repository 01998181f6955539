'use strict';
// The corpora the concept replay asks about. Three come from tools/eval/agent-replay (npm
// tarball, Debian Flask+Werkzeug, Debian regex crates) and one is tools/lib/corpus.js's
// TypeScript corpus (effect's sources) in tools/bench/workspace's layout; both tools'
// assembled trees are reused when present, so the bytes labelled here are the bytes those
// replays measure.
const os = require('os');
const path = require('path');
const { TS_PACKAGE, tsCorpus } = require('../../lib/corpus');
const agentReplay = require('../agent-replay/setup');

const DEFAULT_AGENT_WORK = agentReplay.DEFAULT_WORK;
const DEFAULT_BENCH_WORK = path.join(os.tmpdir(), 'trufflepig-bench-ws');

/** corpus id → { language, source } (what the tasks name and the table prints). */
const CORPORA = {
  regex: { language: 'rust', source: 'Debian regex-1.7.1, regex-syntax, aho-corasick, memchr' },
  flask: { language: 'python', source: 'Debian python3-flask 2.2.2, python3-werkzeug 2.2.2' },
  npm: { language: 'javascript', source: 'npm@10.9.9 tarball (vendored node_modules included)' },
  ts: { language: 'typescript', source: `npm ${TS_PACKAGE} src/` },
};

/** The workspace of three members the cross-member tasks run on. */
const WORKSPACE_MEMBERS = ['regex', 'flask', 'ts'];

/** The TypeScript corpus in tools/bench/workspace's layout and stamp, so either tool reuses the other's tree. */
function ensureTs(benchWork) {
  const dir = path.join(benchWork, 'ts', 'corpus');
  tsCorpus(dir);
  return dir;
}

/** Assembles (or reuses) every corpus; returns { id: rootDir }. Pins are checked by the caller. */
function prepareCorpora({ agentWork = DEFAULT_AGENT_WORK, benchWork = DEFAULT_BENCH_WORK } = {}) {
  const roots = agentReplay.setup(agentWork, {});
  return { regex: roots.regex, flask: roots.flask, npm: roots.npm, ts: ensureTs(benchWork) };
}

module.exports = { CORPORA, WORKSPACE_MEMBERS, prepareCorpora, DEFAULT_AGENT_WORK, DEFAULT_BENCH_WORK };

if (require.main === module) {
  for (const [k, v] of Object.entries(prepareCorpora())) console.log(`${k}\t${v}`);
}
