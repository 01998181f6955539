'use strict';
// node tools/lib/tree-peak.js OUT.json -- COMMAND [ARGS...]
//
// Runs COMMAND (stdio inherited) and samples the memory of its whole process tree every
// SAMPLE_MS (a spike shorter than that can be missed): the peak of the summed PSS (proportional set size: shared pages such as the
// node binary are divided among the processes mapping them, so a tree of processes is not
// charged twice for them) and of the summed RSS. GNU time reports only the largest single
// process, which says nothing once indexing parses in child processes. Writes
// { peakTreePssBytes, peakTreeRssBytes, samples } to OUT.json and exits with COMMAND's
// status. Linux only (reads /proc); elsewhere the figures are null.
const fs = require('fs');
const { spawn } = require('child_process');

const SAMPLE_MS = 100;

/** Every pid whose parent chain reaches `root`, root included. */
function treePids(root) {
  const parent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const pids = [];
  for (const pid of parent.keys()) {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) {
      if (p === root) {
        pids.push(pid);
        break;
      }
    }
  }
  return pids;
}

/** [pss, rss] in bytes of one process; zeros when it has gone. */
function memoryOf(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return [kb('Pss') * 1024, kb('Rss') * 1024];
  } catch {
    return [0, 0];
  }
}

function main() {
  const [out, dashes, command, ...args] = process.argv.slice(2);
  if (!out || dashes !== '--' || !command) {
    console.error('usage: node tools/lib/tree-peak.js OUT.json -- COMMAND [ARGS...]');
    process.exit(2);
  }
  const linux = fs.existsSync('/proc/self/smaps_rollup');
  const child = spawn(command, args, { stdio: 'inherit' });
  let peakPss = 0;
  let peakRss = 0;
  let samples = 0;
  const sample = () => {
    if (!linux || child.pid === undefined) return;
    let pss = 0;
    let rss = 0;
    for (const pid of treePids(child.pid)) {
      const [p, r] = memoryOf(pid);
      pss += p;
      rss += r;
    }
    peakPss = Math.max(peakPss, pss);
    peakRss = Math.max(peakRss, rss);
    samples++;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  child.on('exit', (code, signal) => {
    clearInterval(timer);
    const figures = linux
      ? { peakTreePssBytes: peakPss, peakTreeRssBytes: peakRss, samples }
      : { peakTreePssBytes: null, peakTreeRssBytes: null, samples: 0 };
    fs.writeFileSync(out, JSON.stringify(figures));
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
}

main();
