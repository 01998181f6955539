import * as base from '@trufflepig/base';
import { makeDirectories } from '../src';

describe('re-exports of @trufflepig/base', () => {
  it('offers makeDirectories from the public entry, the same function', () => {
    expect(makeDirectories).toBe(base.makeDirectories);
  });
});
