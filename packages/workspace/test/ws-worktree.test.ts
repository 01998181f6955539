import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexCommand, runWorkspaceSearch, resolveContext, searchCommand, showCommand, wsCommand } from '../src';
import { errorCode, git, json, makeSpace, opts, query, type Space } from './ws-helpers';

function wsOf(space: Space, cwd: string) {
  const ctx = resolveContext({ cwd, env: space.env });
  if (!ctx.ok || ctx.value.kind !== 'workspace') throw new Error(`no workspace at ${cwd}`);
  return ctx.value.ws;
}

describe('linked worktrees stand in for their member', () => {
  let space: Space;
  let outside: string;
  let nested: string;

  beforeAll(async () => {
    space = makeSpace('worktree');
    await indexCommand(opts(space, space.base));
    outside = path.join(space.base, 'app-feature');
    git(space.app, 'worktree', 'add', '-q', '-b', 'feature', outside);
    outside = fs.realpathSync(outside);
    fs.writeFileSync(path.join(space.app, '.git', 'info', 'exclude'), '.worktrees/\n');
    nested = path.join(space.app, '.worktrees', 'nested');
    git(space.app, 'worktree', 'add', '-q', '-b', 'nested', nested);
    nested = fs.realpathSync(nested);
  });

  it('a worktree outside the workspace is home for its member', () => {
    const ws = wsOf(space, path.join(outside, 'src'));
    expect(ws.home).toEqual({ name: 'app', root: outside, worktree: true });
    const app = ws.members.find((m) => m.name === 'app')!;
    expect(app).toMatchObject({ root: outside, configuredRoot: space.app, worktree: true });
    expect(app.cacheDir).not.toBe(ws.members.find((m) => m.name === 'lib')!.cacheDir);
    expect(app.parentCacheDir).toBeDefined();
  });

  it('a worktree nested inside its own member is home as the worktree, not as the member', () => {
    const ws = wsOf(space, nested);
    expect(ws.home).toEqual({ name: 'app', root: nested, worktree: true });
  });

  it('answers at once from the member index while unpublished: parent_fallback, differs, re-extracted sym:', async () => {
    fs.writeFileSync(
      path.join(outside, 'src', 'bucket.rs'),
      fs.readFileSync(path.join(outside, 'src', 'bucket.rs'), 'utf8').replace('refill_tokens', 'refill_faster'),
    );
    fs.writeFileSync(path.join(outside, 'src', 'drain.rs'), 'pub fn drain_all() {}\n');
    const ws = wsOf(space, outside);
    const data = await runWorkspaceSearch(ws, query(['refill', 'tokens']), { noDaemon: false, background: false });
    if (!data.ok) throw new Error(data.error.message);
    const row = data.value.coverage.members as Record<string, Record<string, unknown>>;
    expect(row.app).toMatchObject({
      state: 'parent_fallback',
      home_state: 'warming',
      served_from: 'app index',
      differs: 2,
      root: space.app,
      worktree: outside,
    });
    expect(row.app.differing_hits).toBeGreaterThanOrEqual(1);
    const bucket = data.value.entries.find((e) => e.path === 'src/bucket.rs')!;
    expect(bucket).toMatchObject({ member: 'app', differs: true, owner: 'parent_index' });
    expect(data.value.coverageLine).toMatch(/^app@app-feature warming → served from app index \(2 files differ\)/);
    // The member's hit from a changed file cannot be verified against worktree bytes.
    const shown = await showCommand(
      `${data.value.setId}:${data.value.entries.indexOf(bucket) + 1}`,
      opts(space, outside, { noDaemon: false }),
    );
    expect(errorCode(shown)).toBe('stale_source');

    const sym = await runWorkspaceSearch(ws, query(['sym:drain_all']), { noDaemon: false, background: false });
    if (!sym.ok) throw new Error(sym.error.message);
    expect(sym.value.entries[0]).toMatchObject({
      member: 'app',
      path: 'src/drain.rs',
      kind: 'function',
      reextracted: true,
    });
    expect((sym.value.coverage.members as Record<string, Record<string, unknown>>).app.served_from).toBe(
      'app index; re-extracted in worktree',
    );
    const read = json(await showCommand(`${sym.value.setId}:1`, opts(space, outside, { noDaemon: false })));
    expect(read.rows[0].text).toContain('drain_all');

    const lines = await searchCommand(['refill', 'tokens'], opts(space, outside, { noDaemon: false, format: 'lines' }));
    expect(lines.stdout).toMatch(/src\/bucket\.rs:\d+-\d+.* {2}differs$/m);
  });

  it('a worktree whose member has no index is warming (no parent index)', async () => {
    const bare = makeSpace('noparent');
    const wt = path.join(bare.base, 'lib-wt');
    git(bare.lib, 'worktree', 'add', '-q', '-b', 'x', wt);
    const ws = wsOf(bare, wt);
    const data = await runWorkspaceSearch(ws, query(['ws:home', 'StoryTeller']), {
      noDaemon: false,
      background: false,
    });
    if (!data.ok) throw new Error(data.error.message);
    expect(data.value.coverageLine).toMatch(/^lib@lib-wt warming \(no parent index\)/);
    expect(data.value.entries).toEqual([]);
  });

  it('with --no-daemon the worktree gets its own index, seeded from the member, and is searched under the member name', async () => {
    const out = json(await indexCommand(opts(space, outside, { member: 'app' })));
    expect(out.members.app).toMatchObject({ generation: 1, worktree: true, seed: { state: 'seeded' } });
    expect(out.members.app.parsed).toBeLessThan(out.members.app.files);
    const page = json(await searchCommand(['refill_faster'], opts(space, outside)));
    expect(page.hits[0]).toMatchObject({ member: 'app', path: 'src/bucket.rs' });
    expect(page.coverage.members.app).toMatchObject({ state: 'complete', root: space.app, worktree: outside });
    expect(page.members.app).toBe(outside);
    const lines = await searchCommand(['refill_faster'], opts(space, outside, { format: 'lines' }));
    expect(lines.stdout).toMatch(/^coverage: app@app-feature complete/m);
    const status = json(await wsCommand('status', [], opts(space, outside)));
    expect(status.members.app).toMatchObject({ worktree: outside, seed: { state: 'seeded' }, generation: 1 });
    // The member itself still answers from its own checkout.
    const fromMember = json(await searchCommand(['refill_faster'], opts(space, space.app)));
    expect(fromMember.coverage.scope).toBe('home_widened');
  });

  it('a handle owned by a worktree stops reading once the worktree is removed', async () => {
    const wt = path.join(space.base, 'app-gone');
    git(space.app, 'worktree', 'add', '-q', '-b', 'gone', wt);
    const page = json(await searchCommand(['ws:home', 'refill_tokens'], opts(space, wt)));
    expect(page.hits[0].member).toBe('app');
    expect(json(await showCommand(page.hits[0].handle, opts(space, space.lib))).member).toBe('app');
    // Same directory, no longer a linked worktree of the member.
    fs.renameSync(path.join(wt, '.git'), path.join(space.base, 'gone.git-file'));
    const unlinked = await showCommand(page.hits[0].handle, opts(space, space.lib));
    expect(errorCode(unlinked)).toBe('member_unavailable');
    expect(JSON.parse(unlinked.stdout).error.message).toContain('no longer a linked worktree');
    fs.renameSync(path.join(space.base, 'gone.git-file'), path.join(wt, '.git'));
    git(space.app, 'worktree', 'remove', '--force', wt);
    expect(errorCode(await showCommand(page.hits[0].handle, opts(space, space.lib)))).toBe('member_unavailable');
  });
});

describe('handles keep their owner', () => {
  it('configuration edits never retarget a handle; removed and replaced checkouts are unavailable', async () => {
    const space = makeSpace('owners');
    await indexCommand(opts(space, space.base));
    const page = json(await searchCommand(['in:lib', 'StoryTeller'], opts(space, space.app)));
    const handle = page.hits[0].handle;
    // Point the member elsewhere: the handle still reads the original owner.
    fs.cpSync(space.lib, path.join(space.base, 'lib2'), { recursive: true });
    fs.writeFileSync(space.config, fs.readFileSync(space.config, 'utf8').replace('path = "lib"', 'path = "lib2"'));
    expect(json(await showCommand(handle, opts(space, space.app))).uri).toBe(`file://${space.lib}/src/story.ts`);
    // Replace the checkout at the same path: same bytes, another directory.
    fs.renameSync(space.lib, path.join(space.base, 'lib-old'));
    fs.cpSync(path.join(space.base, 'lib-old'), space.lib, { recursive: true });
    const replaced = await showCommand(handle, opts(space, space.app));
    expect(errorCode(replaced)).toBe('member_unavailable');
    expect(JSON.parse(replaced.stdout).error.message).toContain('replaced');
    fs.rmSync(space.lib, { recursive: true });
    expect(errorCode(await showCommand(handle, opts(space, space.app)))).toBe('member_unavailable');
  });

  it('show path: uses home or --member, and otherwise asks for a member', async () => {
    const space = makeSpace('paths');
    const fromHome = json(await showCommand('path:src/story.ts:1-1', opts(space, space.lib)));
    expect(fromHome).toMatchObject({ member: 'lib', path: 'src/story.ts' });
    const byMember = json(await showCommand('path:src/bucket.rs:1-1', opts(space, space.lib, { member: 'app' })));
    expect(byMember.member).toBe('app');
    expect(errorCode(await showCommand('path:src/story.ts', opts(space, space.base)))).toBe('member_required');
  });
});

describe('a worktree answered from its member index', () => {
  // An agent trial's first search from an unindexed worktree printed `route.js:1-205`, a
  // storage region, where the member's own search printed the function.
  it('narrows the spans of the files the worktree has not changed', async () => {
    const space = makeSpace('fallback-span');
    const filler = (name: string) =>
      [
        `pub fn ${name}(x: u32) -> u32 {`,
        ...Array.from({ length: 30 }, (_, i) => `    let _v${i} = x + ${i};`),
        '    x',
        '}',
        '',
      ].join('\n');
    fs.writeFileSync(
      path.join(space.app, 'src', 'pool.rs'),
      [
        filler('warm_up'),
        filler('spawn_worker').replace('x\n}', 'x.pow(2) // drains the queue\n}'),
        filler('cool_down'),
      ].join('\n'),
    );
    git(space.app, 'add', '-A');
    git(space.app, 'commit', '-qm', 'pool');
    await indexCommand(opts(space, space.base));
    const wt = path.join(space.base, 'app-topic');
    git(space.app, 'worktree', 'add', '-q', '-b', 'topic', wt);
    const ws = wsOf(space, fs.realpathSync(wt));
    const data = await runWorkspaceSearch(ws, query(['drains', 'queue']), { noDaemon: false, background: false });
    if (!data.ok) throw new Error(data.error.message);
    expect((data.value.coverage.members as Record<string, Record<string, unknown>>).app.state).toBe('parent_fallback');
    const pool = data.value.entries.find((e) => e.path === 'src/pool.rs')!;
    expect([pool.start_line, pool.end_line]).toEqual([35, 67]);
  });
});
