import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GIT_DISCOVERY_OVERRIDES, gitEnvironment } from '../src';
import { tempDir } from './helpers';

function repo(dir: string, file: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const env = gitEnvironment({}, [], { PATH: process.env.PATH, HOME: dir });
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env, stdio: 'pipe' });
  git('init', '-q');
  fs.writeFileSync(path.join(dir, file), 'x\n');
  git('add', file);
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
  return fs.realpathSync(dir);
}

describe('gitEnvironment', () => {
  // As inherited by a Git hook or a parent git command running elsewhere.
  function inheritedFrom(other: string): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: other,
      GIT_DIR: path.join(other, '.git'),
      GIT_WORK_TREE: other,
      GIT_COMMON_DIR: path.join(other, '.git'),
      GIT_INDEX_FILE: path.join(other, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: path.join(other, '.git', 'objects'),
    };
  }

  it('makes Git describe the repository asked about, whatever the caller inherited', () => {
    const base = tempDir();
    const asked = repo(path.join(base, 'asked'), 'asked.txt');
    const other = repo(path.join(base, 'other'), 'other.txt');
    const listed = (env: NodeJS.ProcessEnv) =>
      execFileSync('git', ['-C', asked, 'ls-files'], { env, encoding: 'utf8', stdio: 'pipe' }).trim();
    // The hazard is real: with the inherited variables Git lists the other repository.
    expect(listed(inheritedFrom(other))).toBe('other.txt');
    expect(listed(gitEnvironment({}, [], inheritedFrom(other)))).toBe('asked.txt');
  });

  it('removes every discovery override and `remove`, keeps the rest, and sets LC_ALL=C under `extra`', () => {
    const inherited: NodeJS.ProcessEnv = { KEEP: '1', LC_ALL: 'de_DE.UTF-8', GIT_EXTERNAL_DIFF: 'x' };
    for (const name of GIT_DISCOVERY_OVERRIDES) inherited[name] = '/elsewhere';
    const env = gitEnvironment({ GIT_OPTIONAL_LOCKS: '0' }, ['GIT_EXTERNAL_DIFF'], inherited);
    expect(env).toEqual({ KEEP: '1', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' });
    expect(inherited.GIT_DIR).toBe('/elsewhere');
  });
});
