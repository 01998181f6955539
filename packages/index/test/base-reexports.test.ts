// The stored-path codec and the always-skipped directories are @trufflepig/base's; this
// entry re-exports them for its callers, and dist/paths.js stays (tools/bench/storage
// requires it). The same functions, not copies.
import * as base from '@trufflepig/base';
import * as entry from '../src';
import * as paths from '../src/paths';

describe('re-exports of @trufflepig/base', () => {
  it('offers the codec and the skipped list from the public entry and from paths', () => {
    for (const name of ['percentEncode', 'percentDecode', 'normalizeEncodedPath', 'fileUri', 'displayPath'] as const) {
      expect(entry[name]).toBe(base[name]);
      expect(paths[name]).toBe(base[name]);
    }
    expect(entry.ALWAYS_SKIPPED_DIRS).toBe(base.ALWAYS_SKIPPED_DIRS);
  });
});
