'use strict';
// 7. Concurrent writers and clients: two `index` processes on one root at once (each exits 0
// or with a code, at least one publishes), and 8 daemon clients searching and showing while
// a writer edits files. Every line of file N carries N's tag (zqXXXzq), so a `show` or a
// snippet carrying another file's tag is a handle that read the wrong file's bytes.
const fs = require('fs');
const path = require('path');
const { once, sleep } = require('../lib/harness');
const { makeRepo, freshness, hitsOf } = require('../lib/repo');

const WORDS = ['river', 'stone', 'maple', 'cedar', 'amber', 'delta', 'ember', 'frost', 'grove', 'harbor'];
const tag = (i) =>
  `zq${String.fromCharCode(97 + (Math.floor(i / 676) % 26), 97 + (Math.floor(i / 26) % 26), 97 + (i % 26))}zq`;
const TAG = /zq([a-z]{3})zq/g;

function fileText(rng, i, version) {
  const lines = [];
  for (let l = 0; l < 6 + rng.int(10); l++)
    lines.push(
      `export const ${rng.pick(WORDS)}_${l} = "${tag(i)} ${rng.pick(WORDS)} ${rng.pick(WORDS)} v${version}"; // ${tag(i)}`,
    );
  return `${lines.join('\n')}\n`;
}

async function twoIndexers(h, exp, rng, plan) {
  const files = {};
  for (let i = 0; i < plan.twoIndexerFiles; i++) files[`d${i % 20}/f${i}.ts`] = fileText(rng, i, 0);
  const repo = makeRepo(h, 'two-writers', files);
  await once(h, exp, repo, ['index'], { untimed: true });
  for (let round = 0; round < plan.twoIndexers; round++) {
    for (let k = 0; k < 30; k++) {
      const i = rng.int(plan.twoIndexerFiles);
      fs.writeFileSync(path.join(repo.root, `d${i % 20}`, `f${i}.ts`), fileText(rng, i, round + 1));
    }
    const a = exp.attempt(`two index processes at once #${round + 1}`);
    const [x, y] = await Promise.all([
      a.cli(h, repo, ['index'], { untimed: true, deadlineMs: 60000 }),
      a.cli(h, repo, ['index'], { untimed: true, deadlineMs: 60000 }),
    ]);
    if (x.status !== 0 && y.status !== 0) a.fail('contract', `neither index published: ${x.code} / ${y.code}`);
    a.done();
  }
  await freshness(h, exp, repo, {});
}

/** Asserts every tag in a successful show or snippet belongs to the hit's own file. */
function checkOwnBytes(a, text, expectedPath) {
  const m = /f(\d+)\.ts$/.exec(expectedPath || '');
  if (!m) return;
  const own = tag(Number(m[1]));
  for (const t of text.matchAll(TAG)) {
    if (t[0] !== own) {
      a.fail('contract', `bytes of another file: ${expectedPath} showed ${t[0]} (own ${own})`);
      return;
    }
  }
}

async function clients(h, exp, rng, plan) {
  const files = {};
  const count = 60;
  for (let i = 0; i < count; i++) files[`src/f${i}.ts`] = fileText(rng, i, 0);
  const repo = makeRepo(h, 'clients', files);
  await once(h, exp, repo, ['index'], { untimed: true });
  await once(h, exp, repo, ['search', 'river'], { daemon: true, untimed: true });
  let writing = true;
  let edits = 0;
  const writer = (async () => {
    let version = 1;
    while (writing) {
      const i = rng.int(count);
      const file = path.join(repo.root, 'src', `f${i}.ts`);
      // Rewrites, renames over, truncations: the shapes an editor or a checkout produces.
      const shape = rng.int(3);
      if (shape === 0) fs.writeFileSync(file, fileText(rng, i, version++));
      else if (shape === 1) {
        fs.writeFileSync(`${file}.tmp`, fileText(rng, i, version++));
        fs.renameSync(`${file}.tmp`, file);
      } else fs.writeFileSync(file, '');
      edits++;
      await sleep(20 + rng.int(60));
    }
  })();
  const client = async (c) => {
    const crng = rng.fork(`client${c}`);
    for (let n = 0; n < plan.clientCalls; n++) {
      const word = crng.pick(WORDS);
      const a = exp.attempt(`client ${c}: search ${word} then show [daemon]`);
      const search = await a.cli(h, repo, ['search', word], { daemon: true });
      const hits = hitsOf(search);
      for (const hit of hits) if (hit.snippet && hit.snippet.text) checkOwnBytes(a, hit.snippet.text, hit.path);
      const hit = hits.length ? crng.pick(hits) : null;
      if (hit) {
        const shown = await a.cli(h, repo, ['show', hit.handle], { daemon: true });
        if (shown.status === 0)
          checkOwnBytes(a, shown.stdout.toString('utf8'), shown.json ? shown.json.path : hit.path);
      }
      a.done();
    }
  };
  await Promise.all(Array.from({ length: plan.clients }, (_, c) => client(c)));
  writing = false;
  await writer;
  exp.note(`${plan.clients} daemon clients × ${plan.clientCalls} search+show pairs against ${edits} edits`);
  await freshness(h, exp, repo, { daemon: true });
}

async function run(h, exp, rng, out, plan) {
  await twoIndexers(h, exp, rng, plan);
  await clients(h, exp, rng, plan);
}

module.exports = { run, title: 'concurrent writers and clients' };
