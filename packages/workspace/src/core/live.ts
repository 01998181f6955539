// The facade reads a root's files exactly as the index's lanes do: one checked reader
// that hashes the bytes it read (@trufflepig/index readLiveFile), and maps index facts only
// onto the bytes they were taken from (readIndexedBytes).
export { readIndexedBytes, readLiveFile as readOnce, type LiveRead } from '@trufflepig/index';
