// The suggestions for a path that names no indexed file (query/nearest-paths.ts).
import { nearestPaths } from '../src';

const PATHS = [
  'src/internal/AnyCatcher.ts',
  'src/internal/AsyncSubject.ts',
  'src/internal/Subject.ts',
  'src/internal/operators/merge.ts',
  'src/internal/operators/mergeAll.ts',
  'src/internal/operators/mergeMap.ts',
  'src/internal/util/noop.ts',
  'lib/operators/mergeMap.ts',
];

describe('nearestPaths', () => {
  it('suggests by edits to the base name, then by the directory shared', () => {
    // rxjs (an agent trial): `map src/internal/nope.ts` had suggested the directory's first files.
    expect(nearestPaths('src/internal/nope.ts', PATHS, 1)).toEqual(['src/internal/util/noop.ts']);
    expect(nearestPaths('src/internal/operators/mergMap.ts', PATHS, 2)).toEqual([
      'src/internal/operators/mergeMap.ts',
      'lib/operators/mergeMap.ts',
    ]);
    expect(nearestPaths('src/operators/mergeMap.ts', PATHS, 2)).toEqual([
      'src/internal/operators/mergeMap.ts',
      'lib/operators/mergeMap.ts',
    ]);
  });

  it('suggests the files of a directory a misspelt directory names', () => {
    expect(nearestPaths('src/internl/', PATHS, 1)).toEqual(['src/internal/AnyCatcher.ts']);
  });
});
