import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildHistoryIndex } from '@trufflepig/history';
import { resolveContext, searchCommand, wsCommand } from '../src';
import { cacheBaseOf } from '../src/history-verbs/log-index';
import { errorCode, git, json, makeRepo, makeSpace, opts } from './ws-helpers';

function register(env: NodeJS.ProcessEnv, ...files: string[]): void {
  const dir = path.join(env.XDG_CONFIG_HOME!, 'trufflepig');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'workspaces.toml'),
    `workspaces = [${files.map((f) => JSON.stringify(f)).join(', ')}]\n`,
  );
}

/** A workspace file away from its members, so only the registry can find it. */
function detached(label: string) {
  const space = makeSpace(label);
  const confDir = path.join(space.base, 'conf');
  fs.mkdirSync(confDir);
  const config = path.join(confDir, 'space.toml');
  fs.writeFileSync(
    config,
    '[workspace]\nname = "space"\n\n[members.app]\npath = "../app"\n\n[members.lib]\npath = "../lib"\n',
  );
  fs.rmSync(space.config);
  return { ...space, config };
}

describe('registry selection', () => {
  it('selects a registered workspace only from inside a member or a linked worktree of one', async () => {
    const space = detached('registry');
    register(space.env, space.config);
    const inside = resolveContext({ cwd: path.join(space.app, 'src'), env: space.env });
    expect(inside.ok && inside.value.kind === 'workspace' && inside.value.ws.selectedBy).toBe('registry');
    const elsewhere = resolveContext({ cwd: space.base, env: space.env });
    expect(elsewhere.ok && elsewhere.value.kind).toBe('single');
    const wt = path.join(space.base, 'far', 'lib-wt');
    git(space.lib, 'worktree', 'add', '-q', '-b', 'w', wt);
    const fromWorktree = resolveContext({ cwd: wt, env: space.env });
    expect(fromWorktree.ok && fromWorktree.value.kind === 'workspace' && fromWorktree.value.ws.home).toMatchObject({
      name: 'lib',
      worktree: true,
    });
  });

  it('registry paths are relative to the registry file', () => {
    const space = detached('relative');
    const rel = path.relative(path.join(space.env.XDG_CONFIG_HOME!, 'trufflepig'), space.config);
    register(space.env, rel);
    const ctx = resolveContext({ cwd: space.app, env: space.env });
    expect(ctx.ok && ctx.value.kind).toBe('workspace');
  });

  it('several matching workspaces need an explicit choice; stale entries are actionable errors', async () => {
    const space = detached('ambiguous');
    const second = path.join(space.base, 'conf', 'other.toml');
    fs.writeFileSync(second, '[workspace]\nname = "other"\n\n[members.app]\npath = "../app"\n');
    register(space.env, space.config, second);
    const both = await searchCommand(['x'], opts(space, space.app));
    expect(errorCode(both)).toBe('workspace_ambiguous');
    expect(JSON.parse(both.stdout).error.message).toContain('--workspace');
    const chosen = json(await searchCommand(['tokens'], opts(space, space.app, { workspace: second })));
    expect(Object.keys(chosen.coverage.members)).toEqual(['app']);
    register(space.env, space.config, path.join(space.base, 'conf', 'missing.toml'));
    const stale = await searchCommand(['x'], opts(space, space.app));
    expect(errorCode(stale)).toBe('registry_stale_entry');
    expect(JSON.parse(stale.stdout).error.message).toMatch(/remove the entry or restore the file/);
  });

  it('the nearest ancestor configuration wins over the registry; --workspace over both', () => {
    const space = makeSpace('precedence');
    const elsewhere = makeRepo(path.join(space.base, 'elsewhere'), { 'a.rs': 'fn a() {}\n' });
    const other = path.join(space.base, 'other.toml');
    fs.writeFileSync(other, '[workspace]\nname = "other"\n\n[members.elsewhere]\npath = "elsewhere"\n');
    register(space.env, other);
    const ancestor = resolveContext({ cwd: space.app, env: space.env });
    expect(ancestor.ok && ancestor.value.kind === 'workspace' && ancestor.value.ws.config.name).toBe('space');
    const flag = resolveContext({ cwd: space.app, env: space.env, workspace: other });
    expect(flag.ok && flag.value.kind === 'workspace' && flag.value.ws.home).toBeUndefined();
    expect(elsewhere).toBeTruthy();
  });
});

describe('ws show, ws status, ws discover', () => {
  it('ws show reports configuration, home, roots and availability; outside a workspace it says none is selected', async () => {
    const space = makeSpace('wsshow', '[output]\nbudget = 800\n');
    fs.appendFileSync(space.config, '\n[members.gone]\npath = "gone"\n');
    const shown = json(await wsCommand('show', [], opts(space, space.lib)));
    expect(shown).toMatchObject({
      workspace: 'space',
      config: space.config,
      selected_by: 'ancestor',
      home: { name: 'lib', root: space.lib },
      budget: 800,
    });
    expect(shown.members.gone).toMatchObject({ path: 'gone', available: false });
    expect(shown.members.lib).toMatchObject({ available: true, home: true, root: space.lib });
    const status = json(await wsCommand('status', [], opts(space, space.lib)));
    expect(status.members.app.state).toBe('warming');
    expect(status.members.gone.state).toBe('unavailable');
    // Each member's history index (issue 16): absent, then what a build wrote; none for a missing root.
    expect(status.members.app.history).toMatchObject({ state: 'absent' });
    expect(status.members.gone.history).toBeUndefined();
    const built = await buildHistoryIndex(space.app, cacheBaseOf(status.members.app.cache));
    expect(built.ok && built.value.commits).toBe(1);
    const after = json(await wsCommand('status', [], opts(space, space.lib)));
    expect(after.members.app.history).toMatchObject({
      state: 'ready',
      commits: 1,
      head: git(space.app, 'rev-parse', 'HEAD').trim(),
    });
    expect(after.members.app.history.file).toBeUndefined();
    expect(after.members.lib.history).toMatchObject({ state: 'absent' });
    expect(errorCode(await wsCommand('show', [], opts(space, space.lib, { noWorkspace: true })))).toBe('no_workspace');
  });

  it('ws discover validates directories and proposes TOML without applying it', async () => {
    const space = makeSpace('discover');
    const out = json(await wsCommand('discover', [space.app, 'lib'], opts(space, space.base)));
    expect(out.applied).toBe(false);
    expect(out.proposal.workspace.members).toEqual(['app', 'lib']);
    expect(out.toml).toContain(`[members.app]\npath = ${JSON.stringify(space.app)}`);
    expect(fs.existsSync(path.join(space.base, 'trufflepig.workspace.toml'))).toBe(true); // the existing one, untouched
    expect(
      errorCode(await wsCommand('discover', [space.app, path.join(space.app, 'src')], opts(space, space.base))),
    ).toBe('config_overlapping_root');
    expect(errorCode(await wsCommand('discover', [path.join(space.base, 'nope')], opts(space, space.base)))).toBe(
      'root_not_found',
    );
  });
});
