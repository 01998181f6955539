// The ERROR and MISSING nodes of a parse, counted once per tree: the repair loop counts them
// to judge a rewrite, and the C repair reads their rows from the same tree.
import type Parser from 'tree-sitter';
import { REPAIR_ERROR_NODES_MAX } from '../limits';

export interface TreeErrors {
  /** ERROR and MISSING nodes, or Infinity when more than REPAIR_ERROR_NODES_MAX nodes would have to be visited to count them. */
  readonly count: number;
  /** Rows holding one, ascending (those met within the visit limit). */
  readonly rows: readonly number[];
}

const counted = new WeakMap<Parser.Tree, TreeErrors>();

/** Only subtrees with errors are visited; the answer is cached per tree. */
export function treeErrors(tree: Parser.Tree): TreeErrors {
  let errors = counted.get(tree);
  if (errors) return errors;
  let count = 0;
  let visited = 0;
  const rows = new Set<number>();
  const stack = [tree.rootNode];
  let node = stack.pop();
  for (; node && visited < REPAIR_ERROR_NODES_MAX; node = stack.pop()) {
    visited++;
    if (node.isError || node.isMissing) {
      count++;
      rows.add(node.startPosition.row);
    }
    if (node.hasError) stack.push(...node.children);
  }
  errors = { count: node ? Infinity : count, rows: [...rows].sort((a, b) => a - b) };
  counted.set(tree, errors);
  return errors;
}
