'use strict';
// Target 1: after a file is saved, how long until a daemon-served `search` finds the new text.
// Each edit writes a fresh identifier (alternately appended to an existing file and in a new
// small .rs file), then polls `search IDENT` through the CLI until a hit names that file.
const { cliSync, sleep } = require('./cli');
const { daemonStatusOf } = require('./daemon-status');
const { uniqueIdentifier, appendLine, createFile } = require('./corpus');
const { median } = require('../../lib/proc');

// A poll loop gives up after this long (the sample then counts as this value and as a miss).
const GIVE_UP_SECONDS = 20;
// Pause between polls so the poller does not starve the daemon's reconcile of the 2 cores.
const POLL_GAP_MS = 20;
// Pause after a visible edit, so the next edit starts a new burst rather than joining one.
const SETTLE_MS = 300;

async function measureOneEdit(ctx, n, rel) {
  const identifier = uniqueIdentifier(n);
  const editKind = n % 2 === 0 ? 'append' : 'new file';
  const target =
    editKind === 'append' ? appendLine(ctx.corpus, rel, identifier) : createFile(ctx.corpus, rel, identifier);
  const saved = process.hrtime.bigint();
  let polls = 0;
  let errors = 0;
  let lastError;
  for (;;) {
    const r = cliSync(ctx, ['search', identifier]);
    polls++;
    const seconds = Number(process.hrtime.bigint() - saved) / 1e9;
    if (!r.ok) {
      errors++;
      lastError = r.error;
    } else if (Array.isArray(r.json.hits) && r.json.hits.some((h) => h.path === target)) {
      return {
        n,
        editKind,
        path: target,
        seconds,
        polls,
        errors,
        lastError,
        visible: true,
        generation: r.json.coverage ? r.json.coverage.generation : null,
      };
    }
    if (seconds > GIVE_UP_SECONDS)
      return { n, editKind, path: target, seconds, polls, errors, lastError, visible: false };
    await sleep(POLL_GAP_MS);
  }
}

/** `edits` edits in sequence over the editable files; returns samples and their median/max. */
async function measureEditToVisible(ctx, edits, editable, onEdit) {
  const samples = [];
  for (let n = 0; n < edits; n++) {
    // Spread the edits over crates: consecutive edits land in different directories.
    const rel = editable[(n * 7) % editable.length];
    const sample = await measureOneEdit(ctx, n, rel);
    // The daemon's last reconcile (the one that published the edit): how much of the wait it was.
    const status = await daemonStatusOf(ctx);
    const last = status && status.reconcile.last;
    sample.reconcileMs = last ? last.durationMs : null;
    // What that reconcile walked: only the changed paths, or the whole root.
    sample.reconcileWalk = last && last.walk ? last.walk : null;
    sample.reconcileReason = last ? last.reason : null;
    samples.push(sample);
    if (onEdit) onEdit(sample);
    await sleep(SETTLE_MS);
  }
  const seconds = samples.map((s) => s.seconds);
  return {
    samples,
    medianSeconds: median(seconds),
    maxSeconds: Math.max(...seconds),
    minSeconds: Math.min(...seconds),
    invisible: samples.filter((s) => !s.visible).length,
    pollErrors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

module.exports = { measureEditToVisible, GIVE_UP_SECONDS };
