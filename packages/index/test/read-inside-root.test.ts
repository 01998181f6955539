// The checked reader: links, FIFOs, devices and size bounds, on real files.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readInsideRoot } from '../src';
import { tempDir } from './helpers';

const rel = (p: string) => Buffer.from(p);

describe('readInsideRoot', () => {
  const root = tempDir('inside');
  const outside = tempDir('outside');
  fs.writeFileSync(path.join(outside, 'secret'), 'SECRET');
  fs.mkdirSync(path.join(root, 'dir'));
  fs.writeFileSync(path.join(root, 'dir', 'ok.txt'), 'fine\n');
  fs.symlinkSync(path.join(outside, 'secret'), path.join(root, 'link'));
  fs.symlinkSync('dir/ok.txt', path.join(root, 'inner-link'));
  fs.symlinkSync(outside, path.join(root, 'outdir'));
  fs.symlinkSync('dir', path.join(root, 'indir'));
  fs.symlinkSync('/dev/zero', path.join(root, 'zero'));
  spawnSync('mkfifo', [path.join(root, 'fifo')]);

  test('reads a regular file inside the root', () => {
    const r = readInsideRoot(root, rel('dir/ok.txt'), 100);
    expect(r.ok && r.bytes.toString()).toBe('fine\n');
  });
  test.each([
    ['link', 'symlink'],
    ['inner-link', 'symlink'],
    ['zero', 'symlink'],
    ['outdir/secret', 'outside_root'],
    ['indir/ok.txt', 'outside_root'],
    ['fifo', 'not_regular'],
    ['dir', 'directory'],
    ['nothing', 'missing'],
    ['dir/ok.txt/x', 'missing'],
  ])('%s is refused as %s', (p, reason) => {
    const r = readInsideRoot(root, rel(p), 1_000_000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe(reason);
  });
  test('a FIFO is refused without being opened: a writer blocked on it stays blocked', async () => {
    const fifo = path.join(root, 'waiting-fifo');
    spawnSync('mkfifo', [fifo]);
    // The shell's open for writing blocks until some process opens the FIFO for reading.
    const writer = spawn('sh', ['-c', `echo released > '${fifo}'`], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => writer.once('exit', () => resolve()));
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const r = readInsideRoot(root, rel('waiting-fifo'), 100);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toBe('not_regular');
      const outcome = await Promise.race([
        exited.then(() => 'released'),
        new Promise((resolve) => setTimeout(() => resolve('still blocked'), 400)),
      ]);
      expect(outcome).toBe('still blocked');
    } finally {
      writer.kill('SIGKILL');
      await exited;
    }
  });
  test('a file over the bound is refused, never loaded', () => {
    fs.writeFileSync(path.join(root, 'big'), Buffer.alloc(5000, 0x61));
    const r = readInsideRoot(root, rel('big'), 4096);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe('too_large');
  });
  test('absolute, empty and NUL-holding paths are refused', () => {
    for (const p of ['/etc/passwd', '', 'a\0b']) expect(readInsideRoot(root, rel(p), 100).ok).toBe(false);
  });
});
