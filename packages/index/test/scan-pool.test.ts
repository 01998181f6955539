import * as path from 'node:path';
import { parseQuery, searchIndex } from '../src';
import { REGEX_MAX_HITS } from '../src/limits';
import { regexScan } from '../src/query/live';
import { ScanPool } from '../src/query/scan-pool';
import { IndexReader } from '../src/query/reader';
import { Fixture, gitInit } from './helpers';

// The helper thread runs the compiled entry (the package is built before its tests).
const HELPER_SCRIPT = path.join(__dirname, '..', 'dist', 'query', 'scan-worker.js');

/** A tree where a pattern matches more files than REGEX_MAX_HITS, among files that hold its words but do not match. */
function tree(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < REGEX_MAX_HITS + 300; i++) {
    const name = `drivers/d${String(i % 7)}/m${String(i).padStart(4, '0')}.c`;
    files[name] =
      i % 3 === 0
        ? `/* static int __init is named below */\nint other_${i}(void) { return 0; }\n`
        : `#include <linux/init.h>\n\nstatic int __init mod${i}_init(void)\n{\n\tif (!buf)\n\t\treturn -ENOMEM;\n\treturn 0;\n}\n`;
  }
  files['drivers/blob.bin'] = Buffer.from([0x73, 0x74, 0x00, 0x01, 0x02]);
  return files;
}

describe('re: scans shared with a helper thread', () => {
  const fx = new Fixture('scan-pool', tree());
  const pool = new ScanPool(HELPER_SCRIPT, 1);

  beforeAll(async () => {
    gitInit(fx.root);
    await fx.index();
  });
  afterAll(() => pool.close());

  it.each([
    ['static int __init \\w+_init', 'stops at the hit cap'],
    ['if \\(!\\w+\\)\\s*return -ENOMEM;', 'spans lines'],
    ['other_\\d+', 'matches a third of the files'],
    ['never_there_\\w+', 'matches nothing'],
  ])('%s (%s): the same answer as one thread, with the helper reading part of it', async (pattern) => {
    expect(pool.available).toBe(true);
    const reader = await fx.open();
    try {
      const files = reader.files().filter((f) => !f.excluded);
      const alone = regexScan(reader.root, files, pattern);
      // The first scans may finish before the helper has started; it takes part once up.
      let helped = 0;
      for (let attempt = 0; attempt < 40 && helped === 0; attempt++) {
        const shared = regexScan(reader.root, files, pattern, undefined, undefined, pool);
        expect(shared).toEqual(alone);
        helped = pool.lastScan?.helperFiles ?? 0;
        if (helped === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(helped).toBeGreaterThan(0);
      expect(pool.lastScan?.files).toBe(files.length);
    } finally {
      reader.close();
    }
  });

  it('answers searchIndex alike through a reader opened with the helper', async () => {
    const q = parseQuery('re:static int __init \\w+_init');
    if (!q.ok) throw new Error(q.error.message);
    const plain = await fx.open();
    const opened = await IndexReader.open(fx.cache, fx.root, { regexHelper: pool });
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const expected = searchIndex(plain, q.value);
      expect(expected.truncation).toMatchObject({ by: 'regex_hits' });
      expect(searchIndex(opened.value, q.value)).toEqual(expected);
    } finally {
      plain.close();
      opened.value.close();
    }
  });

  it('starts a new helper after close, and reads alone when the entry is missing', async () => {
    const reader = await fx.open();
    try {
      const files = reader.files().filter((f) => !f.excluded);
      const alone = regexScan(reader.root, files, 'return -ENOMEM;');
      pool.close();
      expect(regexScan(reader.root, files, 'return -ENOMEM;', undefined, undefined, pool)).toEqual(alone);
      const missing = new ScanPool(path.join(__dirname, 'no-such-entry.js'), 1);
      expect(missing.available).toBe(false);
      expect(regexScan(reader.root, files, 'return -ENOMEM;', undefined, undefined, missing)).toEqual(alone);
      expect(missing.lastScan).toBeUndefined();
    } finally {
      reader.close();
    }
  });
});
