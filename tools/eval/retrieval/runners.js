'use strict';
// The two retrievers under comparison, each answering ranked hits [{path,start,end}].
const { timedRun, parseJsonOutput } = require('../../lib/proc');

// A page large enough that the token budget never hides hits from the top 10 (the
// concept replay uses the same page).
const EVAL_BUDGET = '100000';
const EVAL_LIMIT = '20';

/** Paths come percent-encoded from the raw bytes; fixtures are ASCII, but decode defensively. */
function decodePath(encoded) {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function trufflepigIndex(cli, root, cache) {
  const r = timedRun(process.execPath, [cli, '--no-daemon', '--json', '--root', root, '--cache', cache, 'index']);
  if (r.status !== 0)
    throw new Error(`trufflepig index exited ${r.status}: ${(r.stdout + r.stderr).trim().slice(0, 400)}`);
  return { seconds: r.seconds, report: parseJsonOutput(r.stdout) };
}

function trufflepigSearch(cli, root, cache, query) {
  const args = [
    cli,
    '--no-daemon',
    '--json',
    '--root',
    root,
    '--cache',
    cache,
    '-b',
    EVAL_BUDGET,
    '-n',
    EVAL_LIMIT,
    'search',
    query,
  ];
  const r = timedRun(process.execPath, args);
  const out = parseJsonOutput(r.stdout);
  if (r.status !== 0 || !out || !Array.isArray(out.hits)) {
    const code = out && out.error ? out.error.code : `exit ${r.status}`;
    return {
      hits: [],
      error: `${code}: ${((out && out.error && out.error.message) || r.stderr || r.stdout).trim().slice(0, 160)}`,
    };
  }
  const hits = out.hits.map((h) => ({ path: decodePath(h.path), start: h.start, end: h.end }));
  return { hits, truncated: Boolean(out.truncated), raw: out };
}

/** rg's answer: files in printed (path-sorted) order, each represented by its first matching line (byte span and line). */
function rgSearch(root, spec) {
  const args = [
    '--json',
    '-n',
    '--sort',
    'path',
    ...(spec.fixed ? ['-F'] : []),
    ...(spec.args || []),
    '-e',
    spec.pattern,
    '.',
  ];
  const r = timedRun('rg', args, { cwd: root });
  if (r.status !== 0 && r.status !== 1)
    return { hits: [], error: `rg exit ${r.status}: ${r.stderr.trim().slice(0, 160)}` };
  const hits = [];
  const seen = new Set();
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const msg = JSON.parse(line);
    if (msg.type !== 'match') continue;
    const p = msg.data.path.text || Buffer.from(msg.data.path.bytes, 'base64').toString('latin1');
    const rel = p.replace(/^\.\//, '');
    if (seen.has(rel)) continue;
    seen.add(rel);
    const text =
      msg.data.lines.text !== undefined
        ? Buffer.from(msg.data.lines.text)
        : Buffer.from(msg.data.lines.bytes, 'base64');
    hits.push({
      path: rel,
      start: msg.data.absolute_offset,
      end: msg.data.absolute_offset + text.length,
      startLine: msg.data.line_number,
      endLine: msg.data.line_number,
    });
  }
  return { hits };
}

module.exports = { trufflepigIndex, trufflepigSearch, rgSearch, decodePath, EVAL_BUDGET, EVAL_LIMIT };
