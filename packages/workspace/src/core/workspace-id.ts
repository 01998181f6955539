// Where a workspace's coordinator state lives: light on purpose (the CLI's fast path
// imports it), so only node built-ins and base's one-file helpers here.
import * as path from 'node:path';
import { sha256Hex } from '@trufflepig/base/sha256';

/** Directory of workspaces' coordinator state under a cache base. */
export const WORKSPACES_DIR_NAME = 'workspaces';

/** A workspace's identity: derived from its canonical configuration path only. */
export function workspaceId(configFile: string): string {
  return sha256Hex(configFile).slice(0, 16);
}

/** The coordinator's state directory (socket, lock; result sets beneath) for a configuration. */
export function coordinatorStateDir(cacheBaseDir: string, configFile: string): string {
  return path.join(cacheBaseDir, WORKSPACES_DIR_NAME, workspaceId(configFile));
}
