'use strict';
// The corpora the concept replay asks about. Three come from tools/agent-replay (npm tarball,
// Debian Flask+Werkzeug, Debian regex crates) and one from tools/bench-workspace (effect's
// TypeScript sources); both tools' assembled trees are reused when present, so the bytes
// labelled here are the bytes those replays measure.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const agentReplay = require('../../agent-replay/setup');
const { TS_PACKAGE } = require('../../bench-workspace/corpora');

const DEFAULT_AGENT_WORK = agentReplay.DEFAULT_WORK;
const DEFAULT_BENCH_WORK = path.join(os.tmpdir(), 'trufflepig-bench-ws');
const TS_KEEP = ['package/src', 'package/package.json'];

/** corpus id → { language, source } (what the tasks name and the table prints). */
const CORPORA = {
  regex: { language: 'rust', source: 'Debian regex-1.7.1, regex-syntax, aho-corasick, memchr' },
  flask: { language: 'python', source: 'Debian python3-flask 2.2.2, python3-werkzeug 2.2.2' },
  npm: { language: 'javascript', source: 'npm@10.9.9 tarball (vendored node_modules included)' },
  ts: { language: 'typescript', source: `npm ${TS_PACKAGE} src/` },
};

/** The workspace of three members the cross-member tasks run on. */
const WORKSPACE_MEMBERS = ['regex', 'flask', 'ts'];

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
  if (r.error) throw new Error(`${command} failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}`);
  return r.stdout;
}

/** Same layout and stamp as tools/bench-workspace/corpora.js, so either tool reuses the other's tree. */
function ensureTs(benchWork) {
  const dir = path.join(benchWork, 'ts', 'corpus');
  const stamp = `${dir}.manifest`;
  if (fs.existsSync(stamp) && fs.existsSync(dir)) return dir;
  const tmp = `${dir}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-concepts-npm-'));
  try {
    process.stderr.write(`concepts: npm pack ${TS_PACKAGE}\n`);
    const tarball = run('npm', ['pack', TS_PACKAGE, '--silent'], { cwd: scratch }).trim().split('\n').pop();
    run('tar', ['-xzf', path.join(scratch, tarball), '-C', tmp, '--strip-components=1', ...TS_KEEP]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  fs.renameSync(tmp, dir);
  const { dirStats } = require('../../bench-workspace/corpora');
  fs.writeFileSync(stamp, JSON.stringify(dirStats(dir)));
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
