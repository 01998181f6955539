#!/usr/bin/env node
// Entry point. A read verb for a single root is first offered to the root's running
// daemon through a path that loads almost nothing (no yargs, no index); everything else,
// and every call the daemon cannot answer, takes the full path.
import { fastOptions, splitArgv } from './argv';

type FastPath = typeof import('@trufflepig/workspace/client');

/** The one-file build of the fast path (scripts/bundle-fast-path.js), else the package itself. */
function fastPath(): FastPath {
  try {
    return require('./fast-path') as FastPath;
  } catch {
    return require('@trufflepig/workspace/client') as FastPath;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const split = splitArgv(argv);
  const fast = fastOptions(split.options);
  if (fast && split.verb !== undefined) {
    const { serveFromDaemon } = fastPath();
    const served = await serveFromDaemon(split.verb, split.words, fast, process.cwd());
    if (served) {
      if (served.stdout) process.stdout.write(served.stdout);
      if (served.stderr) process.stderr.write(served.stderr.endsWith('\n') ? served.stderr : `${served.stderr}\n`);
      return served.exitCode;
    }
  }
  const { runFull } = require('./full') as typeof import('./full');
  return runFull(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`trufflepig: internal_error: ${(err as Error).stack ?? String(err)}\n`);
    process.stdout.write(`${JSON.stringify({ error: { code: 'internal_error', message: String((err as Error).message ?? err) } })}\n`);
    process.exitCode = 2;
  },
);
