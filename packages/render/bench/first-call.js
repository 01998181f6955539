// First-call cost in a fresh process: loading the package, the first token count (which
// builds the rank table), and one default search page. Run after a build:
//   node packages/render/bench/first-call.js
'use strict';
const ms = (from) => (Number(process.hrtime.bigint() - from) / 1e6).toFixed(1);

let t = process.hrtime.bigint();
const render = require('../dist/index.js');
console.log(`require @trufflepig/render: ${ms(t)} ms`);

t = process.hrtime.bigint();
render.countTokens('export function refillTokens(bucket: Bucket): number {');
console.log(`first countTokens (loads o200k_base ranks): ${ms(t)} ms`);

const set = '0123456789abcdef0123456789abcdef';
const hits = Array.from({ length: 40 }, (_, i) => ({
  handle: `${set}:${i + 1}`,
  path: `src/module${i}/bucket_${i}.ts`,
  uri: `file:///work/repo/src/module${i}/bucket_${i}.ts`,
  start_line: 10 + i,
  end_line: 30 + i,
  start: 200 * i,
  end: 200 * i + 640,
  name: `refillTokens${i}`,
  kind: 'function',
  snippet: { line: 12 + i, text: `const tokens = bucket.refillTokens(rate, now) + ${i}; // refill` },
}));
t = process.hrtime.bigint();
const page = render.renderSearchPage(
  {
    query: 'refill tokens',
    setId: set,
    offset: 0,
    hits,
    limit: render.DEFAULT_LIMIT,
    coverage: { indexed_files: 40 },
    coverageLine: 'indexed 40 files',
    truncated: false,
  },
  { format: 'json', budget: render.DEFAULT_BUDGET },
);
console.log(
  `renderSearchPage (budget ${render.DEFAULT_BUDGET}): ${ms(t)} ms, ${page.shown} hits, ${render.countTokens(page.stdout)} tokens`,
);
