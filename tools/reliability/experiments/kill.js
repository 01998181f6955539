'use strict';
// 5. kill -9 during indexing and during publication. A `--no-daemon index` of a repository
// with edits is killed after a random delay (indexing) or the moment its write transaction
// reaches the cache (publication: the first write to the WAL, `index.sqlite-wal`, or a
// staging file for a rebuild); then the previous generation must still answer (a handle
// from before shows its bytes), and the next index must take the stale lock over, publish
// and report complete coverage.
const fs = require('fs');
const path = require('path');
const { makeRepo, hitsOf, rootCacheDir } = require('../lib/repo');

const STAGING_PREFIX = 'index.sqlite.staging-';
const WAL_FILE = 'index.sqlite-wal';

function files(count) {
  const out = { 'keep/anchor.rs': 'pub fn anchorword() -> u32 { 42 }\n// anchorword stays unedited\n' };
  for (let i = 0; i < count; i++)
    out[`d${i % 50}/f${i}.ts`] =
      `export function fn${i}(x: number) { return x + ${i}; }\n// killword${i % 97} line\n`.repeat(4);
  return out;
}

function editSome(repo, rng, count, round) {
  for (let i = 0; i < count; i++) {
    const n = rng.int(count * 10);
    const file = path.join(repo.root, `d${n % 50}`, `f${n}.ts`);
    if (fs.existsSync(file)) fs.appendFileSync(file, `// edit ${round} ${rng.letters(8)}\n`);
  }
}

/** Starts an index and kills it: after `delayMs`, or when it writes its new generation (publication). */
async function killedIndex(h, a, repo, phase, delayMs) {
  let watcher = null;
  let sawStaging = false;
  const call = await a.cli(h, repo, ['index'], {
    untimed: true,
    deadlineMs: 120000,
    onSpawn: (child) => {
      const kill = () => {
        a.killedOnPurpose = true;
        child.kill('SIGKILL');
      };
      if (phase === 'indexing') setTimeout(kill, delayMs);
      else {
        fs.mkdirSync(rootCacheDir(repo), { recursive: true });
        watcher = fs.watch(rootCacheDir(repo), (event, name) => {
          if (!sawStaging && name && (String(name).startsWith(STAGING_PREFIX) || String(name) === WAL_FILE)) {
            sawStaging = true;
            setTimeout(kill, delayMs);
          }
        });
      }
    },
    intentionalKill: true,
  });
  if (watcher) watcher.close();
  return { call, killed: call.signal === 'SIGKILL', sawStaging };
}

async function run(h, exp, rng, out, plan) {
  const repo = makeRepo(h, 'kill', files(plan.killFiles));
  const first = await h.run(repo, ['index'], { deadlineMs: 120000 });
  const started = Date.now();
  editSome(repo, rng, Math.ceil(plan.killFiles / 10), 0);
  await h.run(repo, ['index'], { deadlineMs: 120000 });
  const indexMs = Math.max(200, Date.now() - started);
  const before = await h.run(repo, ['search', 'anchorword']);
  const handle = hitsOf(before)[0] && hitsOf(before)[0].handle;
  if (first.status !== 0 || !handle) {
    exp.state = 'failed to set up';
    exp.note(`first index exited ${first.status}; no anchor handle: ${String(first.stderr).slice(0, 200)}`);
    return;
  }
  let missed = 0;
  let publicationKills = 0;
  for (const phase of ['indexing', 'publication']) {
    for (let i = 0; i < plan.kills; i++) {
      const a = exp.attempt(`kill -9 during ${phase} #${i + 1}`);
      editSome(repo, rng, Math.ceil(plan.killFiles / 10), `${phase}${i}`);
      const generation = await statusGeneration(h, repo);
      const delay = phase === 'indexing' ? Math.round(rng.between(30, indexMs * 0.8)) : rng.int(3);
      const k = await killedIndex(h, a, repo, phase, delay);
      if (!k.killed) missed++;
      else if (k.sawStaging) publicationKills++;
      await checkStaleLock(h, a, repo);
      const shown = await a.cli(h, repo, ['show', handle], { untimed: true });
      if (shown.status !== 0 || !shown.stdout.toString().includes('anchorword'))
        a.fail(
          'contract',
          `handle from before the kill no longer shows (exit ${shown.status}: ${shown.stdout.toString().slice(0, 100)})`,
        );
      const search = await a.cli(h, repo, ['search', 'anchorword'], { untimed: true });
      if (hitsOf(search).length === 0)
        a.fail('contract', `previous generation does not answer search (exit ${search.status})`);
      const next = await a.cli(h, repo, ['index'], { untimed: true, deadlineMs: 120000 });
      if (next.status !== 0)
        a.fail('frozen', `next index exited ${next.status}: ${next.stderr.toString().trim().slice(0, 120)}`);
      const status = await a.cli(h, repo, ['status'], { untimed: true });
      const cov = status.json && status.json.coverage;
      if (!cov || cov.state !== 'complete')
        a.fail('frozen', `status after the next index: ${status.stdout.toString().slice(0, 120)}`);
      else if (generation !== null && !(cov.generation > generation))
        a.fail('frozen', `generation ${cov.generation} did not advance past ${generation}`);
      if (fs.readdirSync(rootCacheDir(repo)).some((n) => n.startsWith(STAGING_PREFIX)))
        a.fail('contract', 'a staging file was left after the next index');
      a.done();
    }
  }
  exp.note(`${publicationKills} of ${plan.kills} publication kills landed after the generation's writes began`);
  if (missed) exp.note(`${missed} of ${2 * plan.kills} indexes ended before the kill landed (their checks still ran)`);
}

/** A lock left by the killed writer must be reported by `status` (issue 10, finding 10). */
async function checkStaleLock(h, a, repo) {
  let pid;
  try {
    pid = Number.parseInt(fs.readFileSync(path.join(rootCacheDir(repo), 'index.lock'), 'utf8'), 10);
  } catch {
    return; // no lock left: nothing to report
  }
  if (!Number.isInteger(pid) || alive(pid)) return;
  const status = await a.cli(h, repo, ['status'], { untimed: true });
  const stale = status.json && status.json.stale_locks;
  if (status.status === 0 && !(stale && stale['index.lock']))
    a.fail('contract', `status does not report the stale index.lock of killed pid ${pid}`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function statusGeneration(h, repo) {
  const s = await h.run(repo, ['status']);
  return s.json && s.json.coverage && typeof s.json.coverage.generation === 'number'
    ? s.json.coverage.generation
    : null;
}

module.exports = { run, title: 'kill -9 during indexing and publication' };
