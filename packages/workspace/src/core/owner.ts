// A stored hit names its owner (root, filesystem identity, worktree link); a read goes
// there or nowhere. Configuration edits never retarget a handle, and a removed member or
// a replaced checkout is said so rather than read in its place.
import { rootIdentity } from '@trufflepig/navigation';
import type { ResultEntry } from '@trufflepig/result-cache';
import { stillWorktreeOf } from './context';
import { fail, ok, type Outcome } from './errors';

export function checkOwner(entry: ResultEntry, root: string): Outcome<void> {
  const who = entry.member !== undefined ? `member ${entry.member} (${root})` : root;
  const identity = rootIdentity(root);
  if (identity === '')
    return fail(
      'member_unavailable',
      `${who} no longer exists, so this handle cannot be read; restore it or search again`,
    );
  if (typeof entry.root_id === 'string' && entry.root_id !== '' && entry.root_id !== identity) {
    return fail('member_unavailable', `${who} was replaced by another checkout since the search; search again`);
  }
  if (
    entry.worktree === true &&
    typeof entry.git_common_dir === 'string' &&
    !stillWorktreeOf(root, entry.git_common_dir)
  ) {
    return fail('member_unavailable', `${who} is no longer a linked worktree of its member; search again`);
  }
  return ok(undefined);
}
