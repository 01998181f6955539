'use strict';
// Printing of the figures and the issue 5 targets with PASS/FAIL.

const MB = 1e6; // decimal megabytes, as tools/bench/index
const fmt = (n, digits = 3) => (n == null || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const ms = (seconds, digits = 1) =>
  seconds == null || Number.isNaN(seconds) ? 'n/a' : `${(seconds * 1000).toFixed(digits)} ms`;
const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);

// Limits from issue 5, "Targets (printed by tools/bench-runtime ...)", now tools/bench/runtime.
const LIMITS = {
  editToVisibleSeconds: 1.5,
  daemonSearchOverNode: 1.5,
  inProcessSeconds: 0.01,
  concurrentP95OverP50: 3,
  idleRssMB: 300,
};

function printSetup(prepared, indexRun) {
  console.log(
    `\ncorpus: ${prepared.files} files, ${fmt(prepared.bytes / MB, 1)} MB at ${prepared.corpus} (${prepared.editable.length} files made private copies for editing${prepared.removedLeftovers ? `, ${prepared.removedLeftovers} leftover bench files removed` : ''})`,
  );
  console.log(`index (--no-daemon, before the daemon starts): ${fmt(indexRun.seconds, 2)} s`);
  console.log(`  CLI report: ${JSON.stringify(indexRun.json)}`);
}

function printInProcess(inproc, rg) {
  console.log('\n[3] in-process library search (warm, serving mode) against rg as a whole process');
  console.log(
    `${pad('query', 34)}${lpad('lib ms', 9)}${lpad('rg ms', 9)}${lpad('rg/lib', 8)}${lpad('hits', 6)}${lpad('rg lines', 10)}`,
  );
  inproc.rows.forEach((row, i) => {
    const r = rg.rows[i];
    const note = row.failures.length ? `  ERROR ${row.failures[0]}` : '';
    console.log(
      `${pad(row.query.slice(0, 33), 34)}${lpad(fmt(row.median * 1000, 1), 9)}${lpad(fmt(r.median * 1000, 1), 9)}${lpad(fmt(r.median / row.median, 1), 8)}${lpad(row.hits, 6)}${lpad(r.lines, 10)}${note}`,
    );
  });
  console.log(
    `${pad('median of per-query medians', 34)}${lpad(fmt(inproc.median * 1000, 1), 9)}${lpad(fmt(rg.median * 1000, 1), 9)}${lpad(fmt(rg.median / inproc.median, 1), 8)}`,
  );
  console.log(
    `first call (opens the reader, loads the tokenizer): ${ms(inproc.firstCallSeconds)}; median of all ${inproc.rows.reduce((n, r) => n + r.samples.length, 0)} samples ${ms(inproc.allSamplesMedian)}`,
  );
}

function printDaemonStart(start) {
  console.log(
    `\ndaemon: pid ${start.pid}, serving ${fmt(start.startSeconds, 2)} s after the first search (that search: ${start.firstSearch.ok ? 'answered' : start.firstSearch.error}), generation ${start.generation}`,
  );
}

function printDaemonSearchHeader() {
  console.log('\n[2] daemon-served search as a whole process against a bare `node -e 0` (interleaved)');
  console.log(`${pad('query', 34)}${lpad('search s', 10)}${lpad('node s', 9)}${lpad('ratio', 7)}${lpad('hits', 6)}`);
}

function printDaemonSearchRow(row) {
  const note = row.failures.length ? `  ERROR ${row.failures[0]}` : '';
  console.log(
    `${pad(row.query.slice(0, 33), 34)}${lpad(fmt(row.medians.search), 10)}${lpad(fmt(row.medians.node), 9)}${lpad(fmt(row.medians.search / row.medians.node, 2), 7)}${lpad(row.hits, 6)}${note}`,
  );
}

function printDaemonSearchSummary(d, reps) {
  console.log(
    `${pad(`median of per-query medians (${reps} reps)`, 34)}${lpad(fmt(d.searchMedian), 10)}${lpad(fmt(d.nodeMedian), 9)}${lpad(fmt(d.ratio, 2), 7)}`,
  );
}

function printEditHeader() {
  console.log('\n[1] edit to visible: save, then poll a daemon-served `search IDENT` until a hit names the file');
}

function printEdit(s) {
  const state = s.visible ? `${fmt(s.seconds, 3)} s` : `NOT VISIBLE after ${fmt(s.seconds, 1)} s`;
  const errors = s.errors ? `, ${s.errors} error answers (last: ${s.lastError})` : '';
  const walked = s.reconcileWalk
    ? `, walked ${s.reconcileWalk === 'paths' ? 'the changed paths' : 'the whole root'}`
    : '';
  const reconcile = s.reconcileMs == null ? '' : `, last reconcile ${s.reconcileMs} ms${walked}`;
  console.log(
    `  edit ${lpad(s.n + 1, 2)} ${pad(s.editKind, 8)} ${state}  (${s.polls} polls${reconcile}${errors}) ${s.path}`,
  );
}

function printEditSummary(e) {
  const reconcileMs = e.samples
    .map((s) => s.reconcileMs)
    .filter((v) => v != null)
    .sort((a, b) => a - b);
  const reconcileMedian = reconcileMs.length ? reconcileMs[Math.floor((reconcileMs.length - 1) / 2)] : null;
  console.log(
    `  median ${fmt(e.medianSeconds)} s, min ${fmt(e.minSeconds)} s, max ${fmt(e.maxSeconds)} s over ${e.samples.length} edits; reconcile duration median ${reconcileMedian ?? 'n/a'} ms`,
  );
}

function printConcurrent(c) {
  console.log(
    `\n[4] ${c.clients} concurrent CLI clients x ${c.requestsPerClient} requests (search, show HANDLE, more CURSOR) while reconciling`,
  );
  console.log(
    `  ${c.requests} requests in ${fmt(c.wallSeconds, 1)} s; latency p50 ${fmt(c.p50)} s, p95 ${fmt(c.p95)} s, max ${fmt(c.max)} s, p95/p50 ${fmt(c.p95 / c.p50, 2)}`,
  );
  for (const [verb, v] of Object.entries(c.verbStats))
    console.log(`    ${pad(verb, 7)} ${lpad(v.count, 4)} requests, p50 ${fmt(v.p50)} s, p95 ${fmt(v.p95)} s`);
  const r = c.reconcile;
  console.log(
    `  edits during the load: ${c.edits}; daemon reconcile runs ${r.runsBefore} -> ${r.runsAfter}, generation ${r.generationBefore} -> ${r.generationAfter}; a reconcile was running in ${fmt(r.runningFraction * 100, 0)} % of ${r.statusSamples} status samples`,
  );
  console.log(
    `  error responses: ${c.errors.length}; handles/pages from another set: ${c.foreign.length}; duplicate set ids across searches: ${c.duplicateSets}`,
  );
  for (const e of c.errors.slice(0, 5)) console.log(`    error: ${e}`);
  for (const f of c.foreign.slice(0, 5)) console.log(`    foreign: ${f}`);
}

function printMemory(m, stages) {
  console.log(
    `\n[5] idle daemon memory (pid ${m.pid}, measured ${fmt(m.idleSeconds, 1)} s after the work, once no reconcile ran or was queued)`,
  );
  console.log(
    `  VmRSS ${fmt(m.rssBytes / MB, 1)} MB (${fmt(m.rssBytes / 2 ** 20, 1)} MiB), VmHWM (peak) ${fmt(m.hwmBytes / MB, 1)} MB; the daemon's own report: rss ${fmt(m.reportedRssBytes / MB, 1)} MB, heap used ${fmt(m.heapUsedBytes / MB, 1)} MB`,
  );
  console.log('  by stage (MB):   VmRSS  anon  file  VmHWM');
  for (const s of stages) {
    console.log(
      `    ${pad(s.stage, 12)} ${lpad(fmt(s.rssBytes / MB, 0), 6)}${lpad(fmt(s.anonBytes / MB, 0), 6)}${lpad(fmt(s.fileBytes / MB, 0), 6)}${lpad(fmt(s.hwmBytes / MB, 0), 7)}`,
    );
  }
}

/** Builds the target list from the figures; a target whose evidence is void fails with a note. */
function targetList(f) {
  const t = [];
  const add = (label, value, unit, limitText, pass, note = '') =>
    t.push({ label, value, unit, limit: limitText, pass, note });
  if (f.edit) {
    const e = f.edit;
    const note = e.invisible ? `  [${e.invisible} edits never became visible]` : '';
    add(
      `edit to visible, median of ${e.samples.length} (max ${fmt(e.maxSeconds, 2)} s)`,
      e.medianSeconds,
      's',
      `<= ${LIMITS.editToVisibleSeconds} s`,
      !e.invisible && e.medianSeconds <= LIMITS.editToVisibleSeconds,
      note,
    );
  }
  if (f.daemonSearch) {
    const d = f.daemonSearch;
    const note = `  [search ${fmt(d.searchMedian)} s, node -e 0 ${fmt(d.nodeMedian)} s${d.failures ? `; ${d.failures} failed calls` : ''}]`;
    add(
      'daemon-served search / node -e 0',
      d.ratio,
      'x',
      `<= ${LIMITS.daemonSearchOverNode} x`,
      !d.failures && d.ratio <= LIMITS.daemonSearchOverNode,
      note,
    );
  }
  if (f.inProcess) {
    const i = f.inProcess;
    const note = `  [rg whole process ${fmt(f.rg.median * 1000, 1)} ms${i.failures ? `; ${i.failures} failed calls` : ''}]`;
    add(
      'in-process library search, median',
      i.median * 1000,
      'ms',
      `<= ${LIMITS.inProcessSeconds * 1000} ms`,
      !i.failures && i.median <= LIMITS.inProcessSeconds,
      note,
    );
  }
  if (f.concurrent) {
    const c = f.concurrent;
    const reconciled = c.reconcile.runsAfter != null && c.reconcile.runsAfter > c.reconcile.runsBefore;
    const overlapNote = reconciled ? '' : '  [no reconcile ran during the load: no evidence]';
    add(
      `${c.clients} clients: error responses`,
      c.errors.length,
      '',
      '= 0',
      reconciled && c.errors.length === 0,
      overlapNote,
    );
    add(
      `${c.clients} clients: handles from another set`,
      c.foreign.length,
      '',
      '= 0',
      reconciled && c.foreign.length === 0,
      overlapNote,
    );
    add(
      `${c.clients} clients: p95 / p50 latency`,
      c.p95 / c.p50,
      'x',
      `<= ${LIMITS.concurrentP95OverP50} x`,
      reconciled && c.p95 / c.p50 <= LIMITS.concurrentP95OverP50,
      `  [p50 ${fmt(c.p50)} s, p95 ${fmt(c.p95)} s]${overlapNote}`,
    );
  }
  if (f.memory) {
    const m = f.memory;
    add(
      `idle daemon RSS (peak ${fmt(m.hwmBytes / MB, 0)} MB)`,
      m.rssBytes == null ? null : m.rssBytes / MB,
      'MB',
      `<= ${LIMITS.idleRssMB} MB`,
      m.rssBytes != null && m.rssBytes / MB <= LIMITS.idleRssMB,
    );
  }
  return t;
}

function printTargets(targets, quick) {
  console.log(
    `\ntargets (issue 5)${quick ? ' [--quick: fewer repetitions than the targets name; indicative only]' : ''}:`,
  );
  for (const t of targets) {
    const digits = t.unit === 'x' ? 2 : t.unit === 's' ? 3 : t.unit === 'ms' ? 2 : t.unit === 'MB' ? 1 : 0;
    console.log(
      `  ${t.pass ? 'PASS' : 'FAIL'}  ${pad(t.label, 48)} ${lpad(fmt(t.value, digits), 8)} ${pad(t.unit, 3)} (target ${t.limit})${t.note}`,
    );
  }
}

module.exports = {
  LIMITS,
  printSetup,
  printInProcess,
  printDaemonStart,
  printDaemonSearchHeader,
  printDaemonSearchRow,
  printDaemonSearchSummary,
  printEditHeader,
  printEdit,
  printEditSummary,
  printConcurrent,
  printMemory,
  targetList,
  printTargets,
};
