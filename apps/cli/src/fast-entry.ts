// The fast path as one module: the CLI surface's argv reading and the daemon client.
// scripts/bundle-fast-path.js builds it with everything it requires into dist/fast-path.js,
// so a daemon-served call loads one file; main.ts falls back to this module unbundled.
export { budgetOption, fastOptions, readCommandLine, splitArgv } from '@trufflepig/cli-surface/argv';
export * from '@trufflepig/workspace/client';
