'use strict';
// The kernel benchmark's table and issue 15's targets (PASS/MISS).

const ms = (s) => (s === null || s === undefined || Number.isNaN(s) ? 'n/a' : `${Math.round(s * 1000)} ms`);
const sec = (s) => (s === null || s === undefined ? 'n/a' : `${s.toFixed(1)} s`);
const { peakIndexingBytes } = require('../index/measure');

const mb = (b) => (b === null || b === undefined ? 'n/a' : `${(b / 1e6).toFixed(0)} MB`);

/** The issue's targets over a result; each { name, value, target, pass } (pass null: not measured). */
function targets(r) {
  // A reused index has no cold run: its two targets are not measured, neither passed nor missed.
  const cold = r.indexing.cold ?? { seconds: null, peakRssBytes: null };
  const measured = (pass) => (r.indexing.cold ? pass : null);
  const report = r.indexing.report ?? r.indexing.cold?.report;
  const source = report && Number(report.source_bytes);
  const ratio = source && r.indexing.indexBytes ? r.indexing.indexBytes / source : null;
  const regexRatio = r.medians.pattern / r.medians.patternRg;
  const t = (name, value, target, pass) => ({ name, value, target, pass });
  return [
    t('cold index', sec(cold.seconds), '<= 180 s', measured(cold.seconds <= 180)),
    t(
      'cold index peak memory (process tree PSS; largest process RSS)',
      `${mb(peakIndexingBytes(cold))}; ${mb(cold.peakRssBytes)}`,
      '<= 1 GB',
      measured(peakIndexingBytes(cold) !== null && peakIndexingBytes(cold) <= 1e9),
    ),
    t(
      'index size / indexed source',
      ratio === null ? 'n/a' : `${ratio.toFixed(2)} x`,
      '<= 1.5 x',
      ratio !== null && ratio <= 1.5,
    ),
    t('no-change reindex (median)', sec(r.indexing.reindexSeconds), '<= 3 s', r.indexing.reindexSeconds <= 3),
    t('daemon identifier search (median of 10)', ms(r.medians.identifier), '<= 150 ms', r.medians.identifier <= 0.15),
    t('daemon free-text search (median of 10)', ms(r.medians.freeText), '<= 300 ms', r.medians.freeText <= 0.3),
    t(
      'daemon re: / rg (medians of 10)',
      `${ms(r.medians.pattern)} / ${ms(r.medians.patternRg)} = ${regexRatio.toFixed(2)}`,
      '<= 0.25',
      regexRatio <= 0.25,
    ),
    t('one-shot --no-daemon search (median of 10)', ms(r.medians.oneShot), '<= 1 s', r.medians.oneShot <= 1),
    t('idle daemon RSS', mb(r.idle.rssBytes), '<= 300 MB', r.idle.rssBytes !== null && r.idle.rssBytes <= 300e6),
    t(
      `edit to visible (median of ${r.edit.samples.length})`,
      ms(r.edit.medianSeconds),
      '<= 0.5 s',
      r.edit.medianSeconds <= 0.5 && r.edit.invisible === 0,
    ),
    t(
      'show sym: lands on the definition',
      r.landings.map((l) => `${l.name} ${l.ok ? 'ok' : `-> ${l.got}`}`).join(', '),
      'all 3',
      r.landings.every((l) => l.ok),
    ),
  ];
}

/** Prints the figures and targets; true when every target passed. */
function printReport(r) {
  const out = [];
  out.push(`tools/bench/kernel — ${r.corpus}${r.quick ? ' (quick)' : ''}`);
  if (/SUBSET/.test(r.corpus)) out.push('NOTE: a subset of the tree; the targets are stated for the whole kernel');
  const indexed = r.indexing.report ?? r.indexing.cold?.report ?? {};
  out.push(
    `indexed: ${indexed.files ?? 'n/a'} files, ${mb(Number(indexed.source_bytes))} source, index ${mb(r.indexing.indexBytes)}${r.reuseIndex ? ' (reused, no cold index)' : ''}; csearch cindex ${sec(r.csearch.seconds)}`,
  );
  out.push('');
  out.push('query                                              trufflepig    rg      csearch');
  for (const [kind, rows] of [
    ['id  ', r.identifiers],
    ['text', r.freeText],
  ]) {
    for (const q of rows)
      out.push(
        `${`${kind} ${q.query}`.padEnd(50)} ${ms(q.medians.search).padStart(9)}${q.failures.length ? `  (${q.failures[0]})` : ''}`,
      );
  }
  for (const p of r.patterns) {
    out.push(
      `${`re:  ${p.pattern}`.slice(0, 50).padEnd(50)} ${ms(p.medians.trufflepig).padStart(9)} ${ms(p.medians.rg).padStart(8)} ${ms(p.medians.csearch).padStart(8)}${p.errors.length ? `  (${p.errors[0]})` : ''}`,
    );
  }
  for (const x of r.refs ?? [])
    out.push(
      `${`refs ${x.name}`.padEnd(50)} ${ms(x.seconds).padStart(9)}  ${x.error ? `(${x.error})` : `${x.sites} sites in ${x.files} files${x.unread ? `, ${x.unread} files unread` : ''}`}`,
    );
  out.push(
    `${'medians'.padEnd(50)} id ${ms(r.medians.identifier)}, text ${ms(r.medians.freeText)} (node -e 0: ${ms(r.medians.node)}), re: ${ms(r.medians.pattern)} vs rg ${ms(r.medians.patternRg)} and csearch ${ms(r.medians.patternCsearch)}`,
  );
  out.push('');
  out.push('targets (issue 15):');
  const list = targets(r);
  for (const t of list)
    out.push(
      `  ${t.pass === null ? 'n/a ' : t.pass ? 'PASS' : 'MISS'}  ${t.name.padEnd(44)} ${t.value}  (target ${t.target})`,
    );
  console.log(out.join('\n'));
  return list.every((t) => t.pass !== false);
}

module.exports = { printReport, targets };
