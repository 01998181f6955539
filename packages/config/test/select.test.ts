import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { registryPath, selectWorkspace, type ConfigOutcome, type Selection } from '../src/index';
import { configText, mkdir, tempDir, write } from './fixtures';

function selected(result: ConfigOutcome<Selection>): { source: string; file?: string } {
  if (!result.ok) throw new Error(`expected a selection, got ${result.error.code}: ${result.error.message}`);
  const s = result.value;
  return s.source === 'none' ? { source: `none:${s.reason}` } : { source: s.source, file: s.config.file };
}

/** A home with an XDG config dir and two member directories; no workspace files yet. */
function setup() {
  const home = tempDir();
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
  const alpha = mkdir(path.join(home, 'src', 'alpha'));
  const beta = mkdir(path.join(home, 'src', 'beta'));
  const elsewhere = mkdir(path.join(home, 'elsewhere'));
  return { home, env, alpha, beta, elsewhere };
}

describe('selectWorkspace: flags', () => {
  it('--no-workspace conflicts with --workspace', () => {
    const { env, alpha } = setup();
    const result = selectWorkspace({ workspaceFlag: 'x.toml', noWorkspace: true, cwd: alpha, env });
    expect(!result.ok && result.error.code).toBe('workspace_conflicting_flags');
  });

  it('--no-workspace disables discovery even with an ancestor file and a registry', () => {
    const { home, env, alpha } = setup();
    write(path.join(home, 'src', 'trufflepig.workspace.toml'), configText({ alpha: 'alpha' }));
    expect(selected(selectWorkspace({ noWorkspace: true, cwd: alpha, env }))).toEqual({ source: 'none:disabled' });
  });

  it('--workspace FILE wins over an ancestor file; relative to cwd; a directory means its workspace file', () => {
    const { home, env, alpha, elsewhere } = setup();
    write(path.join(home, 'src', 'trufflepig.workspace.toml'), configText({ alpha: 'alpha' }));
    const explicit = write(path.join(elsewhere, 'other.toml'), configText({ beta: '../src/beta' }));
    expect(selected(selectWorkspace({ workspaceFlag: '../../elsewhere/other.toml', cwd: alpha, env }))).toEqual({
      source: 'flag',
      file: explicit,
    });
    const inDir = write(
      path.join(elsewhere, 'ws', 'trufflepig.workspace.toml'),
      configText({ beta: '../../src/beta' }),
    );
    expect(selected(selectWorkspace({ workspaceFlag: path.join(elsewhere, 'ws'), cwd: alpha, env }))).toEqual({
      source: 'flag',
      file: inDir,
    });
  });

  it('--workspace naming no file is workspace_not_found; an invalid file returns its own error', () => {
    const { env, alpha, elsewhere } = setup();
    const missing = selectWorkspace({ workspaceFlag: path.join(elsewhere, 'none.toml'), cwd: alpha, env });
    expect(!missing.ok && missing.error).toMatchObject({
      code: 'workspace_not_found',
      file: path.join(elsewhere, 'none.toml'),
    });
    write(path.join(elsewhere, 'bad.toml'), '[workspace]\nname = "s"\nfoo = 1\n[members.a]\npath = "a"\n');
    const bad = selectWorkspace({ workspaceFlag: path.join(elsewhere, 'bad.toml'), cwd: alpha, env });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'config_unknown_field', line: 3 });
  });
});

describe('selectWorkspace: nearest ancestor', () => {
  it('finds the nearest trufflepig.workspace.toml above cwd, before the registry', () => {
    const { home, env, alpha } = setup();
    write(path.join(home, 'trufflepig.workspace.toml'), configText({ alpha: 'src/alpha' }));
    const nearest = write(path.join(home, 'src', 'trufflepig.workspace.toml'), configText({ alpha: 'alpha' }));
    write(registryPath(env), `workspaces = ["${path.join(home, 'trufflepig.workspace.toml')}"]\n`);
    const deep = mkdir(path.join(alpha, 'a', 'b'));
    expect(selected(selectWorkspace({ cwd: deep, env }))).toEqual({ source: 'ancestor', file: nearest });
  });
});

describe('selectWorkspace: registry', () => {
  it('uses $XDG_CONFIG_HOME, else $HOME/.config', () => {
    expect(registryPath({ XDG_CONFIG_HOME: '/xdg', HOME: '/h' })).toBe('/xdg/trufflepig/workspaces.toml');
    expect(registryPath({ HOME: '/h' })).toBe('/h/.config/trufflepig/workspaces.toml');
    expect(registryPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe('/h/.config/trufflepig/workspaces.toml');
  });

  it('selects a registered workspace only when cwd is inside one of its members', () => {
    const { home, env, alpha, elsewhere } = setup();
    const cfg = write(path.join(home, 'configs', 'space.toml'), configText({ alpha: '../src/alpha' }));
    // Registry paths resolve relative to the registry file.
    write(registryPath(env), 'workspaces = ["../../configs/space.toml"]\n');
    expect(selected(selectWorkspace({ cwd: path.join(alpha), env }))).toEqual({ source: 'registry', file: cfg });
    expect(selected(selectWorkspace({ cwd: elsewhere, env }))).toEqual({ source: 'none:not_found' });
  });

  it('falls back to $HOME/.config when XDG_CONFIG_HOME is unset, with ~ in entries', () => {
    const { home, alpha } = setup();
    const env = { HOME: home };
    const cfg = write(path.join(home, 'configs', 'space.toml'), configText({ alpha: '~/src/alpha' }));
    write(path.join(home, '.config', 'trufflepig', 'workspaces.toml'), 'workspaces = ["~/configs/space.toml"]\n');
    expect(selected(selectWorkspace({ cwd: alpha, env }))).toEqual({ source: 'registry', file: cfg });
  });

  it('without a registry file there is no workspace', () => {
    const { env, alpha } = setup();
    expect(selected(selectWorkspace({ cwd: alpha, env }))).toEqual({ source: 'none:not_found' });
  });

  it('several matching workspaces are ambiguous and listed', () => {
    const { home, env, alpha, beta } = setup();
    const one = write(path.join(home, 'configs', 'one.toml'), configText({ alpha: '../src/alpha' }));
    const two = write(path.join(home, 'configs', 'two.toml'), configText({ a: '../src/alpha', b: '../src/beta' }));
    write(registryPath(env), `workspaces = ["${one}", "${two}", "${one}"]\n`);
    const result = selectWorkspace({ cwd: alpha, env });
    expect(!result.ok && result.error.code).toBe('workspace_ambiguous');
    expect(!result.ok && result.error.message).toContain(one);
    expect(!result.ok && result.error.message).toContain(two);
    expect(!result.ok && result.error.message).toContain('--workspace');
    // Only two.toml covers beta, and a duplicated registry entry is not ambiguous with itself.
    expect(selected(selectWorkspace({ cwd: beta, env }))).toEqual({ source: 'registry', file: two });
  });

  it('a stale entry is an actionable error naming the registry line', () => {
    const { home, env, alpha } = setup();
    const cfg = write(path.join(home, 'configs', 'one.toml'), configText({ alpha: '../src/alpha' }));
    write(registryPath(env), `# registered workspaces\nworkspaces = [\n  "${cfg}",\n  "~/gone.toml",\n]\n`);
    const result = selectWorkspace({ cwd: alpha, env });
    expect(!result.ok && result.error).toMatchObject({
      code: 'registry_stale_entry',
      file: registryPath(env),
      line: 4,
      field: 'workspaces',
    });
    expect(!result.ok && result.error.message).toContain('remove the entry');
  });

  it('an invalid registry or registered config reports the file at fault', () => {
    const { home, env, alpha } = setup();
    write(registryPath(env), 'workspaces = ["a.toml"]\nextra = true\n');
    const unknown = selectWorkspace({ cwd: alpha, env });
    expect(!unknown.ok && unknown.error).toMatchObject({
      code: 'config_unknown_field',
      file: registryPath(env),
      line: 2,
    });
    const bad = write(path.join(home, 'bad.toml'), '[workspace]\nname = "x y"\n[members.a]\npath = "src/alpha"\n');
    write(registryPath(env), `workspaces = ["${bad}"]\n`);
    const invalid = selectWorkspace({ cwd: alpha, env });
    expect(!invalid.ok && invalid.error).toMatchObject({ code: 'config_invalid_name', file: bad, line: 2 });
    expect(!invalid.ok && invalid.error.message).toContain(registryPath(env));
  });

  it('matches a symlinked cwd against canonical member roots', () => {
    const { home, env, alpha } = setup();
    const cfg = write(path.join(home, 'configs', 'one.toml'), configText({ alpha: '../src/alpha' }));
    write(registryPath(env), `workspaces = ["${cfg}"]\n`);
    fs.symlinkSync(alpha, path.join(home, 'alpha-link'));
    expect(selected(selectWorkspace({ cwd: path.join(home, 'alpha-link'), env }))).toEqual({
      source: 'registry',
      file: cfg,
    });
  });
});

describe('selectWorkspace: linked worktrees through belongsToMember', () => {
  const gitEnv: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.invalid',
  };
  delete gitEnv.GIT_DIR;
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  // A real predicate (the shape @trufflepig/member-root provides): same canonical common dir, linked worktree.
  const commonDir = (dir: string) => {
    try {
      return fs.realpathSync(git(dir, 'rev-parse', '--path-format=absolute', '--git-common-dir'));
    } catch {
      return undefined;
    }
  };
  const sameRepo = (memberRoot: string, dir: string) => {
    const c = commonDir(dir);
    return c !== undefined && c === commonDir(memberRoot);
  };

  it('selects the workspace from a linked worktree outside every member, and not from an unrelated repo', () => {
    const { home, env, alpha, elsewhere } = setup();
    git(alpha, 'init', '-q');
    write(path.join(alpha, 'README.md'), 'alpha\n');
    git(alpha, 'add', '.');
    git(alpha, 'commit', '-q', '-m', 'init');
    git(alpha, 'worktree', 'add', '-q', '-b', 'feature', path.join(elsewhere, 'alpha-wt'));
    const other = mkdir(path.join(elsewhere, 'other'));
    git(other, 'init', '-q');
    const cfg = write(path.join(home, 'configs', 'one.toml'), configText({ alpha: '../src/alpha' }));
    write(registryPath(env), `workspaces = ["${cfg}"]\n`);
    const wt = path.join(elsewhere, 'alpha-wt');
    expect(selected(selectWorkspace({ cwd: wt, env }))).toEqual({ source: 'none:not_found' });
    expect(selected(selectWorkspace({ cwd: wt, env, belongsToMember: sameRepo }))).toEqual({
      source: 'registry',
      file: cfg,
    });
    expect(selected(selectWorkspace({ cwd: other, env, belongsToMember: sameRepo }))).toEqual({
      source: 'none:not_found',
    });
  });
});
