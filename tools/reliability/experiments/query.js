'use strict';
// 3. Query fuzzing with timing: random and huge words, junk filters, random and
// catastrophic regular expressions, stopwords, extreme -b and -n, with and without a daemon.
// Catastrophic patterns run last; after each one served by a daemon a harmless search
// probes whether the daemon still answers (one stalled query must not stall everyone), and
// a daemon that does not is killed so the rest of the run measures something else.
const { once } = require('../lib/harness');
const { makeRepo, freshness } = require('../lib/repo');
const { median } = require('../../lib/proc');

const VOCAB = [
  'bucket',
  'refill',
  'tokens',
  'rate',
  'limit',
  'router',
  'handler',
  'config',
  'loader',
  'parse',
  'render',
  'cache',
  'queue',
  'worker',
  'retry',
  'backoff',
  'stream',
  'buffer',
  'socket',
  'signal',
];
const STOPWORDS = [
  'the-of-and',
  '-the',
  'a-an-the-to',
  '-',
  '--',
  '-file:',
  '-source:',
  'sym:',
  're:',
  '""',
  '"',
  'the',
  'of',
  'is-a',
  'not-the-end',
  'file:',
  'kind:',
  'lang:',
  '-lang:',
  'in:',
  'ws:',
];
const CATASTROPHIC = ['(a+)+$', '(a|aa)+$', '(.*a){20}', '(a*)*b', '^(a+)+$', '(\\w+\\s?)+$', '(x+x+)+y', '(a|a?)+$'];
const JUNK = () => [
  '',
  '*',
  '**',
  '[',
  ']',
  '%',
  '%zz',
  '%00',
  '\\',
  '..',
  '../..',
  '/',
  '{a,b',
  '?',
  '\u00e9',
  '\ud83d\ude00',
  'a'.repeat(300),
  '::',
  'x:y:z',
];

function sourceFiles(rng) {
  const files = {};
  for (let i = 0; i < 40; i++) {
    const words = Array.from({ length: 6 }, () => rng.pick(VOCAB));
    const ext = rng.pick(['rs', 'ts', 'js', 'md', 'py', 'go']);
    const body =
      ext === 'rs'
        ? `pub fn ${words[0]}_${words[1]}() -> u32 { ${i} }\n// ${words.join(' ')}\n`
        : ext === 'md'
          ? `# ${words[0]}\n${words.join(' ')} the of and\n`
          : `export function ${words[0]}${words[1]}() { return "${words.join(' ')}"; }\n`;
    files[`m${i % 5}/f${i}.${ext}`] = body.repeat(1 + rng.int(20));
  }
  files['redos.txt'] = `${'a'.repeat(28)}!\n${'a'.repeat(28)}\n${'x'.repeat(30)}\n${'word '.repeat(30)}!\n`;
  return files;
}

function randomPattern(rng) {
  const alphabet = [
    'a',
    'b',
    '.',
    '*',
    '+',
    '?',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '|',
    '^',
    '$',
    '\\',
    'd',
    'w',
    's',
    '1',
    ',',
    '-',
  ];
  return Array.from({ length: 1 + rng.int(12) }, () => rng.pick(alphabet)).join('');
}

function randomQuery(rng) {
  switch (rng.int(10)) {
    case 0:
      return [rng.letters(3 + rng.int(10))];
    case 1:
      return [
        rng.pick(['kind:', 'file:', 'lang:', 'source:', '-file:', '-source:']) + rng.pick(JUNK()),
        rng.pick(VOCAB),
      ];
    case 2:
      return [`re:${randomPattern(rng)}`];
    case 3:
      return [rng.pick(STOPWORDS), ...(rng.chance(0.5) ? [rng.pick(VOCAB)] : [])];
    case 4:
      return [`"${rng.pick(VOCAB)} ${rng.pick(VOCAB)}"`];
    case 5:
      return [`sym:${rng.pick([rng.pick(VOCAB), `${rng.pick(VOCAB)}::${rng.pick(VOCAB)}`, rng.pick(JUNK())])}`];
    case 6:
      return [
        rng.pick(['kind:function', 'kind:file', 'lang:rust', 'lang:ts', 'source:code', 'source:docs', 'file:m1/']),
        rng.pick(VOCAB),
      ];
    default:
      return Array.from({ length: 1 + rng.int(4) }, () => rng.pick(VOCAB));
  }
}

function randomFlags(rng) {
  const flags = [];
  const b = rng.pick([null, null, 0, 1, 2, 10, 50, 200, 600, 5000]);
  if (b !== null) flags.push('-b', String(b));
  const n = rng.pick([null, null, null, 0, 1, 3, 100000, 2 ** 53]);
  if (n !== null) flags.push('-n', String(n));
  if (rng.chance(0.3)) flags.push('--format', 'lines');
  return flags;
}

/** Fixed cases the issue names: huge words and patterns, budgets applied to errors. */
function fixedCases() {
  const long = 'q'.repeat(50000);
  return [
    ['search', long],
    ['search', 'kind:method', long],
    ['search', 'kind:function', long],
    ['search', `file:${long}`, 'x'],
    ['search', `sym:${long}`],
    ['-b', '100', 'search', `re:${'a'.repeat(100000)}`],
    ['-b', '100', 'search', `re:${'(a'.repeat(50000)}`],
    ['refs', long],
    ['map', long],
    ['-b', '0', 'search'],
    ['-b', '1', 'search'],
    ['-b', '0', 'search', 're:('],
    ['-b', '1', 'search', 'lang:nope', 'x'],
    ['-b', '0', 'show', 'bogus'],
    ['-b', '3', 'show', 'path:nope'],
    ['-n', '0', 'search', 'bucket'],
    ['-n', '100000', 'search', 'bucket'],
    ['-b', '0', 'search', 'bucket'],
    ['-b', '1', 'search', 'bucket'],
    ['-b', '1', '--format', 'lines', 'search', 'bucket'],
    ['search', `"${long}"`],
    ['search', 're:'],
    ['search', 're:\\'],
  ];
}

function stats(values) {
  if (values.length === 0) return 'no calls';
  const sorted = [...values].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
  return `median ${median(sorted).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (${sorted.length} calls)`;
}

async function run(h, exp, rng, out, plan, cleanupApi) {
  const timing = { daemon: [], direct: [] };
  const timed = async (repo, args, daemon, label) => {
    const call = await once(h, exp, repo, args, { daemon, label });
    if (!call.timedOut) timing[daemon ? 'daemon' : 'direct'].push(call.ms);
    return call;
  };
  const repo = makeRepo(h, 'query', sourceFiles(rng));
  await once(h, exp, repo, ['index'], { untimed: true });
  for (const daemon of [false, true]) {
    const count = daemon ? plan.queryDaemon : plan.queryDirect;
    for (const args of fixedCases().slice(0, daemon ? undefined : plan.queryFixedDirect))
      await timed(repo, args, daemon);
    for (let i = 0; i < count; i++) {
      const verb = rng.pick(['search', 'search', 'search', 'search', 'refs', 'map', 'show']);
      const words = randomQuery(rng);
      const args = verb === 'show' ? ['show', `sym:${words[0]}`] : [verb, ...words];
      await timed(repo, [...randomFlags(rng), ...args], daemon);
    }
  }
  // Catastrophic patterns, each followed (in daemon mode) by a harmless probe.
  for (const pattern of rng.shuffle(CATASTROPHIC).slice(0, plan.catastrophic)) {
    for (const daemon of [true, false]) {
      await timed(repo, ['search', `re:${pattern}`], daemon, `catastrophic re:${pattern}${daemon ? ' [daemon]' : ''}`);
      if (!daemon) continue;
      const probe = await timed(repo, ['search', 'bucket'], true, `harmless search right after re:${pattern} [daemon]`);
      if (probe.timedOut) {
        exp.note(`the daemon did not answer a harmless search after re:${pattern}; killed it`);
        cleanupApi.killDaemonsOf(repo);
      }
    }
  }
  exp.note(`latency through the daemon: ${stats(timing.daemon)}`);
  exp.note(`latency with --no-daemon: ${stats(timing.direct)}`);
  exp.timing = timing;
  await freshness(h, exp, repo, { daemon: true });
}

module.exports = { run, title: 'query fuzzing with timing (ReDoS included)' };
