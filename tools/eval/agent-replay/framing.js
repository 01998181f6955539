'use strict';
// Where a strategy's tokens went: the source text an output carries (the bytes of the files,
// indentation left out) and everything else, its framing (paths, line numbers, handles, hit
// and row headers, coverage and next lines). The split tells a change of output format (less
// framing) from a change of reading (less source text): the first is bounded by what the
// spec makes every page print, the second by what the question needs.
//
// Reads lines output only (the default format). A line not recognised as framing counts as
// source text, so the framing figure is a lower bound.

// Trufflepig framing lines: hit and show headers (`SET:N  PATH:A-B ...`, `path:P:A-B`), a
// member's or a verb's page header, coverage, next, refs/map title lines, refs' path lines.
const TP_FRAME_LINE =
  /^(?:(?:[\w.@-]+\/)?[0-9a-z]{6,}:\d+\s|path:\S+(?:\s|$)|coverage:|next:|refs |map |also:|members:|refs: |verified:)/;
// Evidence `  N: TEXT`, show rows `N<TAB>TEXT`, refs rows `N LINE role ...: TEXT`, map rows
// `N A-B kind name`: the text after the prefix is source.
// A further match outside the hit's span names its definition: `  317 in check: TEXT`.
const TP_EVIDENCE = /^\s+\d+(?: in \S+)?: (.*)$/;
const TP_SHOW_ROW = /^\d+\t(.*)$/;
const TP_REFS_ROW = /^\d+ \d+ [a-z]+(?: [a-z]+)*?(?: in \S+)?: (.*)$/;
const TP_MAP_ROW = /^\d+ \d+(?:-\d+)? (.*)$/;
// rg/grep rows `PATH:N:TEXT`, `PATH-N-TEXT` (context), `N:TEXT` (one file).
const GREP_ROW = /^(?:\.\/)?(?:[^\s:]+[:-])?\d+[:-](.*)$/;

/** The source-text lines of one output, trimmed; framing lines are left out. */
function sourceLines(kind, stdout) {
  const out = [];
  for (const raw of (stdout || '').split('\n')) {
    if (raw.trim() === '') continue;
    if (kind === 'trufflepig') {
      if (TP_FRAME_LINE.test(raw)) continue;
      const m = TP_EVIDENCE.exec(raw) || TP_SHOW_ROW.exec(raw) || TP_REFS_ROW.exec(raw) || TP_MAP_ROW.exec(raw);
      if (m) out.push(m[1].trim());
      // A bare path line (a refs page names each file once) is framing.
      else if (!/^\S+$/.test(raw)) out.push(raw.trim());
    } else {
      const m = GREP_ROW.exec(raw);
      out.push((m ? m[1] : raw).trim());
    }
  }
  return out.filter((l) => l !== '');
}

/** Tokens of the source text in one output (0 when there is none). */
function sourceTokens(kind, stdout, countTokens) {
  const lines = sourceLines(kind, stdout);
  return lines.length ? countTokens(`${lines.join('\n')}\n`) : 0;
}

module.exports = { sourceLines, sourceTokens };
