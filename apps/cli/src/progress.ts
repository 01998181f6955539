import type { ReconcileProgressLike } from './types';

/** A one-line progress display on a terminal's stderr, redrawn in place. */
export function progressReporter(): (p: ReconcileProgressLike) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (p.phase === 'extract' && p.done < p.total && now - last < 100) return;
    last = now;
    const text = p.phase === 'extract' ? `indexing: parsed ${p.done}/${p.total} files` : `indexing: ${p.phase}…`;
    process.stderr.write(`\r\x1b[2K${text}${p.phase === 'publish' ? '\n' : ''}`);
  };
}
