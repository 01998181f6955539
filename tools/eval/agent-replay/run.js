'use strict';
// Agent replay (issue 11): labelled questions over real repositories, each answered by two
// scripted strategies (Trufflepig verbs; rg/sed/head). Prints found, commands and o200k
// tokens read per question and in total, with the targets. See tools/README.md.
//
//   node tools/eval/agent-replay/run.js [--json FILE] [--cli PATH] [--only ID,...] [--work DIR]
//                                  [--strict] [--verbose] [--pin] [--dump DIR] [--format json|lines]
// --format passes an explicit output format to every Trufflepig step (default: none, so the
// CLI's default is what is measured); it checks the strategies read both formats.
const fs = require('fs');
const path = require('path');
const { DEFAULT_CLI, requireCli, timedRun, REPO_ROOT } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { setup, sha256, DEFAULT_WORK } = require('./setup');
const { QUESTIONS } = require('./questions');
const { printedSpans } = require('./printed');
const { runStrategy, haveRg } = require('./strategies');
const { selftest } = require('./selftest');
const { sourceTokens } = require('./framing');
const { countTokens } = require(path.join(REPO_ROOT, 'packages', 'render', 'dist'));

const MANIFEST = path.join(__dirname, 'manifest.json');

function parseArgs(argv) {
  const o = parseOptions(argv, {
    name: 'agent-replay',
    usage:
      'usage: node tools/eval/agent-replay/run.js [--json FILE] [--cli PATH] [--only ID,...] [--work DIR] [--strict] [--verbose] [--pin] [--dump DIR] [--format json|lines]',
    options: {
      cli: { type: 'path', default: DEFAULT_CLI },
      work: { type: 'path', default: DEFAULT_WORK },
      json: { type: 'path', default: null },
      only: { type: 'list', default: null },
      strict: { type: 'boolean' },
      verbose: { type: 'boolean' },
      pin: { type: 'boolean' },
      dump: { type: 'path', default: null },
      format: { type: 'string', default: null },
    },
  });
  return { ...o, only: o.only && new Set(o.only) };
}

/** Resolves every label to its text; throws naming the question when a span is impossible. */
function resolveLabels(questions, roots, pins) {
  const problems = [];
  const ids = new Set();
  for (const q of questions) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    q.spans = [];
    q.groups = q.answer.length;
    for (const [group, a] of q.answer.flatMap((entry, g) => (entry.any ? entry.any : [entry]).map((alt) => [g, alt]))) {
      const key = `${q.corpus}/${a.path}`;
      const file = path.join(roots[q.corpus], a.path);
      if (pins && !(key in pins)) {
        problems.push(`${q.id}: ${key} is not pinned (run --pin and review)`);
        continue;
      }
      if (!fs.existsSync(file)) {
        problems.push(`${q.id}: ${key} does not exist`);
        continue;
      }
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      const [start, end] = a.lines;
      if (!(start >= 1 && start <= end && end <= lines.length)) {
        problems.push(`${q.id}: span ${start}-${end} is outside ${key}`);
        continue;
      }
      const text = lines.slice(start - 1, end);
      if (text.every((l) => l.trim() === '')) problems.push(`${q.id}: span ${start}-${end} of ${key} is blank`);
      q.spans.push({ group, path: a.path, lines: a.lines, name: a.name, text });
    }
  }
  if (problems.length) throw new Error(`bad labels:\n  ${problems.join('\n  ')}`);
}

function pin(roots) {
  const pins = {};
  for (const q of QUESTIONS)
    for (const entry of q.answer)
      for (const a of entry.any || [entry]) {
        pins[`${q.corpus}/${a.path}`] = sha256(path.join(roots[q.corpus], a.path));
      }
  const sorted = Object.fromEntries(Object.entries(pins).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(MANIFEST, `${JSON.stringify(sorted, null, 2)}\n`);
  process.stderr.write(`agent-replay: pinned ${Object.keys(sorted).length} files in ${MANIFEST}\n`);
}

function indexCorpus(cli, root, cache) {
  fs.rmSync(cache, { recursive: true, force: true });
  const r = timedRun(process.execPath, [cli, '--no-daemon', '--root', root, '--cache', cache, 'index'], { cwd: root });
  if (r.status !== 0) throw new Error(`index of ${root} failed (${r.status}): ${(r.stderr || r.stdout).slice(0, 400)}`);
  return r;
}

/** The index report, JSON or `key: value` lines. */
function parseIndexReport(stdout) {
  try {
    return JSON.parse(stdout.trim().split('\n').pop());
  } catch {
    const out = {};
    for (const line of stdout.split('\n')) {
      const m = /^([\w.]+):\s*(.*)$/.exec(line.trim());
      if (m) out[m[1]] = /^\d+$/.test(m[2]) ? Number(m[2]) : m[2];
    }
    return out;
  }
}

function replay(q, kind, ctx) {
  const printed = new Set();
  const encoded = new Set();
  const result = runStrategy({
    kind,
    steps: q[kind],
    cwd: ctx.roots[q.corpus],
    cli: ctx.cli,
    root: ctx.roots[q.corpus],
    cache: ctx.caches[q.corpus],
    format: ctx.format,
    countTokens,
    done: (argv, stdout) => {
      for (const p of printedSpans(q.spans, argv, stdout)) {
        const group = q.spans[p.index].group;
        if (!printed.has(group) && p.encoded) encoded.add(group);
        printed.add(group);
      }
      return printed.size === q.groups;
    },
  });
  const found = printed.size === q.groups;
  return {
    found,
    printed: printed.size,
    encoded_paths: encoded.size,
    spans: q.groups,
    commands: result.steps.length,
    tokens: result.steps.reduce((s, x) => s + x.tokens, 0),
    // Only the lines format is split (framing.js); JSON output counts as framing.
    source_tokens: result.steps.reduce((s, x) => s + sourceTokens(kind, x.output, countTokens), 0),
    stuck: result.stuck,
    steps: result.steps.map((s) => ({ argv: s.argv, status: s.status, tokens: s.tokens })),
    outputs: result.steps.map((s) => s.output),
  };
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const ratio = (a, b) => (b === 0 ? (a === 0 ? '1.00' : 'inf') : (a / b).toFixed(2));
const yn = (r) => `${r.found ? 'yes' : r.printed ? `part ${r.printed}/${r.spans}` : 'no'}${r.encoded_paths ? '%' : ''}`;

function main() {
  const opts = parseArgs(process.argv.slice(2));
  selftest();
  const cli = requireCli(opts.cli);
  fs.mkdirSync(opts.work, { recursive: true });
  if (opts.pin) {
    pin(setup(opts.work, {}));
    return 0;
  }
  const pins = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  const roots = setup(opts.work, pins);
  const questions = QUESTIONS.filter((q) => !opts.only || opts.only.has(q.id));
  if (opts.only)
    for (const id of opts.only) if (!questions.some((q) => q.id === id)) throw new Error(`--only: no question ${id}`);
  resolveLabels(questions, roots, pins);

  const caches = {};
  const indexed = {};
  for (const corpus of new Set(questions.map((q) => q.corpus))) {
    caches[corpus] = path.join(opts.work, corpus, 'cache');
    const r = indexCorpus(cli, roots[corpus], caches[corpus]);
    indexed[corpus] = parseIndexReport(r.stdout);
    process.stderr.write(`agent-replay: indexed ${corpus} (${indexed[corpus].files ?? '?'} files)\n`);
  }
  const ctx = { cli, roots, caches, format: opts.format };

  console.log(
    `${pad('question', 26)} ${pad('class', 10)} | ${pad('tp found', 9)} ${lpad('cmds', 4)} ${lpad('tokens', 7)} | ${pad('grep found', 10)} ${lpad('cmds', 4)} ${lpad('tokens', 7)} | tok ratio`,
  );
  const rows = [];
  for (const q of questions) {
    const tp = replay(q, 'trufflepig', ctx);
    const gr = replay(q, 'grep', ctx);
    if (opts.dump) {
      fs.mkdirSync(opts.dump, { recursive: true });
      const text = [
        ['trufflepig', tp],
        ['grep', gr],
      ]
        .map(([k, r]) =>
          r.steps
            .map((s, i) => `### ${k} ${i + 1}: ${s.argv.join(' ')}  (${s.tokens} tokens)\n${r.outputs[i]}`)
            .join('\n'),
        )
        .join('\n');
      fs.writeFileSync(path.join(opts.dump, `${q.id}.txt`), text);
    }
    delete tp.outputs;
    delete gr.outputs;
    rows.push({
      id: q.id,
      corpus: q.corpus,
      class: q.class,
      vendored: Boolean(q.vendored),
      question: q.question,
      trufflepig: tp,
      grep: gr,
    });
    console.log(
      `${pad(q.id, 26)} ${pad(q.class, 10)} | ${pad(yn(tp), 9)} ${lpad(tp.commands, 4)} ${lpad(tp.tokens, 7)} | ${pad(yn(gr), 10)} ${lpad(gr.commands, 4)} ${lpad(gr.tokens, 7)} | ${ratio(tp.tokens, gr.tokens)}`,
    );
    if (opts.verbose) {
      for (const [name, r] of [
        ['tp', tp],
        ['grep', gr],
      ])
        for (const s of r.steps) console.log(`    ${name} ${lpad(s.tokens, 6)}  ${s.argv.join(' ')}`);
    }
  }
  const total = (k, f) => rows.reduce((s, r) => s + r[k][f], 0);
  const sum = {};
  for (const k of ['trufflepig', 'grep']) {
    sum[k] = {
      found: rows.filter((r) => r[k].found).length,
      commands: total(k, 'commands'),
      tokens: total(k, 'tokens'),
      source_tokens: total(k, 'source_tokens'),
    };
  }
  const n = rows.length;
  console.log('');
  console.log(
    `total (${n} questions)      | trufflepig: found ${sum.trufflepig.found}/${n}, ${sum.trufflepig.commands} commands, ${sum.trufflepig.tokens} tokens`,
  );
  console.log(
    `                           | grep:       found ${sum.grep.found}/${n}, ${sum.grep.commands} commands, ${sum.grep.tokens} tokens`,
  );
  console.log(
    `ratios trufflepig/grep     | commands ${ratio(sum.trufflepig.commands, sum.grep.commands)}, tokens ${ratio(sum.trufflepig.tokens, sum.grep.tokens)}`,
  );
  // Framing is what a strategy read besides source text (framing.js): paths, line numbers,
  // handles, headers, coverage. Less framing is a format change; less source text, a reading one.
  const split = (k) => `source text ${sum[k].source_tokens}, framing ${sum[k].tokens - sum[k].source_tokens}`;
  console.log(`where tokens went         | trufflepig: ${split('trufflepig')}`);
  console.log(`                           | grep:       ${split('grep')}`);
  const targets = [
    {
      name: 'trufflepig found >= grep found',
      pass: sum.trufflepig.found >= sum.grep.found,
      detail: `${sum.trufflepig.found} vs ${sum.grep.found}`,
    },
    {
      name: 'tokens <= 0.7 x grep',
      pass: sum.trufflepig.tokens <= 0.7 * sum.grep.tokens,
      detail: `${sum.trufflepig.tokens} vs ${Math.floor(0.7 * sum.grep.tokens)}`,
    },
    {
      name: 'commands <= grep',
      pass: sum.trufflepig.commands <= sum.grep.commands,
      detail: `${sum.trufflepig.commands} vs ${sum.grep.commands}`,
    },
  ];
  const enc = rows.filter((r) => r.trufflepig.encoded_paths).length;
  if (enc)
    console.log(
      `% ${enc} questions: Trufflepig printed the answer's path only percent-encoded (cannot be pasted into sed/cat; counted as found)`,
    );
  if (!haveRg())
    console.log('note: rg is not installed (or AGENT_REPLAY_NO_RG is set): the grep strategy ran grep -rnE instead');
  console.log('targets (issue 11):');
  for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'MISS'}  ${t.name} (${t.detail})`);
  const byClass = {};
  for (const r of rows) {
    const c = (byClass[r.class] = byClass[r.class] || {
      n: 0,
      tpFound: 0,
      grepFound: 0,
      tpTokens: 0,
      grepTokens: 0,
      tpCommands: 0,
      grepCommands: 0,
    });
    c.n++;
    c.tpFound += r.trufflepig.found;
    c.grepFound += r.grep.found;
    c.tpTokens += r.trufflepig.tokens;
    c.grepTokens += r.grep.tokens;
    c.tpCommands += r.trufflepig.commands;
    c.grepCommands += r.grep.commands;
  }
  console.log('by class: class  n  tp found/cmds/tokens  grep found/cmds/tokens');
  for (const [k, c] of Object.entries(byClass)) {
    console.log(
      `  ${pad(k, 10)} ${lpad(c.n, 2)}  ${c.tpFound}/${c.tpCommands}/${c.tpTokens}  ${c.grepFound}/${c.grepCommands}/${c.grepTokens}`,
    );
  }
  if (opts.json) {
    fs.writeFileSync(
      opts.json,
      `${JSON.stringify({ cli, work: opts.work, indexed, totals: sum, targets, by_class: byClass, questions: rows }, null, 2)}\n`,
    );
  }
  return opts.strict && targets.some((t) => !t.pass) ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    process.stderr.write(`agent-replay: ${e.message}\n`);
    process.exitCode = 1;
  }
}
