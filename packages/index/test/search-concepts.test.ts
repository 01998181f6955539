// Issue 13, concept queries: the filename lane orders files of equal evidence by how many
// query words their paths name. Real files, a real index, the lane as search builds it.
import { Fixture } from './helpers';
import { parseQuery, type IndexReader } from '../src';
import { filenameLane, type LaneContext } from '../src/query/lanes';

const FILES: Record<string, string> = {
  'lib/check/util.js': 'module.exports = {}\n',
  'lib/range.js': 'module.exports = {}\n',
};

let fx: Fixture;
let reader: IndexReader;
beforeAll(async () => {
  fx = new Fixture('filename-order', FILES);
  await fx.index();
  reader = await fx.open();
});
afterAll(() => reader.close());

function laneContext(query: string): LaneContext {
  const q = parseQuery(query);
  if (!q.ok) throw new Error(q.error.message);
  return { reader, query: q.value, eligible: () => true, truncated: false };
}

describe('the filename lane', () => {
  it('puts a path whose basename names a query word before one that names it in a directory only', () => {
    const ctx = laneContext('check range');
    const lane = filenameLane(ctx, () => ({ start: 0, end: 0, sl: 1, el: 1 }));
    const paths = lane.entries.map((e) => e.path);
    expect(paths.indexOf('lib/range.js')).toBeLessThan(paths.indexOf('lib/check/util.js'));
  });
});
