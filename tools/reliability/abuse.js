'use strict';
// Daemon responsiveness under abuse (issue 10, deliver 3): one client sends catastrophic
// regular expressions to a root's daemon in a loop while another client, the CLI as an
// agent runs it, searches as usual. Its median must stay within 2 x its quiet median.
//
//   node tools/reliability/abuse.js [--samples N] [--cli PATH]
//
// The abusive client talks to the socket in-process (@trufflepig/runtime/client), so it
// costs no process start-ups that would slow the measured client for reasons other than
// the daemon. Both phases run in one invocation, side by side on the same daemon.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO_ROOT, DEFAULT_CLI, timedRun, requireCli, median } = require('../lib/proc');
const { walkFiles } = require('../lib/corpus');

const CATASTROPHIC = ['re:(a+)+$', 're:(a|aa)+$', 're:(.*a){20}', 're:^(\\w+\\s?)*$', 're:(x+x+)+y'];
/** Ratio of abused to quiet median the target allows. */
const TARGET_RATIO = 2;

function makeCorpus(root) {
  // Real source text: this repository's own package sources, plus the lines that make a
  // backtracking engine explode.
  let n = 0;
  for (const pkg of fs.readdirSync(path.join(REPO_ROOT, 'packages'))) {
    const src = path.join(REPO_ROOT, 'packages', pkg, 'src');
    if (!fs.existsSync(src)) continue;
    for (const abs of walkFiles(src, { filter: (name) => name.endsWith('.ts') })) {
      const rel = path.relative(path.join(REPO_ROOT, 'packages'), abs);
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.copyFileSync(abs, path.join(root, rel));
      n++;
    }
  }
  fs.writeFileSync(
    path.join(root, 'evil.txt'),
    `${'a'.repeat(28)}!\n${'a'.repeat(10_000)}!\n${'x'.repeat(5_000)}\n${'word '.repeat(2_000)}!\n`,
  );
  return n + 1;
}

/** One client's quiet or abused series: sequential CLI searches, each timed as a process. */
function measuredSeries(cli, root, cache, samples) {
  const times = [];
  const failures = [];
  const queries = ['TokenBucket', 'readInsideRoot', 'parse query', 'coverage state', 'reconcile'];
  for (let i = 0; i < samples; i++) {
    const r = timedRun(
      process.execPath,
      [cli, '--root', root, '--cache', cache, 'search', queries[i % queries.length]],
      { timeout: 60_000 },
    );
    times.push(r.seconds * 1000);
    if (r.status !== 0)
      failures.push(`${queries[i % queries.length]}: exit ${r.status} ${(r.stderr || '').slice(0, 120)}`);
  }
  return { median: median(times), max: Math.max(...times), failures };
}

async function run(opts = {}) {
  const cli = requireCli(opts.cli || DEFAULT_CLI);
  const samples = opts.samples || 40;
  const { sendRequest } = require('@trufflepig/runtime/client');
  const { cacheDirForRoot } = require('@trufflepig/member-root/cache-dir');
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-abuse-')));
  const root = path.join(base, 'root');
  const cache = path.join(base, 'cache');
  fs.mkdirSync(root);
  timedRun('git', ['init', '-q', root]);
  const files = makeCorpus(root);
  // --cache is a base: the daemon's socket lives in the root's own directory under it.
  const rootCache = cacheDirForRoot(fs.realpathSync(root), { cacheOverride: cache });
  const cliAt = (...args) =>
    timedRun(process.execPath, [cli, '--root', root, '--cache', cache, ...args], { timeout: 120_000 });
  const examples = [];
  let abusive = 0;
  let abusiveFailures = 0;
  const abusiveTimes = [];
  try {
    const indexed = cliAt('--no-daemon', 'index');
    if (indexed.status !== 0) throw new Error(`index failed: ${indexed.stderr}`);
    // The first daemon-mode call starts the daemon; wait until it answers from its index.
    for (let i = 0; i < 100; i++) {
      const r = cliAt('search', 'TokenBucket');
      if (r.status === 0) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    measuredSeries(cli, root, cache, 3); // warm-up
    const quiet = measuredSeries(cli, root, cache, samples);
    let stop = false;
    const abuser = (async () => {
      for (let i = 0; !stop; i++) {
        const started = Date.now();
        const sent = await sendRequest(
          rootCache,
          { verb: 'search', args: [CATASTROPHIC[i % CATASTROPHIC.length]], options: { root, cache }, cwd: root },
          { timeoutMs: 60_000 },
        );
        abusiveTimes.push(Date.now() - started);
        if (opts.verbose)
          console.error(
            `  ${CATASTROPHIC[i % CATASTROPHIC.length]} ${Date.now() - started} ms exit ${sent.ok ? sent.reply.exitCode : sent.code}`,
          );
        abusive++;
        if (!sent.ok || (sent.reply.exitCode !== 0 && !/trufflepig: [a-z_]+:/.test(sent.reply.stderr))) {
          abusiveFailures++;
          if (examples.length < 3)
            examples.push(
              `${CATASTROPHIC[i % CATASTROPHIC.length]}: ${sent.ok ? sent.reply.stderr.slice(0, 120) : sent.message}`,
            );
        }
      }
    })();
    await new Promise((res) => setTimeout(res, 300));
    const abused = measuredSeries(cli, root, cache, samples);
    stop = true;
    await abuser;
    const ratio = abused.median / quiet.median;
    const failures = quiet.failures.length + abused.failures.length + abusiveFailures;
    examples.push(...quiet.failures.slice(0, 2), ...abused.failures.slice(0, 2));
    return {
      files,
      samples,
      quietMedianMs: quiet.median,
      abusedMedianMs: abused.median,
      abusedMaxMs: abused.max,
      ratio,
      abusiveRequests: abusive,
      abusiveMedianMs: median(abusiveTimes),
      abusiveMaxMs: Math.max(...abusiveTimes),
      attempts: samples * 2 + abusive,
      failures: failures + (ratio > TARGET_RATIO ? 1 : 0),
      examples,
      pass: ratio <= TARGET_RATIO && failures === 0,
    };
  } finally {
    cliAt('stop');
    fs.rmSync(base, { recursive: true, force: true });
  }
}

module.exports = { run, TARGET_RATIO };

if (require.main === module) {
  const { parseOptions } = require('../lib/args');
  const values = parseOptions(process.argv.slice(2), {
    name: 'abuse',
    usage: 'usage: node tools/reliability/abuse.js [--samples N] [--cli PATH] [--verbose]',
    options: { samples: { type: 'number' }, cli: { type: 'string' }, verbose: { type: 'boolean' } },
  });
  run({ samples: values.samples || undefined, cli: values.cli, verbose: values.verbose }).then(
    (r) => {
      console.log(
        `daemon under abuse (${r.files} files; ${r.abusiveRequests} catastrophic requests, median ${r.abusiveMedianMs} ms, max ${r.abusiveMaxMs} ms)`,
      );
      console.log(
        `  other client's search median: quiet ${r.quietMedianMs.toFixed(0)} ms, abused ${r.abusedMedianMs.toFixed(0)} ms (max ${r.abusedMaxMs.toFixed(0)} ms), ratio ${r.ratio.toFixed(2)} (target <= ${TARGET_RATIO}) ${r.pass ? 'PASS' : 'MISS'}`,
      );
      for (const e of r.examples) console.log(`  example: ${e}`);
      process.exitCode = r.pass ? 0 : 1;
    },
    (err) => {
      console.error(`abuse: ${err.message}`);
      process.exitCode = 1;
    },
  );
}
