'use strict';
// Pure scoring of ranked answers against labelled files and line spans.

const DEPTH = 10;
const CUTOFFS = [1, 5, 10];

/** Ranked hits [{path,startLine,endLine}] → distinct paths in first-seen order. */
function rankedFiles(hits) {
  return [...new Set(hits.map((h) => h.path))];
}

const overlaps = (hit, label) =>
  hit.path === label.path && hit.startLine <= label.lines[1] && label.lines[0] <= hit.endLine;

/**
 * { rank, r1, r5, r10, s5, s10, rr } for one task: rank is the 1-based position of the first
 * labelled file among the first 10 distinct files (null when none); sK says a hit of one of
 * the first K files overlaps a labelled span; rr is 1/rank, 0 when none in 10.
 */
function scoreTask(hits, labels) {
  const files = rankedFiles(hits).slice(0, DEPTH);
  const wanted = new Set(labels.map((l) => l.path));
  const index = files.findIndex((p) => wanted.has(p));
  const rank = index < 0 ? null : index + 1;
  const spanWithin = (k) => {
    const top = new Set(files.slice(0, k));
    return hits.some((h) => top.has(h.path) && labels.some((l) => overlaps(h, l)));
  };
  const out = { rank, rr: rank ? 1 / rank : 0, s5: spanWithin(5), s10: spanWithin(10) };
  for (const k of CUTOFFS) out[`r${k}`] = rank !== null && rank <= k;
  return out;
}

/** Means over scored tasks: recall@1/5/10, span@5/10, MRR, and the count. */
function aggregate(scores) {
  const n = scores.length;
  const mean = (f) => (n ? scores.reduce((s, x) => s + f(x), 0) / n : NaN);
  return {
    tasks: n,
    r1: mean((s) => +s.r1),
    r5: mean((s) => +s.r5),
    r10: mean((s) => +s.r10),
    s5: mean((s) => +s.s5),
    s10: mean((s) => +s.s10),
    mrr: mean((s) => s.rr),
    errors: scores.filter((s) => s.error).length,
  };
}

/** Workspace page: which labelled (member, path) pairs are among the first 10 hits. */
function scoreWorkspace(hits, labels) {
  const page = new Set(hits.slice(0, DEPTH).map((h) => `${h.member}\u0000${h.path}`));
  const found = labels.filter((l) => page.has(`${l.member}\u0000${l.path}`)).length;
  return { found, pairs: labels.length, recall: labels.length ? found / labels.length : NaN };
}

/** Pooled pairs found / pairs labelled, and the mean of per-task fractions. */
function aggregateWorkspace(scores) {
  const found = scores.reduce((s, x) => s + x.found, 0);
  const pairs = scores.reduce((s, x) => s + x.pairs, 0);
  const mean = scores.length ? scores.reduce((s, x) => s + x.recall, 0) / scores.length : NaN;
  return { tasks: scores.length, found, pairs, recall: pairs ? found / pairs : NaN, meanTaskRecall: mean };
}

/**
 * rg's workspace answer: each member's files in path order, interleaved one file per member
 * in member order (the rank-based fusion a person doing one rg per member would apply).
 */
function interleave(lists) {
  const out = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

module.exports = { DEPTH, CUTOFFS, rankedFiles, scoreTask, aggregate, scoreWorkspace, aggregateWorkspace, interleave };
