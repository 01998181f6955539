import { pathNaming } from './filename';

describe('pathNaming', () => {
  it('counts the non-stopword query words a basename and a whole path name', () => {
    expect(pathNaming('node_modules/semver/classes/range.js', ['is', 'version', 'in', 'range'])).toEqual({
      base: 1,
      path: 1,
    });
    expect(pathNaming('lib/check/util.js', ['check', 'range'])).toEqual({ base: 0, path: 1 });
  });
});
