'use strict';
// Target 4: concurrent CLI clients (each a sequence of child processes) against the daemon
// while reconciles run. Each client loops: search, `show` of one returned handle (which must
// answer the path of that hit, from that search's own set), then `more` while there is a
// next cursor (the page must come from the cursor's set), until it has made its requests.
// Edits at the start and during the load keep the daemon reconciling; the daemon's own
// status is sampled throughout to show the overlap.
const { cliAsync, sleep } = require('./cli');
const { uniqueIdentifier, appendLine, createFile } = require('./corpus');
const { daemonStatusOf } = require('./daemon-status');

// Edits made right before the clients start (the reconcile that must overlap the load) and
// then one every EDIT_EVERY_MS while they run.
const EDITS_AT_START = 12;
const EDIT_EVERY_MS = 700;
const STATUS_EVERY_MS = 50;
// `more` pages followed after one search before the client moves on to its next query.
const MAX_MORE_PER_SEARCH = 2;

const setOfHandle = (handle) => String(handle).split(':')[0];
const setOfCursor = (cursor) => String(cursor).split('@')[0];

async function runClient(ctx, clientIndex, requests, queries) {
  const log = {
    client: clientIndex,
    latencies: [],
    byVerb: { search: [], show: [], more: [] },
    errors: [],
    foreign: [],
    sets: [],
  };
  const call = async (verb, args) => {
    const r = await cliAsync(ctx, [verb, ...args]);
    log.latencies.push(r.seconds);
    log.byVerb[verb].push(r.seconds);
    if (!r.ok) log.errors.push(`${verb} ${args.join(' ')}: ${r.error}`);
    return r;
  };
  let made = 0;
  for (let k = 0; made < requests; k++) {
    const q = queries[(clientIndex * 3 + k) % queries.length];
    const s = await call('search', [q.query]);
    made++;
    if (!s.ok || !Array.isArray(s.json.hits)) continue;
    const set = s.json.set;
    log.sets.push(set);
    for (const h of s.json.hits)
      if (setOfHandle(h.handle) !== set) log.foreign.push(`search ${q.query}: hit ${h.handle} outside its set ${set}`);
    if (s.json.hits.length > 0 && made < requests) {
      const hit = s.json.hits[k % s.json.hits.length];
      const shown = await call('show', [hit.handle]);
      made++;
      if (shown.ok && shown.json.path !== hit.path)
        log.foreign.push(`show ${hit.handle}: answered ${shown.json.path}, the hit was ${hit.path}`);
    }
    let next = s.json.next;
    for (let page = 0; next && page < MAX_MORE_PER_SEARCH && made < requests; page++) {
      const m = await call('more', [next]);
      made++;
      if (!m.ok) break;
      const hits = Array.isArray(m.json.hits) ? m.json.hits : [];
      for (const h of hits)
        if (setOfHandle(h.handle) !== setOfCursor(next))
          log.foreign.push(`more ${next}: hit ${h.handle} from another set`);
      next = m.json.next;
    }
  }
  return log;
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measureConcurrent(ctx, { clients, requests, queries, editable }) {
  const before = await daemonStatusOf(ctx);
  let editN = 1000;
  const edit = () => {
    const n = editN++;
    const rel = editable[(n * 5) % editable.length];
    if (n % 3 === 0) createFile(ctx.corpus, rel, uniqueIdentifier(n));
    else appendLine(ctx.corpus, rel, uniqueIdentifier(n));
  };
  for (let i = 0; i < EDITS_AT_START; i++) edit();
  let running = true;
  const statusSamples = [];
  const sampler = (async () => {
    while (running) {
      const s = await daemonStatusOf(ctx);
      if (s) statusSamples.push({ running: s.reconcile.running, runs: s.reconcile.runs, generation: s.generation });
      await sleep(STATUS_EVERY_MS);
    }
  })();
  const editor = (async () => {
    let edits = EDITS_AT_START;
    while (running) {
      await sleep(EDIT_EVERY_MS);
      if (!running) break;
      edit();
      edits++;
    }
    return edits;
  })();
  const started = Date.now();
  const logs = await Promise.all(Array.from({ length: clients }, (_, i) => runClient(ctx, i, requests, queries)));
  const wallSeconds = (Date.now() - started) / 1000;
  running = false;
  const edits = await editor;
  await sampler;
  const after = await daemonStatusOf(ctx);

  const latencies = logs.flatMap((l) => l.latencies);
  const allSets = logs.flatMap((l) => l.sets);
  const verbStats = {};
  for (const verb of ['search', 'show', 'more']) {
    const v = logs.flatMap((l) => l.byVerb[verb]);
    verbStats[verb] = { count: v.length, p50: percentile(v, 50), p95: percentile(v, 95) };
  }
  return {
    clients,
    requestsPerClient: requests,
    requests: latencies.length,
    wallSeconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: Math.max(...latencies),
    verbStats,
    errors: logs.flatMap((l) => l.errors),
    foreign: logs.flatMap((l) => l.foreign),
    duplicateSets: allSets.length - new Set(allSets).size,
    edits,
    reconcile: {
      runsBefore: before ? before.reconcile.runs : null,
      runsAfter: after ? after.reconcile.runs : null,
      generationBefore: before ? before.generation : null,
      generationAfter: after ? after.generation : null,
      runningFraction: statusSamples.length
        ? statusSamples.filter((s) => s.running).length / statusSamples.length
        : null,
      statusSamples: statusSamples.length,
    },
  };
}

module.exports = { measureConcurrent, percentile };
