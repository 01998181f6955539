'use strict';
// Pure scoring of one ranked answer against a case's labelled spans.

/** Ranked hits [{path,start,end}] → distinct paths in first-seen order. */
function rankedFiles(hits) {
  return [...new Set(hits.map((h) => h.path))];
}

const overlaps = (hit, span) => hit.path === span.path && hit.start < span.end && span.start < hit.end;

/** { fileRank, file5, file10, span10 } for hits (ordered) against expected spans. */
function scoreCase(hits, expected) {
  const files = rankedFiles(hits);
  const expectedPaths = new Set(expected.map((e) => e.path));
  const index = files.findIndex((p) => expectedPaths.has(p));
  const fileRank = index < 0 ? null : index + 1;
  return {
    fileRank,
    file5: fileRank !== null && fileRank <= 5,
    file10: fileRank !== null && fileRank <= 10,
    span10: hits.slice(0, 10).some((h) => expected.some((e) => overlaps(h, e))),
  };
}

/** Totals over scored cases: counts of recalls, misses (no expected file in top 10), truncations, errors. */
function totals(scores) {
  const count = (pred) => scores.filter(pred).length;
  return {
    cases: scores.length,
    file5: count((s) => s.file5),
    file10: count((s) => s.file10),
    span10: count((s) => s.span10),
    misses: count((s) => !s.file10),
    truncated: count((s) => s.truncated),
    errors: count((s) => s.error),
  };
}

module.exports = { scoreCase, totals, rankedFiles };
