// Change entries (tag `change`, history verbs) carry a typed record; a set whose change
// entry lost it is refused on load, never served with a record the reader would guess at.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  changeOf,
  formatHandle,
  isChangeRecord,
  ResultStore,
  type ChangeEntry,
  type ChangeRecord,
  type Outcome,
} from '../src/index';
import { makeEntry, tempStoreDir } from './helpers';

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

const changeEntry = (change: ChangeRecord): ChangeEntry => ({ ...makeEntry(0), tag: 'change', change });

const record: ChangeRecord = {
  repo: '/work/repo%20one',
  commit: 'a'.repeat(40),
  parent: 'b'.repeat(40),
  after: { path: 'src/b.ts', start_line: 2, end_line: 6 },
  before: { path: 'src/a.ts', start_line: 5, end_line: 9 },
  date: '2025-01-02T03:04:05+00:00',
  subject: 'move gamma',
  added: 0,
  deleted: 0,
  event: 'moved',
};

describe('change entries', () => {
  it('round-trip with their change record', () => {
    const dir = tempStoreDir();
    const entry = changeEntry(record);
    const { id } = value(new ResultStore(dir).save({ query: 'hist x', truncated: false }, [entry]));
    const loaded = value(new ResultStore(dir).resolve(formatHandle(id, 1)));
    expect(changeOf(loaded.entry)).toEqual(record);
  });

  it.each([
    ['no record', (text: string) => text.replace(/"change":\{.*?"event":"moved"\}/, '"x":1')],
    ['a short commit id', (text: string) => text.replace('a'.repeat(40), 'aaaaaaa')],
    ['an unknown event', (text: string) => text.replace('"event":"moved"', '"event":"teleported"')],
    ['a side without a path', (text: string) => text.replace('"path":"src/b.ts"', '"file":"src/b.ts"')],
  ])('with %s is refused as result_store_error', (_label, damage) => {
    const dir = tempStoreDir();
    const { id } = value(new ResultStore(dir).save({ query: 'hist x', truncated: false }, [changeEntry(record)]));
    const file = path.join(dir, `${id}.set.json`);
    const damaged = damage(fs.readFileSync(file, 'utf8'));
    expect(damaged).not.toBe(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, damaged);
    const out = new ResultStore(dir).resolve(formatHandle(id, 1));
    expect(out.ok ? 'ok' : out.error.code).toBe('result_store_error');
  });

  it('isChangeRecord accepts a blame run whose before lines are mapped when read', () => {
    expect(isChangeRecord({ ...record, before: { path: 'src/a.ts' }, event: undefined })).toBe(true);
    expect(isChangeRecord({ ...record, before: { path: 'src/a.ts', start_line: 3 } })).toBe(false);
    expect(isChangeRecord({ ...record, added: -1 })).toBe(false);
    expect(isChangeRecord({ ...record, parent: undefined, worktree: 'c'.repeat(64), whitespace_only: true })).toBe(
      true,
    );
    expect(isChangeRecord({ ...record, worktree: 'short' })).toBe(false);
  });
});
