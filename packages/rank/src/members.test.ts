import { fuseMembers, memberShare } from './members';

const hit = (path: string, start = 0) => ({ path, start });

describe('fuseMembers', () => {
  it('interleaves members by rank, never by list length or arrival order', () => {
    const a = { member: 'alpha', hits: [hit('a1'), hit('a2'), hit('a3')] };
    const b = { member: 'beta', hits: [hit('b1')] };
    const order = (lists: (typeof a)[]) => fuseMembers(lists).map((f) => `${f.member}:${f.hit.path}:${f.memberRank}`);
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
    const fused = fuseMembers([
      { member: 'm', hits: [h] },
      { member: 'n', hits: [{ path: 'q', start: 0, score: 0.001 }] },
    ]);
    expect(fused[0].hit).toBe(h);
    expect(fused.map((f) => f.member)).toEqual(['m', 'n']);
  });
});

describe('fuseMembers by lane standing', () => {
  type H = { path: string; start: number; fusion?: { tier: number; score: number } };
  const at = (path: string, score: number, tier = 0): H => ({ path, start: 0, fusion: { tier, score } });
  const order = (lists: { member: string; hits: H[] }[]) =>
    fuseMembers(lists, (h) => h.fusion).map((f) => `${f.member}:${f.hit.path}`);

  it("orders by tier, then the reciprocal-rank score of the file's lanes, so a strong member takes more of the page", () => {
    // alpha's files sit in several lanes each; beta's first file in one lane only.
    const alpha = { member: 'alpha', hits: [at('a1', 0.09), at('a2', 0.08), at('a3', 0.02)] };
    const beta = { member: 'beta', hits: [at('b1', 0.03), at('b2', 0.01)] };
    expect(order([alpha, beta])).toEqual(['alpha:a1', 'alpha:a2', 'beta:b1', 'alpha:a3', 'beta:b2']);
    expect(order([beta, alpha])).toEqual(order([alpha, beta]));
    // A better tier wins whatever the score (a file named like the identifier).
    const gamma = { member: 'gamma', hits: [at('g1', 0.001, -1)] };
    expect(order([alpha, gamma])[0]).toBe('gamma:g1');
  });

  it('equal standings fall back to rank, path, span and member; one hit without a standing interleaves by rank', () => {
    expect(
      order([
        { member: 'x', hits: [at('p', 0.05)] },
        { member: 'w', hits: [at('p', 0.05)] },
      ]),
    ).toEqual(['w:p', 'x:p']);
    const bare = { member: 'beta', hits: [{ path: 'b1', start: 0 }, at('b2', 0.5)] };
    expect(order([{ member: 'alpha', hits: [at('a1', 0.09), at('a2', 0.08)] }, bare])).toEqual([
      'alpha:a1',
      'beta:b1',
      'alpha:a2',
      'beta:b2',
    ]);
  });
});

describe('the member-tail rule', () => {
  type H = { path: string; start: number; fusion: { tier: number; score: number } };
  const at = (path: string, score: number, tier = 0): H => ({ path, start: 0, fusion: { tier, score } });
  const order = (lists: { member: string; hits: H[] }[]) =>
    fuseMembers(lists, (h) => h.fusion).map((f) => `${f.member}:${f.hit.path}`);
  // alpha's files all sit high in several lanes; beta's best file matched one lane.
  const strong = (n: number, tier = 0) => ({
    member: 'alpha',
    hits: Array.from({ length: n }, (_, i) => at(`a${i + 1}`, 0.2 - i * 0.01, tier)),
  });

  it("keeps a member's best file ahead of another member's fourth and deeper files", () => {
    const beta = { member: 'beta', hits: [at('b1', 0.01)] };
    const page = order([strong(9), beta]);
    expect(page.slice(0, 5)).toEqual(['alpha:a1', 'alpha:a2', 'alpha:a3', 'beta:b1', 'alpha:a4']);
    expect(page).toHaveLength(10);
    expect(order([beta, strong(9)])).toEqual(page);
  });

  it("keeps a member's k-th file ahead of another member's files deeper than 3k", () => {
    const beta = { member: 'beta', hits: [at('b1', 0.01), at('b2', 0.005), at('b3', 0.001)] };
    expect(order([strong(12), beta])).toEqual([
      'alpha:a1',
      'alpha:a2',
      'alpha:a3',
      'beta:b1',
      'alpha:a4',
      'alpha:a5',
      'alpha:a6',
      'beta:b2',
      'alpha:a7',
      'alpha:a8',
      'alpha:a9',
      'beta:b3',
      'alpha:a10',
      'alpha:a11',
      'alpha:a12',
    ]);
  });

  it("bounds every neighbour's tail at once: three members, one of them strong", () => {
    const beta = { member: 'beta', hits: [at('b1', 0.02)] };
    const gamma = { member: 'gamma', hits: [at('g1', 0.01)] };
    expect(order([strong(10), gamma, beta]).slice(0, 6)).toEqual([
      'alpha:a1',
      'alpha:a2',
      'alpha:a3',
      'beta:b1',
      'gamma:g1',
      'alpha:a4',
    ]);
  });

  it('yields to a better tier: a file defining the identifier outranks any depth of weaker files', () => {
    const beta = { member: 'beta', hits: [at('b1', 0.5, 1)] };
    const page = order([strong(6, 0), beta]);
    expect(page[page.length - 1]).toBe('beta:b1');
  });

  it('leaves an order that already obeys the rule, and rank interleaving, unchanged', () => {
    const alpha = { member: 'alpha', hits: [at('a1', 0.09), at('a2', 0.08), at('a3', 0.07)] };
    const beta = { member: 'beta', hits: [at('b1', 0.01), at('b2', 0.001)] };
    expect(order([alpha, beta])).toEqual(['alpha:a1', 'alpha:a2', 'alpha:a3', 'beta:b1', 'beta:b2']);
    const bare = (m: string, n: number) => ({ member: m, hits: Array.from({ length: n }, (_, i) => hit(`${m}${i}`)) });
    expect(fuseMembers([bare('x', 6), bare('y', 1)]).map((f) => f.hit.path)).toEqual([
      'x0',
      'y0',
      'x1',
      'x2',
      'x3',
      'x4',
      'x5',
    ]);
  });
});

describe('memberShare', () => {
  it('splits a ceiling equally and floors', () => {
    expect(memberShare(10_000, 3)).toBe(3333);
    expect(memberShare(10_000, 1)).toBe(10_000);
    expect(memberShare(10_000, 0)).toBe(0);
  });
});
