// The walk works in raw bytes: a file's absolute path is its root's prefix and its raw
// root-relative path, concatenated.

/** `root` with a trailing '/', as bytes to put before a raw root-relative path. */
export function rootPrefix(root: string): Buffer {
  return Buffer.from(root.endsWith('/') ? root : `${root}/`);
}
