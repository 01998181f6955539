'use strict';
// Renders the run's results as Markdown tables (what docs/storage.md quotes).

const mb = (b) => (b == null ? '—' : (b / 1e6).toFixed(1));
const kb = (b) => (b == null ? '—' : (b / 1e3).toFixed(0));
const ms = (x) => (x == null ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const s = (x) => (x == null ? '—' : (x / 1000).toFixed(1));

function table(head, rows) {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function errors(e) {
  const parts = Object.entries(e).map(([k, v]) => `${v} ${k}`);
  return parts.length ? `, errors: ${parts.join(', ')}` : '';
}

function mixCell(m) {
  const r = m.reader;
  let cell = `${r.tx.mixed} mixed / ${r.tx.reads} reads${errors(r.tx.errors)}`;
  if (m.keepOpen)
    cell += `; separate statements, no read transaction: ${r.autocommit.mixed} mixed / ${r.autocommit.reads}${errors(r.autocommit.errors)}`;
  return `${cell} (writer: ${m.writer.generations} gens)`;
}

function killCell(k) {
  let cell = `${k.outcome} (killed ${k.landed}, ${k.windowMs.toFixed(0)} ms write window`;
  if (k.leftLock) cell += '; stale .lock dir left';
  if (k.outcomeAfterLockRemoved)
    cell += `; after removing it by hand, a read-only reader: ${k.outcomeAfterLockRemoved}`;
  if (k.outcomeAfterWriterOpen) cell += `; after its own read-write open: ${k.outcomeAfterWriterOpen}`;
  if (k.outcomeAfterNativeOpen)
    cell += `; after native SQLite (better-sqlite3) opened the same state read-write: ${k.outcomeAfterNativeOpen}`;
  return `${cell})`;
}

function corpusSection(c) {
  const head = [
    'candidate',
    'load s',
    'size MB',
    'open ms',
    'ident ms',
    'free-text ms',
    'RSS idle MB',
    'RSS after 20 q MB',
    'one-file edit ms',
    'edit KB written',
    'generations mixed?',
    'after kill -9 mid-write, a reader sees',
  ];
  const rows = Object.entries(c.rows).map(([, r]) => {
    const l = r.load;
    const size = l.bytesNoTri != null ? `${mb(l.bytesNoTri)} (+${mb(l.bytes - l.bytesNoTri)} trigram)` : mb(l.bytes);
    const load = l.triMs != null ? `${s(l.engineMs)} (+${s(l.triMs)} trigram)` : s(l.engineMs);
    const e = r.edit;
    const edit = `${ms(e.ms)}${e.ckMs != null ? ` (+${ms(e.ckMs)} checkpoint)` : ''}; ${ms(e.deleteMs)} of it deleting`;
    const editKb = e.ckBytes != null ? `${kb(e.bytes)} (+${kb(e.ckBytes)} checkpoint)` : kb(e.bytes);
    return [
      r.label,
      load,
      size,
      ms(r.read.openMs),
      ms(r.read.identMs),
      ms(r.read.freeMs),
      mb(r.read.idleRss),
      mb(r.read.afterRss),
      edit,
      editKb,
      r.mix ? mixCell(r.mix) : '—',
      r.kill ? killCell(r.kill) : '—',
    ];
  });
  const tri = Object.entries(c.rows)
    .filter(([, r]) => r.read.triMs != null)
    .map(([, r]) => `${r.label}: ${ms(r.read.triMs)} ms`);
  const idx = c.index;
  return [
    `### ${c.corpus.note}`,
    '',
    `Real indexer (\`--no-daemon index\`): ${idx.seconds.toFixed(0)} s, peak RSS ${mb(idx.peakRss)} MB, index.sqlite ${mb(idx.bytes)} MB. ` +
      `Rows: ${Object.entries(c.dump.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(
          ', ',
        )}; FTS text ${mb(c.dump.ftsBytes)} MB, trigram text ${mb(c.dump.triBytes)} MB. Segments: ${c.segments}.`,
    '',
    table(head, rows),
    '',
    tri.length ? `Trigram candidate lookup (3 substrings, median): ${tri.join('; ')}.` : '',
    `Edited files (median size): ${c.fixtures.join(', ')}.`,
    '',
  ].join('\n');
}

function render(results) {
  const parts = [
    `## Storage benchmark (${results.started}, ${results.machine.cpus} cores, Node ${results.machine.node})`,
    '',
  ];
  if (results.install) {
    parts.push(
      table(
        ['package', 'install s (warm npm cache)', 'native addon', 'compiled here', 'node_modules MB'],
        results.install.map((i) => [
          `${i.pkg}@${i.version}`,
          i.ok ? i.seconds.toFixed(1) : `failed: ${i.tail}`,
          i.native ? 'yes' : 'no',
          i.compiled ? 'yes' : 'no',
          mb(i.bytes),
        ]),
      ),
      '',
    );
  }
  for (const c of results.corpora) parts.push(corpusSection(c));
  return `${parts.join('\n')}\n`;
}

module.exports = { render };
