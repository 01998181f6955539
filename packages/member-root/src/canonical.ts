import * as path from 'node:path';
import { probeDirectory } from '@trufflepig/base';
import { fail, ok, type Outcome } from './outcome';

/**
 * The canonical form of a root: the realpath of an existing, readable directory.
 * Symlink aliases of one directory therefore share one canonical path (and one cache).
 * The probe (realpath, stat, read and execute access) is @trufflepig/base probeDirectory;
 * this maps its states to root errors.
 */
export function canonicalRoot(dir: string): Outcome<string> {
  const absolute = path.resolve(dir);
  const probe = probeDirectory(absolute);
  switch (probe.state) {
    case 'ok':
      return ok(probe.real);
    case 'unresolved':
      if (probe.code === 'EACCES') {
        return fail(
          'root_unreadable',
          `cannot resolve ${absolute}: permission denied; grant read access or choose another root`,
        );
      }
      if (probe.code === 'ENOTDIR') {
        return fail('root_not_directory', `${absolute} is not a directory; pass a directory as the root`);
      }
      return fail('root_not_found', `${absolute} does not exist; check the path or create the directory`);
    case 'vanished':
      return fail('root_not_found', `${absolute} does not exist; check the path or create the directory`);
    case 'not_directory':
      return fail('root_not_directory', `${absolute} is not a directory; pass a directory as the root`);
    case 'unreadable':
      return fail(
        'root_unreadable',
        `${probe.real} is not readable; grant read and execute permission or choose another root`,
      );
  }
}
