// An index belongs to one root (docs/spec/retrieval.md §3): it records the canonical root and the
// root directory's identity, and never answers for, or is overwritten by, another root.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IndexReader, indexCommandHint, reconcile } from '../src';
import { Fixture, tempDir, writeTree } from './helpers';

function code<T>(out: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): string {
  return out.ok ? 'ok' : out.error.code;
}

function copyDir(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) fs.copyFileSync(path.join(from, name), path.join(to, name));
}

describe('index ownership', () => {
  it('refuses to open an index of another root, naming both roots and what to do', async () => {
    const a = new Fixture('own-a', { 'only_in_a.rs': 'fn alpha_only() {}\n' });
    await a.index();
    const b = new Fixture('own-b', { 'only_in_b.rs': 'fn beta_only() {}\n' });
    const out = await IndexReader.open(a.cache, b.root);
    expect(code(out)).toBe('cache_root_mismatch');
    if (out.ok) throw new Error('opened');
    expect(out.error.message).toContain(a.root);
    expect(out.error.message).toContain(b.root);
    expect(out.error.message).toMatch(/--cache/);
    expect(out.error.message).toContain(`delete ${a.cache}`);
    expect(out.error.message).not.toContain('only_in_a');
  });

  it("refuses to reconcile a root into another root's index and leaves that index as it was", async () => {
    const a = new Fixture('rec-a', { 'only_in_a.rs': 'fn alpha_only() {}\n' });
    await a.index();
    const indexFile = path.join(a.cache, 'index.sqlite');
    const before = fs.readFileSync(indexFile);
    const b = new Fixture('rec-b', { 'only_in_b.rs': 'fn beta_only() {}\n' });
    const out = await reconcile(b.root, { cacheDir: a.cache, parallelism: 1 });
    expect(code(out)).toBe('cache_root_mismatch');
    expect(fs.readFileSync(indexFile).equals(before)).toBe(true);
    // A's health is untouched: no failure recorded against its cache.
    expect(fs.existsSync(path.join(a.cache, 'reconcile-failure.json'))).toBe(false);
    expect(await a.paths('sym:alpha_only')).toEqual(['only_in_a.rs']);
  });

  it("an index copied into another root's directory is refused there", async () => {
    const a = new Fixture('copy-a', { 'only_in_a.rs': 'fn alpha_only() {}\n' });
    await a.index();
    const b = new Fixture('copy-b', { 'only_in_b.rs': 'fn beta_only() {}\n' });
    copyDir(a.cache, b.cache);
    expect(code(await IndexReader.open(b.cache, b.root))).toBe('cache_root_mismatch');
    expect(code(await reconcile(b.root, { cacheDir: b.cache, parallelism: 1 }))).toBe('cache_root_mismatch');
  });

  it('a root deleted and recreated at the same path is rebuilt, never answered from the old directory', async () => {
    const a = new Fixture('recreate', { 'old.rs': 'fn old_name() {}\n' });
    expect((await a.index()).generation).toBe(1);
    const old = fs.statSync(a.root);
    // Keep the old directory alive under another name so the new one cannot reuse its inode.
    fs.renameSync(a.root, `${a.root}-gone`);
    fs.mkdirSync(a.root);
    expect(fs.statSync(a.root).ino).not.toBe(old.ino);
    writeTree(a.root, { 'new.rs': 'fn new_name() {}\n' });
    const stale = await IndexReader.open(a.cache, a.root);
    expect(code(stale)).toBe('index_warming');
    if (!stale.ok) expect(stale.error.message).toMatch(/deleted and recreated/);
    const rebuilt = await a.index();
    // The generation keeps counting up, so handles of the old directory are stale.
    expect(rebuilt).toMatchObject({ generation: 2, published: true, files: 1, parsed: 1 });
    expect(await a.paths('sym:new_name')).toEqual(['new.rs']);
    expect(await a.paths('sym:old_name')).toEqual([]);
    fs.rmSync(`${a.root}-gone`, { recursive: true, force: true });
  });

  it('an empty recreated root still publishes its rebuild', async () => {
    const a = new Fixture('recreate-empty', { 'old.rs': 'fn old_name() {}\n' });
    await a.index();
    fs.renameSync(a.root, `${a.root}-gone`);
    fs.mkdirSync(a.root);
    expect(await a.index()).toMatchObject({ generation: 2, published: true, files: 0 });
    expect(code(await IndexReader.open(a.cache, a.root))).toBe('ok');
    fs.rmSync(`${a.root}-gone`, { recursive: true, force: true });
  });

  it("a linked worktree may read its member's index when the caller names the member as owner", async () => {
    const member = new Fixture('owner-member', { 'lib.rs': 'fn shared() {}\n' });
    await member.index();
    const worktree = tempDir('owner-wt');
    expect(code(await IndexReader.open(member.cache, worktree))).toBe('cache_root_mismatch');
    const out = await IndexReader.open(member.cache, worktree, { builtFor: member.root });
    expect(code(out)).toBe('ok');
    if (out.ok) out.value.close();
  });

  it('the index_warming hint keeps the --cache base it was given', async () => {
    const root = tempDir('hint');
    const cache = path.join(tempDir('hint-base'), 'per-root');
    const plain = await IndexReader.open(cache, root);
    expect(!plain.ok && plain.error.message).toContain(`run: trufflepig --root ${root} index`);
    const kept = await IndexReader.open(cache, root, { cacheBase: path.dirname(cache) });
    expect(!kept.ok && kept.error.message).toContain(
      `run: trufflepig --root ${root} --cache ${path.dirname(cache)} index`,
    );
    expect(indexCommandHint("/a b/it's", '/c')).toBe(`trufflepig --root '/a b/it'\\''s' --cache /c index`);
  });
});
