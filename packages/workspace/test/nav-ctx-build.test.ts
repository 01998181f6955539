// ctx in a package that ships its build beside its source (@tanstack/query-core's `build/`
// beside `src/`), and a call through an untyped receiver (tRPC's `parser.assert(value)`):
// a workspace trial read the build's callers and callee, and a free function the call never
// reached, as resolved. Real repository, real tree-sitter parses.
import { ctxCommand } from '../src';
import { ctxLinesOf, ctxRows, indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES = {
  'src/utils.ts':
    'export function isValidTimeout(n: number): boolean {\n  return n > 0;\n}\n\nexport function assert(v: unknown): void {\n  if (!v) throw new Error();\n}\n',
  'src/removable.ts': [
    "import { isValidTimeout } from './utils';",
    '',
    'export class Removable {',
    '  gcTime = 0;',
    '  scheduleGc(): void {',
    '    if (isValidTimeout(this.gcTime)) this.gcTime = 1;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/query.ts': [
    "import { Removable } from './removable';",
    '',
    'export class Query extends Removable {',
    '  fetch(): void {',
    '    this.scheduleGc();',
    '  }',
    '}',
    '',
  ].join('\n'),
  // A type parameter's bound is no base: `Key` had been read as the parent.
  'src/mutation.ts': [
    "import { Removable } from './removable';",
    '',
    'interface Key {}',
    '',
    'export class Mutation<',
    '  TData = unknown,',
    '  TKey extends Key = Key,',
    '> extends Removable {',
    '  remove(): void {',
    '    this.scheduleGc();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/parser.ts': 'export function getParseFn(parser: any) {\n  return (value: unknown) => parser.assert(value);\n}\n',
  // The JDK's AbstractList::hashCode calls `e.hashCode()` on an element, and its own size
  // through `this` (Java reads `e`'s declared type: nav-declared-types.test.ts; Python cannot).
  'py/bag.py': [
    'class Bag:',
    '    def size(self):',
    '        return 1',
    '',
    '    def hash_code(self, other):',
    '        return self.size() + Bag.seed() + other.hash_code()',
    '',
    '    def seed():',
    '        return 7',
    '',
  ].join('\n'),
  'build/legacy/utils.js':
    'function isValidTimeout(n) {\n  return n > 0;\n}\nexports.isValidTimeout = isValidTimeout;\n',
  'build/legacy/removable.js': [
    "const { isValidTimeout } = require('./utils');",
    'class Removable {',
    '  scheduleGc() {',
    '    if (isValidTimeout(this.gcTime)) this.gcTime = 1;',
    '  }',
    '}',
    'exports.Removable = Removable;',
    '',
  ].join('\n'),
  'build/legacy/query.js': [
    "const { Removable } = require('./removable');",
    'class Query extends Removable {',
    '  fetch() {',
    '    this.scheduleGc();',
    '  }',
    '  cancel() {',
    '    this.scheduleGc();',
    '  }',
    '}',
    '',
  ].join('\n'),
};

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-ctx-build-', FILES);
});

describe('ctx where the build ships beside the source', () => {
  it("lists the source's callers, not the build's, and resolves a callee to the source", async () => {
    const lines = await ctxLinesOf(repo, ['sym:scheduleGc', 'file:src/']);
    expect(ctxRows(lines, 'symbol')).toEqual(['src/removable.ts:5 method Removable::scheduleGc']);
    // `build/` had sorted first by path: its two callers stood before the source's, and
    // were resolved to the build's copy. An inherited `this.scheduleGc()` is Removable's:
    // the class chain reaches it; the build's calls are its own copy's.
    expect(ctxRows(lines, 'caller')).toEqual([
      'src/mutation.ts:10 in Mutation::remove',
      'src/query.ts:5 in Query::fetch',
    ]);
    expect(ctxRows(lines, 'callee')).toEqual(['src/utils.ts:1 function isValidTimeout']);
  });

  it('ctx sym:NAME [filters] answers for the definition show sym: reads, without a search first', async () => {
    const bySearch = (await ctxLinesOf(repo, ['sym:scheduleGc', 'file:src/'])).filter((l) => !/^symbol:/.test(l));
    const byName = (await ctxCommand('sym:scheduleGc file:src/', repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(ctxRows(byName, 'symbol')).toEqual(['src/removable.ts:5 method Removable::scheduleGc']);
    // The same rows, under other handles.
    const unhandled = (ls: string[]) =>
      ls.filter((l) => !/^symbol:/.test(l)).map((l) => l.replace(/: [0-9a-z]+:\d+\t/, ': '));
    expect(unhandled(byName)).toEqual(unhandled(bySearch));
    const missing = await ctxCommand('sym:noSuchThing', repo.at({ format: 'lines' }));
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^trufflepig: no_definition: no definition of noSuchThing/);
  });

  it("a method of the caller's class through another object's receiver is a candidate callee", async () => {
    const lines = await ctxLinesOf(repo, ['sym:Bag::hash_code']);
    expect(ctxRows(lines, 'callee')).toEqual([
      'py/bag.py:2 method Bag::size',
      'py/bag.py:8 method Bag::seed',
      'py/bag.py:5 method Bag::hash_code candidate',
    ]);
  });

  it('a free function reached through an untyped receiver is a candidate callee', async () => {
    const lines = await ctxLinesOf(repo, ['sym:getParseFn']);
    expect(ctxRows(lines, 'callee')).toEqual(['src/utils.ts:5 function assert candidate']);
  });
});
