'use strict';
// 1. Escape attempts: static traversal and links, files and directories swapped for links
// after indexing, and a path flipping between a file and a link while reads run.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { once, sleep, share } = require('../lib/harness');
const { makeRepo, freshness, hitsOf } = require('../lib/repo');

const SOURCE = {
  'src/lib.rs': 'pub fn alpha() -> u32 { 1 }\n// root zebrafruit inside\n',
  'src/app.ts': 'export function beta(): number { return 2; }\n',
  'docs/readme.md': '# inside\nroot words, zebrafruit, alpha\n',
};

/** Names that try to leave the root (with a random line range). */
function escapeNames(out, root, rng) {
  const rel = path.relative(root, out.file);
  const names = [
    '../canary.txt',
    '../../outside/canary.txt',
    `../${rel}`,
    rel,
    `src/../${rel}`,
    out.file,
    out.dir,
    '/etc/passwd',
    '//etc/passwd',
    'file:///etc/passwd',
    '%2e%2e/%2e%2e/outside/canary.txt',
    '%2E%2E%2F%2E%2E%2Foutside%2Fcanary.txt',
    `${encodeURIComponent(out.file)}`,
    '..%2f..%2foutside%2fcanary.txt',
    '....//....//outside/canary.txt',
    '..\\..\\outside\\canary.txt',
    'link_file',
    'link_passwd',
    'link_dir/x.txt',
    'link_dir/',
    'link_dir',
    './link_file',
    'src/../link_file',
    'src/link_up/x.txt',
    'link_dir/../link_dir/a.rs',
    'link_rel',
    'link_file/',
    'src/%2e%2e/link_file',
    '~/../../etc/passwd',
    '.git/../../outside/canary.txt',
  ];
  const ranges = ['', ':1-2', ':1-1000000', ':0-1'];
  return rng.shuffle(names).map((n) => `${n}${rng.pick(ranges)}`);
}

function outsideLinks(root, out) {
  fs.symlinkSync(out.file, path.join(root, 'link_file'));
  fs.symlinkSync(out.dir, path.join(root, 'link_dir'));
  fs.symlinkSync(path.relative(root, out.file), path.join(root, 'link_rel'));
  fs.symlinkSync(path.relative(path.join(root, 'src'), out.dir), path.join(root, 'src', 'link_up'));
  if (out.passwd) fs.symlinkSync(out.passwd, path.join(root, 'link_passwd'));
}

async function staticEscapes(h, exp, rng, out, plan) {
  const repo = makeRepo(h, 'escape-static', SOURCE);
  outsideLinks(repo.root, out);
  await once(h, exp, repo, ['index'], { untimed: true });
  const queries = [
    'zebrafruit',
    're:root',
    're:zebrafruit',
    '"root alpha"',
    'kind:file canary',
    'sym:zebrafruit',
    'nologin',
    're:bin/(ba)?sh',
  ];
  for (const daemon of [false, true]) {
    for (const name of escapeNames(out, repo.root, rng).slice(0, share(plan, plan.staticNames, daemon))) {
      await once(h, exp, repo, ['show', `path:${name}`], { daemon });
      const verb = rng.pick(['map', 'refs', 'ctx', 'search']);
      const word =
        verb === 'map'
          ? name
          : verb === 'refs'
            ? `zebrafruit file:${name}`
            : verb === 'ctx'
              ? `${name}:1`
              : `zebrafruit file:${name}`;
      await once(h, exp, repo, [verb, ...word.split(' ')], { daemon });
    }
    for (const q of rng.shuffle(queries).slice(0, share(plan, plan.staticSearches, daemon))) {
      await once(h, exp, repo, ['search', ...q.split(' ')], { daemon });
    }
  }
  await freshness(h, exp, repo, { daemon: true });
}

/** Index files, swap them (and a directory) for links out of the root, then read every way. */
async function swapped(h, exp, rng, out, plan) {
  for (let round = 0; round < plan.swapRounds; round++) {
    const daemon = round % 2 === 1;
    const repo = makeRepo(h, 'escape-swap', {
      ...SOURCE,
      's1.txt': 'root zebrafruit alpha one\n',
      's2.rs': 'fn zebrafruit() { root_alpha(); }\n',
      'd/x.txt': 'root zebrafruit alpha in d\n',
      'd/a.rs': 'pub fn zebrafruit() {}\n',
    });
    await once(h, exp, repo, ['index'], { untimed: true });
    const before = await once(h, exp, repo, ['search', 'zebrafruit'], { daemon });
    const oldHandles = hitsOf(before).map((hit) => hit.handle);
    fs.rmSync(path.join(repo.root, 's1.txt'));
    fs.symlinkSync(out.file, path.join(repo.root, 's1.txt'));
    fs.rmSync(path.join(repo.root, 's2.rs'));
    fs.symlinkSync(out.passwd || out.file, path.join(repo.root, 's2.rs'));
    fs.rmSync(path.join(repo.root, 'd'), { recursive: true });
    fs.symlinkSync(out.dir, path.join(repo.root, 'd'));
    if (daemon) await sleep(1200);
    else if (round % 4 === 2) await once(h, exp, repo, ['index'], { untimed: true });
    const queries = [
      'zebrafruit',
      'root',
      '"root alpha"',
      '"zebrafruit root"',
      're:root',
      're:zebrafruit',
      're:^root',
      're:.',
      'alpha one',
      'sym:zebrafruit',
      're:bin/(ba)?sh',
    ];
    const newHandles = [];
    for (const q of rng.shuffle(queries).slice(0, share(plan, plan.swapQueries, daemon))) {
      const call = await once(h, exp, repo, ['search', ...q.split(' ')], {
        daemon,
        label: `swapped: search ${q}${daemon ? ' [daemon]' : ''}`,
      });
      newHandles.push(...hitsOf(call).map((hit) => hit.handle));
    }
    const handles = [...new Set([...oldHandles, ...newHandles])].slice(0, share(plan, plan.swapShows, daemon));
    for (const handle of handles)
      await once(h, exp, repo, ['show', handle], {
        daemon,
        label: `swapped: show ${handle}${daemon ? ' [daemon]' : ''}`,
      });
    for (const p of rng.shuffle(['s1.txt', 's2.rs', 'd/x.txt', 'd/a.rs', 'd']).slice(0, share(plan, 5, daemon)))
      await once(h, exp, repo, ['show', `path:${p}`], { daemon });
    for (const p of rng.shuffle(['s1.txt', 'd', 'd/a.rs']).slice(0, share(plan, 3, daemon)))
      await once(h, exp, repo, ['map', p], { daemon });
    await freshness(h, exp, repo, { daemon });
  }
}

/** A helper process that renames a regular file and a link to the canary over `target` in turn. */
function startFlipper(target, canary, cleanupApi) {
  const script = `
    const fs = require('fs');
    const [target, canary] = process.argv.slice(1);
    const tmpFile = target + '.f', tmpLink = target + '.l';
    let i = 0;
    for (;;) {
      try {
        if (i++ % 2) { fs.writeFileSync(tmpFile, 'racefruit root inside ' + i + '\\n'); fs.renameSync(tmpFile, target); }
        else { try { fs.unlinkSync(tmpLink); } catch {} fs.symlinkSync(canary, tmpLink); fs.renameSync(tmpLink, target); }
      } catch {}
      const until = Date.now() + 1; while (Date.now() < until) {}
    }`;
  const child = spawn(process.execPath, ['-e', script, target, canary], { stdio: 'ignore' });
  cleanupApi.addHelper(child);
  return child;
}

async function races(h, exp, rng, out, plan, cleanupApi) {
  for (const [daemon, canary] of [
    [true, out.passwd || out.file],
    [false, out.file],
    [true, out.file],
  ].slice(0, plan.raceSetups)) {
    const repo = makeRepo(h, 'escape-race', { ...SOURCE, 'f.txt': 'racefruit root inside\n' });
    await once(h, exp, repo, ['index'], { untimed: true });
    if (daemon) await once(h, exp, repo, ['search', 'racefruit'], { daemon, untimed: true });
    const flipper = startFlipper(path.join(repo.root, 'f.txt'), canary, cleanupApi);
    for (let i = 0; i < share(plan, plan.raceCalls, daemon); i++) {
      const args = rng.pick([
        ['show', 'path:f.txt'],
        ['show', 'path:f.txt'],
        ['search', 're:root'],
        ['search', 're:racefruit'],
        ['search', '"racefruit root"'],
        ['show', 'path:f.txt:1-1'],
      ]);
      await once(h, exp, repo, args, { daemon, label: `race: ${args.join(' ')}${daemon ? ' [daemon]' : ''}` });
    }
    flipper.kill('SIGKILL');
    cleanupApi.removeHelper(flipper);
    await sleep(50);
    fs.rmSync(path.join(repo.root, 'f.txt'), { force: true });
    fs.writeFileSync(path.join(repo.root, 'f.txt'), 'racefruit settled\n');
    await freshness(h, exp, repo, { daemon });
  }
}

async function run(h, exp, rng, out, plan, cleanupApi) {
  await staticEscapes(h, exp, rng, out, plan);
  await swapped(h, exp, rng, out, plan);
  await races(h, exp, rng, out, plan, cleanupApi);
}

module.exports = { run, title: 'escape attempts (static, swapped, races)' };
