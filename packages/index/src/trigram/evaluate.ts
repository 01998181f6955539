// A trigram query evaluated over bitsets of file ids (bit id & 31 of word id >> 5). Pure: the
// caller supplies each trigram's files.
import type { TrigramQuery } from './regex';

/**
 * The files satisfying `q`, among ids below `words × 32`. `filesOf` is asked once per
 * distinct trigram.
 */
export function evaluateQuery(q: TrigramQuery, filesOf: (tri: number) => Uint32Array, words: number): Uint32Array {
  const known = new Map<number, Uint32Array>();
  const visit = (node: TrigramQuery): Uint32Array => {
    switch (node.op) {
      case 'all':
        return new Uint32Array(words).fill(0xffffffff);
      case 'none':
        return new Uint32Array(words);
      case 'tri': {
        let files = known.get(node.tri);
        if (!files) {
          files = filesOf(node.tri);
          known.set(node.tri, files);
        }
        return files.slice();
      }
      default: {
        const [first, ...rest] = node.args;
        const acc = visit(first);
        for (const a of rest) {
          const v = visit(a);
          if (node.op === 'and') for (let w = 0; w < words; w++) acc[w] &= v[w];
          else for (let w = 0; w < words; w++) acc[w] |= v[w];
        }
        return acc;
      }
    }
  };
  return visit(q);
}

/** Whether file `id` is in bitset `files`. */
export function hasFile(files: Uint32Array, id: number): boolean {
  return id >> 5 < files.length && (files[id >> 5] & (1 << (id & 31))) !== 0;
}
