// A stored hit names its owner (root, filesystem identity, worktree link); a read goes
// there or nowhere. Configuration edits never retarget a handle, and a removed member or
// a replaced checkout is said so rather than read in its place.
import { rootIdentity } from '@trufflepig/navigation';
import type { EntryBase, OwnerFields } from '@trufflepig/result-cache';
import type { PublishedOptions } from './reader-pool';
import { stillWorktreeOf } from './context';
import { fail, ok, type Outcome } from './errors';

/** Any entry: one without owner fields (a single root's hit, a change, blame's uncommitted lines) is checked for its root's existence only. */
export function checkOwner(entry: Pick<EntryBase, 'member'> & OwnerFields, root: string): Outcome<void> {
  const who = entry.member !== undefined ? `member ${entry.member} (${root})` : root;
  const identity = rootIdentity(root);
  if (identity === '')
    return fail(
      'member_unavailable',
      `${who} no longer exists, so this handle cannot be read; restore it or search again`,
    );
  if (entry.root_id !== undefined && entry.root_id !== '' && entry.root_id !== identity) {
    return fail('member_unavailable', `${who} was replaced by another checkout since the search; search again`);
  }
  if (entry.worktree === true && entry.git_common_dir !== undefined && !stillWorktreeOf(root, entry.git_common_dir)) {
    return fail('member_unavailable', `${who} is no longer a linked worktree of its member; search again`);
  }
  return ok(undefined);
}

/**
 * How the index a hit was read from opens (openPublished's options): a worktree hit served
 * from its member's index names the root that index was built for (`owner_root`).
 */
export function ownerIndexOptions(entry: OwnerFields): PublishedOptions {
  return entry.owner === 'parent_index' && entry.owner_root !== undefined ? { builtFor: entry.owner_root } : {};
}
