'use strict';
// Benchmark targets on a real history, chosen deterministically: definitions (functions and
// methods, 3 lines or more) of the final version's JavaScript/TypeScript files, ranked by
// how many first-parent commits changed their lines (`git log -L`), then by how many
// commits changed their file, path and line; at most PER_FILE from one file.
const { git, cliJson } = require('./common');

const SOURCE = /\.(c|m)?(j|t)sx?$/;
const KINDS = new Set(['function', 'method']);
const MIN_LINES = 3;
const PER_FILE = 4;
const TOP_FILES = 16;

/** Commits per path (`git log --name-only`), for the paths of HEAD. */
function commitsPerFile(root) {
  const counts = new Map();
  for (const line of git(root, ['log', '--first-parent', '--format=', '--name-only']).split('\n')) {
    if (line) counts.set(line, (counts.get(line) || 0) + 1);
  }
  const head = new Set(git(root, ['ls-files']).trim().split('\n'));
  return [...counts.entries()]
    .filter(([p]) => head.has(p) && SOURCE.test(p))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const lineCommits = (root, file, start, end) =>
  git(root, ['log', '--first-parent', '-L', `${start},${end}:${file}`, '--format=%H', '--no-patch'])
    .split('\n')
    .filter((l) => /^[0-9a-f]{40}$/.test(l)).length;

/**
 * `count` targets: { file, start, end, name, kind, fileCommits, lineCommits }. `name` is
 * the index's qualified name (`Range::parseRange`), what `sym:` takes.
 */
function pickTargets(cli, root, cache, count) {
  const candidates = [];
  for (const [file, fileCommits] of commitsPerFile(root).slice(0, TOP_FILES)) {
    const map = cliJson(cli, root, cache, ['-n', '1000', 'map', file]);
    for (const h of map.hits) {
      if (!KINDS.has(h.kind) || h.end_line - h.start_line + 1 < MIN_LINES) continue;
      candidates.push({
        file,
        start: h.start_line,
        end: h.end_line,
        name: h.name,
        kind: h.kind,
        fileCommits,
        lineCommits: lineCommits(root, file, h.start_line, h.end_line),
      });
    }
  }
  candidates.sort(
    (a, b) =>
      b.lineCommits - a.lineCommits ||
      b.fileCommits - a.fileCommits ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start),
  );
  const perFile = new Map();
  const out = [];
  for (const c of candidates) {
    if (out.length === count) break;
    if ((perFile.get(c.file) || 0) >= PER_FILE) continue;
    perFile.set(c.file, (perFile.get(c.file) || 0) + 1);
    out.push(c);
  }
  if (out.length < count)
    throw new Error(
      `only ${out.length} definitions of ${MIN_LINES}+ lines found in the ${TOP_FILES} most changed files; ${count} needed`,
    );
  return out;
}

module.exports = { pickTargets, commitsPerFile };
