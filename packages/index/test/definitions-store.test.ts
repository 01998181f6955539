// The definition tables store a definition compact (kind codes, offsets from the start, the
// normalized key in its own table): every field must read back as written, the key table
// must follow every copy and removal.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { identifierKey } from '@trufflepig/rank';
import type { Definition } from '../src/extract/facts';
import { emptyDatabase } from '../src/store/database';
import {
  DefinitionWriter,
  definitionCountOfKind,
  definitionsByKey,
  definitionsNamed,
  definitionsOfFile,
  definitionsOfKinds,
  definitionsOverlapping,
  isDefinedName,
  namesNearKey,
  namesWithKey,
} from '../src/store/definitions';
import { allRows, oneValue, type Database } from '../src/store/sql';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-defs-store-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function def(name: string, kind: string, start: number, extra: Partial<Definition> = {}): Definition {
  return {
    name,
    kind,
    container: null,
    start,
    end: start + 40,
    startLine: 3,
    endLine: 5,
    nameStart: start + 7,
    nameEnd: start + 7 + Buffer.byteLength(name),
    ...extra,
  };
}

const count = (db: Database, table: string) => Number(oneValue(db, `SELECT count(*) FROM ${table}`));

describe('definition store', () => {
  test('every field reads back as written, large offsets, unicode names and odd spans included', () => {
    const db = emptyDatabase(path.join(dir, 'a.sqlite'));
    const written: Definition[] = [
      def('TokenBucket', 'class', 0, { container: 'limits', endLine: 80 }),
      def('token_bucket', 'function', 5_000_000, { startLine: 120_000, endLine: 120_000 }),
      def('größe', 'variable', 77, { nameStart: 77, nameEnd: 77 + Buffer.byteLength('größe') }),
      // A name before its definition's start (a declarator outside the span) stays where it was.
      def('early', 'macro', 500, { nameStart: 490, nameEnd: 495 }),
    ];
    const w = new DefinitionWriter(db);
    for (const d of written) w.add(7, d);
    expect(definitionsOfFile(db, 7)).toEqual(
      [...written].sort((a, b) => a.start - b.start).map((d) => ({ ...d, file: 7 })),
    );
    // Exact and normalized lookups share the key: both spellings, stored order.
    expect(definitionsByKey(db, 'tokenbucket').map((d) => d.name)).toEqual(['TokenBucket', 'token_bucket']);
    expect(definitionsNamed(db, 'TokenBucket').map((d) => d.kind)).toEqual(['class']);
    expect(definitionsNamed(db, 'TokenBucket', 'limits')).toHaveLength(1);
    expect(definitionsNamed(db, 'TokenBucket', 'other')).toHaveLength(0);
    expect(isDefinedName(db, 'token_bucket')).toBe(true);
    expect(isDefinedName(db, 'tokenBucket')).toBe(false);
    expect(
      definitionsOverlapping(db, 7, 4, 4)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['TokenBucket', 'early', 'größe']);
    expect(definitionsOverlapping(db, 7, 120_000, 120_000).map((d) => d.name)).toEqual(['token_bucket']);
    db.close();
  });

  test('kinds keep their codes across writers; filters by kind and key parts', () => {
    const db = emptyDatabase(path.join(dir, 'b.sqlite'));
    new DefinitionWriter(db).add(1, def('openFile', 'function', 0));
    const second = new DefinitionWriter(db);
    second.add(2, def('open_file_at', 'function', 0));
    second.add(2, def('OpenFlags', 'enum', 100));
    second.add(2, def('closeFile', 'method', 200));
    expect(allRows(db, 'SELECT name FROM def_kind ORDER BY code').map((r) => r[0])).toEqual([
      'function',
      'enum',
      'method',
    ]);
    expect(definitionCountOfKind(db, 'function')).toBe(2);
    expect(definitionCountOfKind(db, 'struct')).toBe(0);
    expect(definitionsOfKinds(db, ['function', 'enum']).map((d) => d.name)).toEqual([
      'openFile',
      'open_file_at',
      'OpenFlags',
    ]);
    expect(definitionsOfKinds(db, ['function', 'method'], ['file', 'open']).map((d) => d.name)).toEqual([
      'openFile',
      'open_file_at',
    ]);
    expect(definitionsOfKinds(db, ['nosuchkind'])).toEqual([]);
    db.close();
  });

  test('copies and removals keep the key table exactly the definitions', () => {
    const db = emptyDatabase(path.join(dir, 'c.sqlite'));
    const w = new DefinitionWriter(db);
    for (let i = 0; i < 50; i++) w.add(1, def(`name_${i}`, i % 2 ? 'function' : 'macro', i * 100));
    w.add(2, def('only_two', 'struct', 0));
    w.copy(1, 3);
    db.exec('CREATE TEMP TABLE gone(id INTEGER PRIMARY KEY); INSERT INTO gone VALUES (1), (2)');
    w.removeFilesIn('gone');
    expect(count(db, 'def')).toBe(50);
    expect(count(db, 'def_key')).toBe(50);
    // Every key row names a definition with that key.
    const orphans = allRows(db, 'SELECT k.key, d.name FROM def_key k LEFT JOIN def d ON d.id = k.def').filter(
      ([key, name]) => name === null || identifierKey(String(name)) !== key,
    );
    expect(orphans).toEqual([]);
    expect(definitionsNamed(db, 'name_7').map((d) => [d.file, d.start, d.kind])).toEqual([[3, 700, 'function']]);
    expect(isDefinedName(db, 'only_two')).toBe(false);
    db.close();
  });

  test('names by key and near a key, non-ASCII first letters included', () => {
    const db = emptyDatabase(path.join(dir, 'd.sqlite'));
    const w = new DefinitionWriter(db);
    for (const [i, n] of ['mergeConfig', 'merge_config', 'mergeConfigs', 'mergeCon', 'zeta', 'émile', 'ênd'].entries())
      w.add(1, def(n, 'function', i * 100));
    expect(namesWithKey(db, 'mergeconfig', 10)).toEqual(['mergeConfig', 'merge_config']);
    expect(
      namesNearKey(db, 'm', 10, 12, 100)
        .map((x) => x.name)
        .sort(),
    ).toEqual(['mergeConfig', 'mergeConfigs', 'merge_config']);
    expect(namesNearKey(db, 'é', 1, 10, 100)).toEqual([{ key: 'émile', name: 'émile' }]);
    db.close();
  });
});
