// TypeScript method overloads (an agent trial on rxjs, 2026-12-05): `Observable` declares
// `pipe` eleven times before the one body. The signatures are prototypes of the method, so
// `show sym:` reads the body and a class's members line names each method once, at its body.
// Real repository, real tree-sitter parse.
import { showCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const STREAM = [
  'export class Stream<T> {',
  '  constructor(private readonly items: T[]) {}',
  '',
  '  pipe(): Stream<T>;',
  '  pipe<A>(op: (s: Stream<T>) => Stream<A>): Stream<A>;',
  '  pipe<A, B>(a: (s: Stream<T>) => Stream<A>, b: (s: Stream<A>) => Stream<B>): Stream<B>;',
  '  pipe(...ops: Array<(s: Stream<unknown>) => Stream<unknown>>): Stream<unknown> {',
  '    return ops.reduce((s, op) => op(s), this as Stream<unknown>);',
  '  }',
  '',
  ...Array.from({ length: 12 }, (_, i) => [
    `  step${i}(x: T): T {`,
    `    const y = x;`,
    `    return y;`,
    '  }',
    '',
  ]).flat(),
  '}',
  '',
].join('\n');

describe('show sym: of an overloaded TypeScript method', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-overloads-', { 'src/stream.ts': STREAM });
  });

  it('reads the body, and names the signatures as also rows', async () => {
    const text = (await showCommand('sym:Stream::pipe', repo.at())).stdout.split('\n');
    expect(text[0]).toMatch(/^[0-9a-z]{6,}:1 {2}src\/stream\.ts:7-9 {2}Stream::pipe$/);
    expect(text[1]).toBe('7\t  pipe(...ops: Array<(s: Stream<unknown>) => Stream<unknown>>): Stream<unknown> {');
    expect(text).toContainEqual(
      expect.stringMatching(/^also: [0-9a-z]{6,}:2 src\/stream\.ts:4 prototype Stream::pipe$/),
    );
  });

  it("names each method once in its class's members, at its body", async () => {
    const members = (await showCommand('sym:Stream', repo.at())).stdout
      .split('\n')
      .find((l) => l.startsWith('members: '));
    expect(members).toMatch(/^members: 2 constructor, 7 pipe, 11 step0, /);
  });
});

describe('show sym: of a decorated definition', () => {
  // Django (an agent trial): `show sym:HttpRequest::body` began at `def body`, its
  // `@property` left out, and the agent could not tell a property from a method.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-decorated-', {
      'http/request.py': [
        'class HttpRequest:',
        '    def __init__(self):',
        '        self._body = b""',
        '',
        '    @property',
        '    @cached',
        '    def body(self):',
        '        return self._body',
        '',
      ].join('\n'),
      'src/lib.rs': '/// A point.\n#[derive(Debug, Clone)]\npub struct Point {\n    x: i32,\n}\n',
    });
  });

  it('reads its decorators with it, and its handle spans them', async () => {
    const text = (await showCommand('sym:HttpRequest::body', repo.at())).stdout.split('\n');
    expect(text[0]).toMatch(/^[0-9a-z]{6,}:1 {2}http\/request\.py:5-8 {2}HttpRequest::body$/);
    expect(text.slice(1, 4)).toEqual(['5\t    @property', '6\t    @cached', '7\t    def body(self):']);
    const again = (await showCommand(text[0].split(/ {2}/)[0], repo.at())).stdout.split('\n');
    expect(again[1]).toBe('5\t    @property');
  });

  it("reads a Rust item's attributes and the doc comment above them", async () => {
    // tokio (an agent trial): show sym:poll_proceed left out the doc saying how the budget is spent.
    const text = (await showCommand('sym:Point', repo.at())).stdout.split('\n');
    expect(text[0]).toMatch(/ {2}src\/lib\.rs:1-5 {2}Point$/);
    expect(text.slice(1, 3)).toEqual(['1\t/// A point.', '2\t#[derive(Debug, Clone)]']);
  });

  it('folds a doc comment longer than 12 lines, leaves out one longer than 200 and a comment block cut off above', async () => {
    const long = await indexedRepo('tp-long-doc-', {
      'src/lib.rs': [...Array.from({ length: 13 }, (_, i) => `/// line ${i}`), 'pub fn f() {}', ''].join('\n'),
      'src/banner.rs': [...Array.from({ length: 201 }, (_, i) => `/// line ${i}`), 'pub fn h() {}', ''].join('\n'),
      'src/c.c': ['/* a banner', 'text inside the block', ' * more', ' */', 'int g(void) { return 0; }', ''].join('\n'),
    });
    expect((await showCommand('sym:f', long.at())).stdout.split('\n').slice(1, 7)).toEqual([
      '1\t/// line 0',
      '2\t/// line 1',
      '3\t/// line 2',
      '4\t/// line 3',
      '5-13\t… 9 doc comment lines (show path:src/lib.rs:5-13)',
      '14\tpub fn f() {}',
    ]);
    expect((await showCommand('sym:h', long.at())).stdout.split('\n')[1]).toBe('202\tpub fn h() {}');
    expect((await showCommand('sym:g', long.at())).stdout.split('\n')[1]).toBe('5\tint g(void) { return 0; }');
  });
});

describe('show sym: among Rust items of one name', () => {
  it("reads the public item before a crate's own stub", async () => {
    // tokio (an agent trial): `show sym:JoinHandle` read blocking.rs's `pub(crate)` stub,
    // the real `pub struct` of task/join.rs on an also row.
    const repo = await indexedRepo('tp-rust-visibility-', {
      'Cargo.toml': '[package]\nname = "rt"\nversion = "0.1.0"\n',
      'src/lib.rs': 'mod blocking;\nmod task;\n',
      'src/blocking.rs': 'pub(crate) struct JoinHandle<R> {\n    _p: R,\n}\n',
      'src/task/mod.rs': 'mod join;\n',
      'src/task/join.rs': 'pub struct JoinHandle<T> {\n    raw: T,\n}\n',
    });
    const text = (await showCommand('sym:JoinHandle', repo.at())).stdout.split('\n');
    expect(text[0]).toMatch(/ {2}src\/task\/join\.rs:1-3 {2}JoinHandle$/);
    expect(text).toContainEqual(
      expect.stringMatching(/^also: [0-9a-z]{6,}:2 src\/blocking\.rs:1-3 struct JoinHandle$/),
    );
  });
});

describe('show sym: among leaders of several languages', () => {
  it('reads the definition in the language that uses the name most', async () => {
    // Django (an agent trial): `show sym:filter` read the admin's SelectBox.js `filter`,
    // whose path sorts first, for the `QuerySet.filter` the Python code calls throughout.
    const calls = (n: number) => Array.from({ length: n }, (_, i) => `    q${i} = qs.filter(k=${i})`).join('\n');
    const repo = await indexedRepo('tp-sym-families-', {
      'pkg/admin/static/select_box.js': [
        'const SelectBox = {',
        '  filter: function (id, text) {',
        '    return text.trim()',
        '  },',
        '}',
        '',
      ].join('\n'),
      'pkg/db/query.py': ['class QuerySet:', '    def filter(self, **kwargs):', '        return self', ''].join('\n'),
      'pkg/views.py': `def index(qs):\n${calls(6)}\n    return q0\n`,
      'pkg/forms.py': `def clean(qs):\n${calls(3)}\n    return q0\n`,
    });
    const text = (await showCommand('sym:filter', repo.at())).stdout.split('\n');
    expect(text[0]).toMatch(/ {2}pkg\/db\/query\.py:2-3 {2}QuerySet::filter$/);
    expect(text).toContainEqual(expect.stringMatching(/^also: [0-9a-z]{6,}:2 pkg\/admin\/static\/select_box\.js:2-4 /));
  });
});
