import { ALWAYS_SKIPPED_DIRS, isAlwaysSkippedDir } from '../src';

describe('ALWAYS_SKIPPED_DIRS', () => {
  it('is the one list the walk and the watcher share, and cannot be changed', () => {
    expect(ALWAYS_SKIPPED_DIRS).toEqual(['.git', 'node_modules', 'target', '.trufflepig']);
    expect(Object.isFrozen(ALWAYS_SKIPPED_DIRS)).toBe(true);
    expect(() => (ALWAYS_SKIPPED_DIRS as string[]).push('dist')).toThrow(TypeError);
  });

  it('isAlwaysSkippedDir matches one whole segment exactly', () => {
    for (const name of ALWAYS_SKIPPED_DIRS) expect(isAlwaysSkippedDir(name)).toBe(true);
    expect(isAlwaysSkippedDir('Node_Modules')).toBe(false);
    expect(isAlwaysSkippedDir('node_modules/x')).toBe(false);
    expect(isAlwaysSkippedDir('targets')).toBe(false);
    expect(isAlwaysSkippedDir('.gitignore')).toBe(false);
    expect(isAlwaysSkippedDir('')).toBe(false);
  });
});
