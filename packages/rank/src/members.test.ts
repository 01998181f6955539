import { fuseMembers, memberShare } from './members';

const hit = (path: string, start = 0) => ({ path, start });

describe('fuseMembers', () => {
  it('interleaves members by rank, never by list length or arrival order', () => {
    const a = { member: 'alpha', hits: [hit('a1'), hit('a2'), hit('a3')] };
    const b = { member: 'beta', hits: [hit('b1')] };
    const order = (lists: typeof a[]) => fuseMembers(lists).map((f) => `${f.member}:${f.hit.path}:${f.memberRank}`);
    expect(order([a, b])).toEqual(['alpha:a1:1', 'beta:b1:1', 'alpha:a2:2', 'alpha:a3:3']);
    expect(order([b, a])).toEqual(order([a, b]));
  });

  it('breaks equal ranks by path, then span start, then member name', () => {
    const x = { member: 'x', hits: [hit('src/same.rs', 40)] };
    const y = { member: 'y', hits: [hit('src/same.rs', 10)] };
    const z = { member: 'a', hits: [hit('src/same.rs', 10)] };
    const w = { member: 'w', hits: [hit('lib/first.rs', 99)] };
    expect(fuseMembers([x, y, z, w]).map((f) => f.member)).toEqual(['w', 'a', 'y', 'x']);
  });

  it('keeps raw hit objects untouched so owners travel with them', () => {
    const h = { path: 'p', start: 3, score: 1e9 };
    const fused = fuseMembers([{ member: 'm', hits: [h] }, { member: 'n', hits: [{ path: 'q', start: 0, score: 0.001 }] }]);
    expect(fused[0].hit).toBe(h);
    expect(fused.map((f) => f.member)).toEqual(['m', 'n']);
  });
});

describe('memberShare', () => {
  it('splits a ceiling equally and floors', () => {
    expect(memberShare(10_000, 3)).toBe(3333);
    expect(memberShare(10_000, 1)).toBe(10_000);
    expect(memberShare(10_000, 0)).toBe(0);
  });
});
