import { printedPath, renderSearchPage, type PageHit } from '../src/index';

describe('printedPath', () => {
  it.each([
    ['src/lib.rs', 'src/lib.rs'],
    ['%40scope/pkg/index.js', '@scope/pkg/index.js'],
    ['my%20file.ts', 'my file.ts'],
    ['a%3Ab.ts', 'a:b.ts'],
    ['%C3%A9.ts', 'é.ts'],
    ['q%3F%23%22%5C.ts', 'q?#"\\.ts'],
    ['smile%F0%9F%98%80.ts', 'smile😀.ts'],
    ['%20leading.ts', ' leading.ts'],
  ])('prints %s as itself: %s', (stored, printed) => {
    expect(printedPath(stored)).toBe(printed);
  });

  it.each([
    ['100%25.ts', 'a % sign'],
    ['lit%2525eral.ts', 'a literal %25'],
    ['ta%09b.ts', 'a tab'],
    ['new%0Aline.ts', 'a newline'],
    ['cr%0Dret.ts', 'a carriage return'],
    ['ctl%01.ts', 'a C0 control'],
    ['del%7F.ts', 'DEL'],
    ['c1%C2%85.ts', 'a C1 control (NEL)'],
    ['ls%E2%80%A8.ts', 'U+2028'],
    ['bidi%E2%80%AE.ts', 'a bidi override'],
    ['latin%E9.rs', 'invalid UTF-8'],
    ['half%F0%9F.ts', 'a truncated UTF-8 sequence'],
    ['%ED%A0%80.ts', 'an encoded surrogate'],
  ])('keeps %s percent-encoded (%s)', (stored) => {
    expect(printedPath(stored)).toBe(stored);
  });

  it('prints hit paths in both formats, the URI staying encoded', () => {
    const hit: PageHit = {
      handle: 'k3x9qa:1',
      path: 'node_modules/%40scope/pkg/my%20file.js',
      uri: 'file:///r/node_modules/%40scope/pkg/my%20file.js',
      start_line: 1,
      end_line: 2,
      start: 0,
      end: 10,
    };
    const input = {
      query: 'q',
      setId: 'k3x9qa',
      offset: 0,
      hits: [hit],
      limit: 5,
      coverage: {},
      coverageLine: 'complete',
      truncated: false,
    };
    const json = JSON.parse(renderSearchPage(input, { format: 'json', budget: 10_000 }).stdout);
    expect(json.hits[0]).toMatchObject({ path: 'node_modules/@scope/pkg/my file.js', uri: hit.uri });
    const lines = renderSearchPage(input, { format: 'lines', budget: 10_000 }).stdout;
    expect(lines).toContain('node_modules/@scope/pkg/my file.js:1-2');
    expect(lines).not.toContain('%40');
  });
});
