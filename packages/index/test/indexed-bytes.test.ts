// readIndexedBytes: a file's bytes only while they are the bytes the index read, on a real
// index of real files (edited, deleted, swapped for a link, and a path that needs encoding).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readIndexedBytes, type IndexReader } from '../src';
import { Fixture } from './helpers';

const FILES: Record<string, string> = {
  'src/kept.ts': 'export const kept = 1;\n',
  'src/edited.ts': 'export const before = 1;\n',
  'src/deleted.ts': 'export const gone = 1;\n',
  'src/linked.ts': 'export const linked = 1;\n',
  'odd/100%done.ts': 'export const done = 1;\n',
};

let fx: Fixture;
let reader: IndexReader;
beforeAll(async () => {
  fx = new Fixture('indexed-bytes', FILES);
  await fx.index();
  reader = await fx.open();
  fs.writeFileSync(path.join(fx.root, 'src/edited.ts'), 'export const after = 2;\n');
  fs.rmSync(path.join(fx.root, 'src/deleted.ts'));
  fs.rmSync(path.join(fx.root, 'src/linked.ts'));
  fs.symlinkSync('kept.ts', path.join(fx.root, 'src/linked.ts'));
});
afterAll(() => reader.close());

const row = (p: string) => {
  const f = reader.files().find((x) => x.path === p);
  if (!f) throw new Error(`${p} is not indexed`);
  return f;
};

test('an unchanged file reads as the bytes indexed', () => {
  expect(readIndexedBytes(fx.root, row('src/kept.ts'))?.toString()).toBe(FILES['src/kept.ts']);
});

test('a path that prints percent-encoded reads too', () => {
  const f = reader.files().find((x) => x.path.includes('done'));
  expect(f && readIndexedBytes(fx.root, f)?.toString()).toBe(FILES['odd/100%done.ts']);
});

test.each(['src/edited.ts', 'src/deleted.ts', 'src/linked.ts'])('%s has no indexed bytes any more', (p) => {
  expect(readIndexedBytes(fx.root, row(p))).toBeUndefined();
});

test('a row without a revision has no indexed bytes', () => {
  expect(readIndexedBytes(fx.root, { path: row('src/kept.ts').path, revision: null })).toBeUndefined();
});
