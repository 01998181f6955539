import { fitRowPage, rowPageFooter, type SetRowsPage } from '../src/row-page';
import { countTokens } from '../src/tokens';

// A page of a set's rows: a header, one line per row, a footer naming the set.
const SET = 'ab12cd';
function page(rows: number): string {
  let out = `refs refill (show ${SET}:N reads row N)\n`;
  for (let i = 1; i <= rows; i++) out += `${i} src/bucket.rs:${i * 10} call in TokenBucket::take: self.refill(now)\n`;
  return `${out}coverage: ${rows} sites\n`;
}

const fit = (budget: number, max = 40) =>
  fitRowPage({
    format: 'lines',
    budget,
    max,
    render: page,
    setId: SET,
    tooSmallFor: { empty: 'this refs page', oneRow: 'one row of this refs page' },
  });

describe('fitRowPage', () => {
  it('shows the most rows whose whole page fits, and every budget is kept', () => {
    for (let budget = 1; budget <= 600; budget += 13) {
      const out = fit(budget);
      expect(countTokens(out.stdout)).toBeLessThanOrEqual(budget);
      const rows = out.stdout.split('\n').filter((l) => /^\d+ /.test(l)).length;
      if (rows > 0 && rows < 40) expect(countTokens(page(rows + 1))).toBeGreaterThan(budget);
    }
    expect(fit(100_000).stdout).toBe(page(40));
    expect(fit(100_000, 3).stdout).toBe(page(3));
  });

  it('budget 0 prints nothing; a page without rows prints its header and footer', () => {
    expect(fit(0)).toEqual({ stdout: '', stderr: '' });
    expect(fit(600, 0)).toEqual({ stdout: page(0), stderr: '' });
  });

  it('too small for one row: a fitting status and a hint whose budget fits the page with a longer set id', () => {
    const one = countTokens(page(1));
    const out = fit(one - 1);
    expect(out.stdout).toMatch(/^status: budget_too_small needed=\d+\n$/);
    const needed = Number(/needed=(\d+)/.exec(out.stdout)![1]);
    expect(needed).toBeGreaterThan(one);
    expect(out.stderr).toBe(
      `trufflepig: budget of ${one - 1} tokens is too small for one row of this refs page; retry with -b ${needed}\n`,
    );
    // Without rows, the hint names the page itself.
    expect(fit(3, 0).stderr).toMatch(/too small for this refs page; retry with -b \d+\n$/);
  });
});

describe('rowPageFooter', () => {
  const rows = (coverageLine: string, truncated: boolean): SetRowsPage<unknown> => ({
    query: 'refs refill',
    setId: SET,
    offset: 0,
    entries: [],
    coverage: {},
    coverageLine,
    truncated,
  });

  it('says a capped set is truncated once, on its coverage line, never on a line of its own', () => {
    expect(rowPageFooter(rows('312 sites in 40 files', true), `${SET}@20`)).toBe(
      `coverage: 312 sites in 40 files; truncated\nnext: more ${SET}@20\n`,
    );
    expect(rowPageFooter(rows('312 sites; truncated (the set keeps the first 10000 hits)', true), undefined)).toBe(
      'coverage: 312 sites; truncated (the set keeps the first 10000 hits)\n',
    );
    expect(rowPageFooter(rows('12 sites in 3 files', false), undefined)).toBe('coverage: 12 sites in 3 files\n');
  });
});
