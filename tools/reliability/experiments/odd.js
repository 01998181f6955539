'use strict';
// 8. Odd trees: a FIFO, a unix socket, links to /dev/zero, /dev/urandom and to the FIFO,
// 200 nested directories, many files, files deleted or truncated while an index runs, and a
// FIFO swapped in for an indexed file. Nothing may hang, and nothing may open a FIFO: a
// poller tries a non-blocking write-open of each FIFO, which succeeds only while some
// process has it open for reading (the poller then closes it, so the reader sees EOF).
const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawnSync } = require('child_process');
const { once, sleep, share } = require('../lib/harness');
const { makeRepo, freshness, hitsOf } = require('../lib/repo');

const DEPTH = 200;

function tree(count) {
  const files = { 'swap.txt': 'swapword here and oddword\n', 'src/main.rs': 'fn oddword() {}\n' };
  for (let i = 0; i < count; i++)
    files[`many/d${Math.floor(i / 500)}/f${i}.js`] = `function manyfn${i}() { return "oddword ${i}"; }\n`;
  files[`${Array(DEPTH).fill('d').join('/')}/leaf.txt`] = 'deepword at the bottom\n';
  return files;
}

/** Watches FIFOs for readers; `current` names the attempt to blame. */
function fifoWatch(initial) {
  const fifos = new Set(initial);
  const state = { current: null, opened: [], add: (f) => fifos.add(f), remove: (f) => fifos.delete(f) };
  const timer = setInterval(() => {
    for (const fifo of fifos) {
      let fd;
      try {
        fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      } catch {
        continue; // ENXIO: nobody reads it
      }
      fs.closeSync(fd);
      state.opened.push({ fifo: path.basename(fifo), during: state.current });
    }
  }, 20);
  state.stop = () => clearInterval(timer);
  return state;
}

/** One call blamed for any FIFO read while it runs (or just before: a daemon reads on its own schedule). */
async function guarded(h, exp, repo, watch, args, opts = {}) {
  const label = opts.label || `${args.join(' ')}${opts.daemon ? ' [daemon]' : ''}`;
  watch.current = label;
  const before = watch.opened.length;
  return once(h, exp, repo, args, {
    ...opts,
    label,
    assert: (call, a) => {
      const reads = watch.opened.slice(before);
      if (reads.length) a.fail('contract', `opened FIFO ${reads[0].fifo} for reading`);
    },
  });
}

async function run(h, exp, rng, out, plan, cleanupApi) {
  const repo = makeRepo(h, 'odd', tree(plan.oddFiles));
  const fifo = path.join(repo.root, 'pipe.txt');
  spawnSync('mkfifo', [fifo]);
  const server = net.createServer().listen(path.join(repo.root, 'sock.txt'));
  fs.symlinkSync('/dev/zero', path.join(repo.root, 'zero.txt'));
  fs.symlinkSync('/dev/urandom', path.join(repo.root, 'random.rs'));
  fs.symlinkSync('pipe.txt', path.join(repo.root, 'fifo_link.txt'));
  const watch = fifoWatch([fifo]);
  const deep = `${Array(DEPTH).fill('d').join('/')}/leaf.txt`;
  try {
    const indexed = await guarded(h, exp, repo, watch, ['index'], { untimed: true, deadlineMs: 180000 });
    const j = indexed.json || {};
    exp.note(
      `index of ${plan.oddFiles + 3} regular files with a FIFO, a socket, device links and ${DEPTH} levels: ${(indexed.ms / 1000).toFixed(1)} s, exit ${indexed.status}, files ${j.files}, excluded ${JSON.stringify(j.excluded || {})}, unsearched ${JSON.stringify(j.unsearched || {})}`,
    );
    for (const daemon of [false, true]) {
      const handles = [];
      const queries = [
        'oddword',
        'deepword',
        're:oddword',
        '"oddword here"',
        're:.',
        'swapword',
        'kind:file pipe',
        'manyfn7',
      ];
      for (const q of rng.shuffle(queries).slice(0, share(plan, queries.length, daemon))) {
        const call = await guarded(h, exp, repo, watch, ['-b', '2000', 'search', q], {
          daemon,
          deadlineMs: daemon ? h.deadlineMs * 2 : h.deadlineMs,
        });
        handles.push(
          ...hitsOf(call)
            .map((hit) => hit.handle)
            .slice(0, 2),
        );
      }
      for (const handle of handles.slice(0, share(plan, plan.oddShows, daemon)))
        await guarded(h, exp, repo, watch, ['show', handle], { daemon });
      const paths = ['pipe.txt', 'sock.txt', 'zero.txt', 'random.rs', 'fifo_link.txt', deep, 'many/d0/f1.js'];
      for (const p of rng.shuffle(paths).slice(0, share(plan, paths.length, daemon))) {
        await guarded(h, exp, repo, watch, ['show', `path:${p}`], { daemon });
        if (daemon || !plan.quick) await guarded(h, exp, repo, watch, ['map', p], { daemon });
      }
    }
    // Foreground indexes next: without the daemon, which would hold the writer lock in turn.
    cleanupApi.stopDaemons(h);
    await mutateDuringIndex(h, exp, rng, repo, watch, plan);
    await fifoSwap(h, exp, repo, watch, plan);
    cleanupApi.stopDaemons(h);
    watch.current = 'frozen-index check';
    await freshness(h, exp, repo, { expectPartial: true });
  } finally {
    watch.stop();
    server.close();
  }
}

/** Files deleted or truncated while a foreground index runs. */
async function mutateDuringIndex(h, exp, rng, repo, watch, plan) {
  for (let round = 0; round < plan.oddMutations; round++) {
    for (let k = 0; k < 200; k++) {
      const i = rng.int(plan.oddFiles);
      const file = path.join(repo.root, 'many', `d${Math.floor(i / 500)}`, `f${i}.js`);
      if (fs.existsSync(file)) fs.appendFileSync(file, `// touched ${round}\n`);
    }
    const delay = 50 + rng.int(600);
    const mutator = sleep(delay).then(() => {
      for (let k = 0; k < 40; k++) {
        const i = rng.int(plan.oddFiles);
        const file = path.join(repo.root, 'many', `d${Math.floor(i / 500)}`, `f${i}.js`);
        try {
          if (k % 2) fs.rmSync(file, { force: true });
          else fs.truncateSync(file, 0);
        } catch {
          // already gone
        }
      }
    });
    await guarded(h, exp, repo, watch, ['index'], {
      untimed: true,
      deadlineMs: 180000,
      label: `index while files are deleted and truncated #${round + 1}`,
    });
    await mutator;
  }
}

/** An indexed file replaced by a FIFO; every read path must skip it without blocking. */
async function fifoSwap(h, exp, repo, watch, plan) {
  const before = await guarded(h, exp, repo, watch, ['search', 'swapword']);
  const handle = hitsOf(before).map((hit) => hit.handle)[0];
  const swap = path.join(repo.root, 'swap.txt');
  fs.rmSync(swap);
  spawnSync('mkfifo', [swap]);
  watch.add(swap);
  try {
    for (const daemon of [false, true]) {
      const reads = [
        ['search', 'swapword'],
        ['search', 're:swapword'],
        ['search', '"swapword here"'],
        ['search', 'oddword'],
        ['show', 'path:swap.txt'],
        ...(handle ? [['show', handle]] : []),
      ];
      for (const args of daemon ? reads : reads.slice(0, share(plan, reads.length, false))) {
        await guarded(h, exp, repo, watch, args, {
          daemon,
          label: `FIFO swapped in: ${args.join(' ')}${daemon ? ' [daemon]' : ''}`,
        });
      }
    }
  } finally {
    watch.remove(swap);
    fs.rmSync(swap, { force: true });
    fs.writeFileSync(swap, 'swapword restored\n');
  }
}

module.exports = { run, title: 'odd trees (FIFO, socket, devices, depth, size)' };
