#!/usr/bin/env node
'use strict';
// Target 3, the measured side: the library in one long-lived process, the way an embedding
// agent would use it (a root daemon's host, ROOT_DAEMON_HOST: pooled warm readers, no indexing inside a request).
// Usage: node inprocess-child.js LIB_DIR CORPUS CACHE REPS   (queries: tools/bench/index/queries.js)
// Prints one JSON object: per query the sample times in seconds, hit counts, failures.
const { QUERIES } = require('../index/queries');

async function main() {
  const [libDir, corpus, cache, repsText] = process.argv.slice(2);
  const reps = Number(repsText);
  const lib = require(libDir);
  // A root daemon's host: readers pooled, answers from publications only.
  // Builds before the host value (--lib of an older checkout) turned the same mode on process-wide.
  if (lib.ROOT_DAEMON_HOST === undefined && typeof lib.enableServingMode === 'function') lib.enableServingMode();
  const opts = { root: corpus, cache, cwd: corpus, noWorkspace: true, noDaemon: true, host: lib.ROOT_DAEMON_HOST };
  const run = async (q) => {
    const started = process.hrtime.bigint();
    const r = await lib.searchCommand([q.query], opts);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    let hits = null;
    try {
      const j = JSON.parse(r.stdout);
      if (Array.isArray(j.hits)) hits = j.hits.length;
    } catch {
      // not JSON: counted as a failure below
    }
    const ok = r.exitCode === 0 && hits !== null;
    return {
      seconds,
      ok,
      hits,
      error: ok ? undefined : `exit ${r.exitCode}: ${(r.stdout + r.stderr).replace(/\s+/g, ' ').slice(0, 160)}`,
    };
  };
  const firstCall = await run(QUERIES[0]); // opens the reader and loads the tokenizer
  for (const q of QUERIES) await run(q); // warm-up: one untimed pass
  const rows = QUERIES.map((q) => ({ query: q.query, samples: [], hits: 0, failures: [] }));
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < QUERIES.length; i++) {
      const r = await run(QUERIES[i]);
      rows[i].samples.push(r.seconds);
      if (r.ok) rows[i].hits = r.hits;
      else rows[i].failures.push(r.error);
    }
  }
  process.stdout.write(JSON.stringify({ firstCallSeconds: firstCall.seconds, firstCallOk: firstCall.ok, rows }) + '\n');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`inprocess-child: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
