import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { coordinatorTarget, singleRootTarget } from '../src/serving/launch/fast-client';
import { coordinatorDir } from '../src/serving/launch/daemon-control';
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
