// readEachOnce (core/live.ts): one request's reads of the same file share one verified read,
// and every answer is one a fresh readIndexedBytes could give for that revision.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readLiveFile } from '@trufflepig/index';
import { readEachOnce, readIndexedBytes } from '../src/core/live';

describe('readEachOnce', () => {
  it('reads a file once per revision, within the bound asked for, and never keeps a failed read', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-read-once-')));
    const file = path.join(root, 'a.ts');
    fs.writeFileSync(file, 'export const a = 1;\n');
    const live = readLiveFile(root, 'a.ts', 1024);
    if (!live.ok) throw new Error('unreadable');
    const at = { path: 'a.ts', revision: live.revision };
    const read = readEachOnce();
    const first = read(root, at)!;
    expect(first.toString()).toBe('export const a = 1;\n');
    // Edited since: a fresh read refuses the old revision; this request keeps the bytes it verified.
    fs.writeFileSync(file, 'export const a = 2;\n');
    expect(readIndexedBytes(root, at)).toBeUndefined();
    expect(read(root, at)).toBe(first);
    // Below the file's size, refused as a fresh read would be.
    expect(read(root, at, 4)).toBeUndefined();
    // A revision the file does not have now is not kept: the next ask reads again.
    const now = readLiveFile(root, 'a.ts', 1024);
    if (!now.ok) throw new Error('unreadable');
    const other = readEachOnce();
    fs.writeFileSync(file, 'export const a = 3;\n');
    expect(other(root, { path: 'a.ts', revision: now.revision })).toBeUndefined();
    fs.writeFileSync(file, 'export const a = 2;\n');
    expect(other(root, { path: 'a.ts', revision: now.revision })?.toString()).toBe('export const a = 2;\n');
    fs.rmSync(root, { recursive: true, force: true });
  });
});
