import { ResultStore } from '@trufflepig/result-cache';
import { countTokens } from '@trufflepig/render';

/**
 * The result store of a root's or a workspace's results directory. Every store the
 * facade opens comes from here, so set ids are always chosen by what an agent pays to
 * read them: the o200k token count (the cheapest of several draws, result-cache README).
 */
export function openResultStore(dir: string): ResultStore {
  return new ResultStore(dir, { idCost: countTokens });
}
