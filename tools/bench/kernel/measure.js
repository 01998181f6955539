'use strict';
// The kernel benchmark's measurements, each side by side with its baseline in one run:
// patterns against rg and csearch on the same tree (identifier and free-text searches are
// tools/bench/runtime's measureDaemonSearch, beside `node -e 0`), one-shot --no-daemon searches, the idle daemon's memory, edit-to-visible,
// and where `show sym:` lands.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { timedRun, run, median, hasCommand } = require('../../lib/proc');
const { cliSync } = require('../runtime/cli');

/**
 * Each pattern as a daemon-served `re:` search, as `rg -c` over the tree and, when the
 * index exists, `csearch -l`: interleaved per repetition, the first tool rotated, so all
 * three see the same machine load.
 */
function measurePatterns(ctx, patterns, reps, csearchIndex) {
  const tools = {
    trufflepig: (p) => cliSync(ctx, ['search', `re:${p}`]),
    rg: (p) => {
      const r = timedRun('rg', ['-c', '--no-messages', '-e', p, '.'], { cwd: ctx.corpus });
      return { seconds: r.seconds, ok: r.status === 0 || r.status === 1, error: `rg exit ${r.status}` };
    },
  };
  if (csearchIndex) {
    tools.csearch = (p) => {
      const r = timedRun('csearch', ['-l', p], {
        cwd: ctx.corpus,
        env: { ...process.env, CSEARCHINDEX: csearchIndex },
      });
      return { seconds: r.seconds, ok: r.status === 0 || r.status === 1, error: `csearch exit ${r.status}` };
    };
  }
  const names = Object.keys(tools);
  for (const n of names) tools[n](patterns[0]);
  return patterns.map((pattern) => {
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    const errors = [];
    for (let rep = 0; rep < reps; rep++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + rep) % names.length];
        const r = tools[name](pattern);
        samples[name].push(r.seconds);
        if (!r.ok) errors.push(`${name}: ${r.error}`);
      }
    }
    return { pattern, medians: Object.fromEntries(names.map((n) => [n, median(samples[n])])), errors };
  });
}

/** `cindex` of the tree into the work dir, timed; the index file, or null without codesearch. */
function buildCsearchIndex(corpus, work) {
  if (!hasCommand('cindex') || !hasCommand('csearch')) return { file: null, seconds: null };
  const file = path.join(work, 'csearchindex');
  fs.rmSync(file, { force: true });
  const r = timedRun('cindex', [corpus], { env: { ...process.env, CSEARCHINDEX: file } });
  return r.status === 0 ? { file, seconds: r.seconds } : { file: null, seconds: null, error: r.stderr.slice(0, 200) };
}

/** One-shot `--no-daemon search Q` per query: what a CI script pays. */
function measureOneShot(ctx, queries) {
  return queries.map((query) => {
    const r = cliSync(ctx, ['search', query], ['--no-daemon']);
    return { query, seconds: r.seconds, error: r.ok ? undefined : r.error };
  });
}

/** `show sym:NAME` for each landing: the path it read and whether it is the expected one. */
function measureLandings(ctx, landings) {
  return landings.map((l) => {
    const r = cliSync(ctx, ['show', `sym:${l.name}`]);
    const got = r.ok ? r.json.path : null;
    return { name: l.name, expected: l.path, got, ok: got === l.path, error: r.ok ? undefined : r.error };
  });
}

/**
 * Daemon-served `refs NAME`, each `reps` times: the median time, and from the last answer
 * the sites, the files holding them and the files left unread at refs' deadline.
 */
function measureRefs(ctx, names, reps) {
  return names.map((name) => {
    const seconds = [];
    let last = null;
    for (let rep = 0; rep < reps; rep++) {
      last = cliSync(ctx, ['refs', name]);
      seconds.push(last.seconds);
    }
    const c = (last.ok && last.json.coverage) || {};
    return {
      name,
      seconds: median(seconds),
      sites: c.reference_sites ?? null,
      files: c.reference_files ?? null,
      unread: c.unread_files ?? 0,
      error: last.ok ? undefined : last.error,
    };
  });
}

/**
 * Files to edit: every 1/Nth mid-sized .c file of the tree, each replaced by a private copy
 * first (the tree may be hard-linked to another) and restored from Git's index afterwards.
 */
function editableFiles(corpus, count) {
  const listed = run('git', ['ls-files', '*.c'], { cwd: corpus }).split('\n').filter(Boolean).sort();
  const step = Math.max(1, Math.floor(listed.length / count));
  const picked = [];
  for (let i = Math.floor(step / 2); i < listed.length && picked.length < count; i += step) {
    const full = path.join(corpus, listed[i]);
    const size = fs.statSync(full).size;
    if (size < 2000 || size > 40000) continue;
    const bytes = fs.readFileSync(full);
    fs.writeFileSync(`${full}.tp-bench-tmp`, bytes);
    fs.renameSync(`${full}.tp-bench-tmp`, full);
    picked.push(listed[i]);
  }
  return picked;
}

/** Undoes the edits: appended files back from Git's index, created files removed. */
function restoreEdits(corpus, editable, created) {
  for (const rel of created) fs.rmSync(path.join(corpus, rel), { force: true });
  if (editable.length) spawnSync('git', ['checkout', '--', ...editable], { cwd: corpus });
}

module.exports = {
  measurePatterns,
  buildCsearchIndex,
  measureOneShot,
  measureLandings,
  measureRefs,
  editableFiles,
  restoreEdits,
};
