import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { coordinatorTarget, singleRootTarget } from '../src/serving/launch/fast-client';
import { coordinatorDir } from '../src/serving/launch/daemon-control';
import { addressedHere } from '../src/serving/host/daemon-main';
import { resolveContext } from '../src';
import { rootHash } from '@trufflepig/member-root';
import { makeRepo, makeSpace } from './ws-helpers';

// The fast path finds sockets without the facade: it must land on exactly the
// directories the full path uses, or a daemon-served call would talk to nobody.
describe('fast path targets agree with the full path', () => {
  it('a single root: the same cache directory, with and without --cache', () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-fast-')));
    const root = makeRepo(path.join(base, 'repo'), { 'src/a.rs': 'fn a() {}\n' });
    const env = {
      ...process.env,
      XDG_CACHE_HOME: path.join(base, '.cache'),
      XDG_CONFIG_HOME: path.join(base, '.config'),
    };
    for (const extra of [{}, { cache: path.join(base, 'c') }, { cache: '../../c' }]) {
      const full = resolveContext({ cwd: path.join(root, 'src'), env, ...extra });
      if (!full.ok || full.value.kind !== 'single') throw new Error('expected a single root');
      expect(singleRootTarget(extra, path.join(root, 'src'), env)).toEqual({
        root,
        cacheDir: full.value.root.cacheDir,
      });
      // --cache is a base: the root's directory is <base>/<root-hash>, never the base itself.
      const expectedBase = extra.cache !== undefined ? path.join(base, 'c') : path.join(base, '.cache', 'trufflepig');
      expect(full.value.root.cacheDir).toBe(path.join(expectedBase, rootHash(root)));
    }
  });

  it('a workspace: the same coordinator directory from an ancestor file, --workspace, and --cache', () => {
    const space = makeSpace('fast');
    for (const extra of [
      {},
      { workspace: space.config },
      { workspace: space.base },
      { cache: path.join(space.base, 'iso') },
    ]) {
      const full = resolveContext({ cwd: space.app, env: space.env, ...extra });
      if (!full.ok || full.value.kind !== 'workspace') throw new Error('expected a workspace');
      expect(coordinatorTarget(extra, space.app, space.env)).toEqual({
        stateDir: coordinatorDir(full.value.ws),
        configFile: space.config,
      });
    }
    // Cases with rules of their own go the full way.
    expect(coordinatorTarget({ root: space.app }, space.base, space.env)).toBeUndefined();
    expect(coordinatorTarget({ noWorkspace: true }, space.app, space.env)).toBeUndefined();
    expect(singleRootTarget({}, space.app, space.env)).toBeUndefined();
  });
});

// A root daemon names its own root on a request the client addressed to it by the same
// `.git` walk, so the verb spawns no `git rev-parse`; the root it names is the one the full
// path resolves from that directory, and every other request is left to resolve as sent.
describe('a root daemon makes its root explicit only on requests addressed to it', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-here-')));
  const root = makeRepo(path.join(base, 'repo'), { 'src/a.rs': 'fn a() {}\n', 'README.md': '# r\n' });
  const nested = makeRepo(path.join(root, 'vendor', 'inner'), { 'b.rs': 'fn b() {}\n' });
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(base, '.cache'),
    XDG_CONFIG_HOME: path.join(base, '.config'),
  };
  const request = (cwd: string, options: Record<string, string | boolean> = {}) => ({
    verb: 'search',
    args: ['a'],
    options,
    cwd,
  });

  it('names the root the full path resolves, from the root and below it', () => {
    for (const cwd of [root, path.join(root, 'src')]) {
      const req = addressedHere(request(cwd), root);
      expect(req.options.root).toBe(root);
      const full = resolveContext({ cwd, env });
      if (!full.ok || full.value.kind !== 'single') throw new Error('expected a single root');
      expect(full.value.root.root).toBe(root);
      const named = resolveContext({ cwd, env, root: String(req.options.root) });
      expect(named.ok && named.value.kind === 'single' && named.value.root).toEqual(full.value.root);
    }
  });

  it('leaves a nested repository, another directory and explicit choices alone', () => {
    const unchanged = [
      request(nested),
      request(base),
      request(path.join(root, 'src'), { root: path.join(root, 'src') }),
      request(root, { workspace: path.join(base, 'trufflepig.toml') }),
      request(root, { member: 'app' }),
      request(path.join(base, 'missing')),
    ];
    for (const req of unchanged) expect(addressedHere(req, root)).toBe(req);
  });
});
