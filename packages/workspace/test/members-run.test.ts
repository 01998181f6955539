import { assignThreads } from '../src/federation/members-run';

describe('assignThreads', () => {
  const MB = 1024 * 1024;

  it('keeps the largest member on this thread and gives large others a worker each', () => {
    expect(assignThreads([82 * MB, 60 * MB, 50 * MB], 4, 48 * MB)).toEqual([[0], [1], [2]]);
  });

  it('never starts more threads than cores; the rest share this thread after the largest', () => {
    expect(assignThreads([60 * MB, 82 * MB, 50 * MB], 2, 48 * MB)).toEqual([[1, 2], [0]]);
  });

  it('small members stay on this thread, largest first', () => {
    expect(assignThreads([5 * MB, 82 * MB, 14 * MB], 2, 48 * MB)).toEqual([[1, 2, 0]]);
    expect(assignThreads([1, 2, 3], 8, 0)).toEqual([[2], [1], [0]]);
  });
});
