'use strict';
// When has a command "printed" a labelled span? Format-agnostic on purpose: the CLI's output
// is moving from JSON to lines, and grep/sed/head print raw or `path:N:` prefixed lines.
//
// A span is printed by one command when
//   1. every non-blank line of the span (whitespace trimmed and collapsed) appears in that
//      command's output, in order (a subsequence of its output lines), where an output line
//      matches a label line when it equals it, or ends with it behind a prefix that holds
//      that line's own number N as a number of its own (`N:`, `PATH:N:`, `PATH-N-` of
//      rg/grep -n, Trufflepig's `N: ` rows, a refs row `3 831 call in f: ...`);
//      JSON output is read as the string values it holds, each split into its lines;
//   2. and the span's path appears in that command's argv or its output (so `return x` in
//      another file does not count).
//   Or, for a span labelled with a definition `name` (definitions, outlines): one output line
//   holds both the span's first line number (as a number of its own) and the name (as a
//   word), e.g. a `map`/`search` row `lib/x.js:98-176  Install::exec` or rg's `98:  async
//   exec (args) {`; a JSON object with `start_line`/`line` and `name` counts as such a line.
//   The name and where it starts is the answer to "where is X defined" and "outline of F".
// A path printed percent-encoded (`node_modules/%40npmcli/...`) still counts, but the span
// is reported as `encoded`: an agent cannot paste that path into sed or cat.
// An answer of several spans (e.g. every call site) is found once each span has been printed,
// possibly by different commands.

function collapse(s) {
  return s.replace(/\s+/g, ' ').trim();
}

function collectStrings(value, out) {
  if (typeof value === 'string') out.push(...value.split('\n'));
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === 'object') {
    const line = value.start_line ?? value.line;
    if (typeof value.name === 'string' && typeof line === 'number')
      out.push(`${value.path || ''}:${line} ${value.name}`);
    for (const v of Object.values(value)) collectStrings(v, out);
  }
}

/** The output as text lines: JSON lines are replaced by the strings they hold. */
function outputLines(stdout) {
  const out = [];
  for (const line of (stdout || '').split('\n')) {
    const t = line.trim();
    if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
      try {
        collectStrings(JSON.parse(t), out);
        continue;
      } catch {
        /* not JSON: a source line that happens to start with a brace */
      }
    }
    out.push(line);
  }
  return out.map(collapse);
}

function lineMatches(outLine, labelLine, lineNumber) {
  if (outLine === labelLine) return true;
  if (!outLine.endsWith(labelLine)) return false;
  const prefix = outLine.slice(0, outLine.length - labelLine.length);
  // The label starts at a boundary (`212: xdef f(` does not print `def f(`).
  if (/[\w$]$/.test(prefix) && /^[\w$]/.test(labelLine)) return false;
  return new RegExp(`(^|\\D)${lineNumber}(\\D|$)`).test(prefix);
}

/**
 * Whether the label's lines (raw source text, the first being line `first` of its file)
 * appear, in order, among the output lines.
 */
function spanPrinted(labelLines, first, lines) {
  const wanted = labelLines
    .map((text, i) => ({ text: collapse(text), number: first + i }))
    .filter((l) => l.text !== '');
  let i = 0;
  for (const line of lines) {
    if (i < wanted.length && lineMatches(line, wanted[i].text, wanted[i].number)) i++;
  }
  return i === wanted.length;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether one output line names the definition and its first line. */
function spanLocated(span, lines) {
  if (!span.name) return false;
  const num = new RegExp(`(^|\\D)${span.lines[0]}(\\D|$)`);
  const name = new RegExp(`(^|[^\\w$])${escapeRe(span.name)}([^\\w$]|$)`);
  return lines.some((l) => num.test(l) && name.test(l));
}

function encodePath(p) {
  return p.split('/').map(encodeURIComponent).join('/');
}

/**
 * Which spans a command printed. spans: [{ path, lines, name?, text: [lines] }]; argv and
 * stdout of one command. Returns [{ index, encoded }] for the spans printed (encoded: the
 * path appeared only percent-encoded).
 */
function printedSpans(spans, argv, stdout) {
  const lines = outputLines(stdout);
  const haystack = `${argv.join(' ')}\n${stdout}`;
  const printed = [];
  spans.forEach((span, index) => {
    const plain = haystack.includes(span.path);
    const encoded = !plain && encodePath(span.path) !== span.path && haystack.includes(encodePath(span.path));
    if ((plain || encoded) && (spanPrinted(span.text, span.lines[0], lines) || spanLocated(span, lines)))
      printed.push({ index, encoded });
  });
  return printed;
}

module.exports = { printedSpans, outputLines, spanPrinted, spanLocated, lineMatches };
