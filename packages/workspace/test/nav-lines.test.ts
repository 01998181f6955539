// The lines pages of map, refs and show sym: (docs/spec/retrieval.md §4, §6, §7): one short row per
// item, row shapes and order, and what they cost in o200k tokens. Real repositories, real
// tree-sitter parses.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countTokens } from '@trufflepig/render';
import {
  indexCommand,
  mapCommand,
  moreCommand,
  refsCommand,
  searchCommand,
  showCommand,
  type CommandOptions,
} from '../src';
import { indexedRepo, json, makeRepo, type IndexedRepo } from './ws-helpers';

const BUCKET = [
  'class TokenBucket {',
  '  #count = 0;',
  '  static create(size) {',
  '    return new TokenBucket(size);',
  '  }',
  '  constructor(size) {',
  '    this.size = size;',
  '  }',
  '  async refill() {',
  '    this.#drain();',
  '    return this.#count;',
  '  }',
  '  get level() {',
  '    return this.#count;',
  '  }',
  '  set level(v) {',
  '    this.#count = v;',
  '  }',
  '  #drain() {',
  '    this.#count = 0;',
  '  }',
  '  drain() {',
  '    this.#drain();',
  '  }',
  '}',
  'module.exports = TokenBucket;',
  '',
].join('\n');

/** A file of 300 functions: an outline of a few hundred items. */
const BIG = Array.from(
  { length: 300 },
  (_, i) => `export function step${i}(x: number): number {\n  return x + ${i};\n}\n`,
).join('');

/** A class of 60 lines (over SYM_BODY_MAX_LINES): show sym: prints its head and members. */
const LEDGER = [
  '// The ledger.',
  'class Ledger {',
  ...Array.from({ length: 11 }, (_, i) =>
    [`  entry${i}(x) {`, `    const y = x + ${i};`, '    return y * 2;', '  }', ''].join('\n'),
  ),
  '  static #seal() {',
  '    return 0;',
  '  }',
  '}',
  '',
].join('\n');

const FILES = {
  'lib/bucket.js': BUCKET,
  'index.js':
    "const TokenBucket = require('./lib/bucket.js');\n\nfunction make() {\n  return TokenBucket.create(1);\n}\n" +
    'function pair() {\n  return [new TokenBucket(1), new TokenBucket(2)];\n}\nmodule.exports = { make, pair, TokenBucket };\n',
  'test/bucket.test.js':
    "const TokenBucket = require('../lib/bucket.js');\ntest('fills', () => new TokenBucket(1).refill());\n",
  'src/store.ts': [
    'export abstract class Store {',
    "  private readonly name: string = 'store';",
    '  protected static instances = 0;',
    '  abstract load(): Promise<void>;',
    '  public async save(): Promise<void> {}',
    '  private tick(): void {}',
    '}',
    '',
  ].join('\n'),
  'src/big.ts': BIG,
  'long/ledger.js': LEDGER,
  // A method and a top-level function of one name; the method's path sorts first.
  'app/server.js': 'class Server {\n  urlFor(name) {\n    return "/" + name;\n  }\n}\nmodule.exports = Server;\n',
  'helpers.js': 'function urlFor(name) {\n  return "/x/" + name;\n}\nmodule.exports = { urlFor };\n',
  // express's request.js: a chained assignment defines both names; `get` is a name here, not a modifier.
  'web/request.js':
    'var req = Object.create(null);\n\nreq.get = req.header = function header(name) {\n  return name.toLowerCase();\n};\n\nmodule.exports = req;\n',
  // No outline: a file indexed as text, and a C++ header the grammar reads only in part.
  'build.gradle': "apply plugin: 'java'\ndependencies {\n  implementation 'x:y:1'\n}\n",
  // Overloads and a type literal inside a function: one name each in a directory's map.
  'ops/bufferTime.ts': [
    'export function bufferTime(span: number): number;',
    'export function bufferTime(span: number, max: number): number;',
    'export function bufferTime(span: number, max?: number): number {',
    '  const record: { buffer: number[]; subs: number } = { buffer: [], subs: 0 };',
    '  return span + (max ?? 0) + record.subs;',
    '}',
    '',
  ].join('\n'),
  // Go methods follow their receiver's type, outside its lines: map names the receiver.
  'hcl/structure.go': [
    'package hcl',
    '',
    'type Body struct {',
    '\tItems []int',
    '}',
    '',
    'func (b *Body) Walk() {}',
    '',
    'func (b *Body) Range() int { return 0 }',
    '',
    'type Attributes map[string]int',
    '',
    'func (a Attributes) Walk() {}',
    '',
    'func (a Attributes) Range() int { return 1 }',
    '',
  ].join('\n'),
  'native/broken.hpp': 'namespace n {\nint ok(int a) { return a; }\nint broken( { return ; }\n}\n',
  // Seven more definitions of `tick`: show sym: lists five under `also`.
  ...Object.fromEntries(
    Array.from({ length: 7 }, (_, i) => [`more/m${i}.ts`, `export function tick(): number {\n  return ${i};\n}\n`]),
  ),
};

let repo: IndexedRepo;
const at = (more: Partial<CommandOptions> = {}) => repo.at(more);
const lines = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  repo = await indexedRepo('tp-nav-lines-', FILES, { format: 'lines' });
});

describe('map', () => {
  it("names a method bare after another method's local function", async () => {
    // eslint-scope's ScopeManager: `acquire` holds a local `predicate`; `acquireAll` after it
    // read `ScopeManager::acquireAll` while every other method was bare (an agent trial).
    const repo = await indexedRepo('tp-map-local-', {
      'lib/manager.js': [
        'class Manager {',
        '  acquire(node) {',
        '    function predicate(scope) {',
        '      return scope.node === node;',
        '    }',
        '    return predicate;',
        '  }',
        '  acquireAll(node) {',
        '    return node;',
        '  }',
        '}',
        'module.exports = Manager;',
        '',
      ].join('\n'),
    });
    const rows = lines((await mapCommand(['lib/manager.js'], repo.at())).stdout).slice(1, 5);
    expect(rows).toEqual([
      '1 1-11 class Manager',
      '2 2-7 method acquire',
      '3 3-5 function acquire::predicate',
      '4 8-10 method acquireAll',
    ]);
  });

  it('prints one short row per item: LINE-END, modifiers, kind, name; #private and its public namesake differ', async () => {
    const out = await mapCommand(['lib/bucket.js'], at());
    const [header, ...rest] = lines(out.stdout);
    // The header names the file; no group line repeats it (before: a second line `lib/bucket.js`).
    expect(header).toMatch(/^map lib\/bucket\.js {2}\(show [0-9a-z]{6,}:N reads row N\)$/);
    expect(rest).toEqual([
      '1 1-25 class TokenBucket',
      '2 3-5 static method create',
      '3 6-8 method constructor',
      '4 9-12 async method refill',
      '5 13-15 get method level',
      '6 16-18 set method level',
      '7 19-21 method #drain',
      '8 22-24 method drain',
      '9 2 field #count',
      'coverage: 9 items',
    ]);
    // The require binding at the end of the file is not an item.
    const page = json(await mapCommand(['lib/bucket.js'], at({ format: 'json', budget: 5000 })));
    const drains = page.hits.filter((h: { name: string }) => h.name === 'TokenBucket::drain');
    expect(drains.map((h: { modifiers?: string[] }) => h.modifiers ?? [])).toEqual([['#'], []]);
    expect(drains.map((h: { start_line: number }) => h.start_line)).toEqual([19, 22]);
    expect(page.hits[3]).toMatchObject({
      name: 'TokenBucket::refill',
      kind: 'method',
      modifiers: ['async'],
      start_line: 9,
      end_line: 12,
    });
  });

  it("says why a file's outline is empty or may be short: indexed as text, parsed partially", async () => {
    expect(lines((await mapCommand(['build.gradle'], at())).stdout).slice(-1)).toEqual([
      'coverage: 0 items; indexed as text: no outline for its language',
    ]);
    const partial = lines((await mapCommand(['native/broken.hpp'], at())).stdout);
    expect(partial[partial.length - 1]).toMatch(
      /^coverage: \d+ items?; parsed partially: definitions in the unparsed parts are missing$/,
    );
    const page = json(await mapCommand(['native/broken.hpp'], at({ format: 'json' })));
    expect(page.coverage.outline).toBe('partial');
    // A whole parse says nothing more.
    expect(lines((await mapCommand(['web/request.js'], at())).stdout).slice(-1)).toEqual(['coverage: 3 items']);
  });

  it('lists both names of a chained assignment, a property named get not taken for a getter', async () => {
    const out = await mapCommand(['web/request.js'], at());
    expect(lines(out.stdout).slice(1)).toEqual([
      '1 1 variable req',
      '2 3-5 method req::get',
      '3 3-5 method header',
      'coverage: 3 items',
    ]);
  });

  it('reads TypeScript modifiers and keeps fields after methods', async () => {
    const rows = lines((await mapCommand(['src/store.ts'], at())).stdout).slice(1, -1);
    expect(rows).toEqual([
      '1 1-7 abstract class Store',
      '2 4 abstract method load',
      '3 5 async method save',
      '4 6 private method tick',
      '5 2 private readonly field name',
      '6 3 protected static field instances',
    ]);
  });

  it("names a Go method's receiver after the receiver's type row, bare after a sibling", async () => {
    const rows = lines((await mapCommand(['hcl/structure.go'], at())).stdout).slice(1, -1);
    expect(rows.filter((r) => !/ (module|field) /.test(r))).toEqual([
      '2 3-5 struct Body',
      '3 7 pointer method Body::Walk',
      '4 9 pointer method Range',
      '5 11 type Attributes',
      '6 13 method Attributes::Walk',
      '7 15 method Range',
    ]);
  });

  it('fits ten times the rows of the old format in the default 600-token page, about 10 tokens a row, and more continues them', async () => {
    const out = await mapCommand(['src/big.ts'], at());
    const text = lines(out.stdout);
    const rows = text.filter((l) => /^\d+ \d+-\d+ function step\d+$/.test(l));
    expect(countTokens(out.stdout)).toBeLessThanOrEqual(600);
    // The old rows (handle, path, span, name, origin) cost ~45 tokens: 13 fit.
    expect(rows.length).toBeGreaterThanOrEqual(55);
    expect(rows[0]).toBe('1 1-3 function step0');
    expect(countTokens(rows.join('\n')) / rows.length).toBeLessThanOrEqual(10);
    const footer = text.find((l) => l.startsWith('next: more '))!;
    // The cursor, then how far the page got and what stopped it, as a search page says.
    expect(footer).toMatch(/^next: more [0-9a-z]+@\d+ \(\d+ of \d+ rows; stopped by -b\)$/);
    const next = footer.split(' ')[2];
    const second = lines((await moreCommand(next, at())).stdout);
    expect(second[1]).toBe(
      `${rows.length + 1} ${3 * rows.length + 1}-${3 * rows.length + 3} function step${rows.length}`,
    );
  });

  it('answers a budget too small for one row with a fitting status and the retry on stderr', async () => {
    const out = await mapCommand(['src/big.ts'], at({ budget: 12 }));
    expect(out.stdout).toMatch(/^status: budget_too_small needed=\d+\n$/);
    const needed = Number(/needed=(\d+)/.exec(out.stdout)![1]);
    expect(out.stderr).toContain(`retry with -b ${needed}`);
    const retry = await mapCommand(['src/big.ts'], at({ budget: needed }));
    expect(lines(retry.stdout)[1]).toBe('1 1-3 function step0');
    expect(countTokens(retry.stdout)).toBeLessThanOrEqual(needed);
  });

  it('lists a prefix as one row per file with its top-level names', async () => {
    const rows = lines((await mapCommand(['lib/'], at())).stdout);
    expect(rows.slice(1)).toEqual(['1 lib/bucket.js 1-26 TokenBucket', 'coverage: 1 file']);
  });

  it("names a file's types first in a directory's map, then its functions, then its values", async () => {
    // Django's csrf.py (an agent trial): 11 constants and `+13` hid CsrfViewMiddleware.
    const csrf = await indexedRepo('tp-map-order-', {
      'middleware/csrf.py': [
        'import logging',
        '',
        'logger = logging.getLogger(__name__)',
        'REASON_NO_REFERER = "Referer checking failed"',
        '',
        '',
        'def get_token(request):',
        '    return request',
        '',
        '',
        'class CsrfViewMiddleware:',
        '    def process_view(self, request):',
        '        return None',
        '',
      ].join('\n'),
    });
    const rows = lines((await mapCommand(['middleware/'], csrf.at({ format: 'lines' }))).stdout);
    expect(rows[1]).toBe('1 middleware/csrf.py 1-13 CsrfViewMiddleware get_token logger REASON_NO_REFERER');
  });

  it("names each of a file's items once in a directory's map, and no field of a type literal", async () => {
    const rows = lines((await mapCommand(['ops/'], at())).stdout);
    expect(rows.slice(1)).toEqual(['1 ops/bufferTime.ts 1-6 bufferTime', 'coverage: 1 file']);
  });
});

describe('refs', () => {
  it('lists code uses first, then the declaration and bindings, then tests, each with its text and enclosing definition', async () => {
    const out = await refsCommand(['TokenBucket'], at());
    expect(lines(out.stdout)).toEqual([
      expect.stringMatching(/^refs TokenBucket → lib\/bucket\.js:1 {2}\(show [0-9a-z]{6,}:N reads row N\)$/),
      'index.js',
      '1 4 reference in make: return TokenBucket.create(1);',
      '2 7 call ×2 in pair: return [new TokenBucket(1), new TokenBucket(2)];',
      '3 9 reference: module.exports = { make, pair, TokenBucket };',
      'lib/bucket.js',
      '4 4 call in TokenBucket::create: return new TokenBucket(size);',
      '5 26 reference: module.exports = TokenBucket;',
      'index.js',
      "6 1 import: const TokenBucket = require('./lib/bucket.js');",
      'lib/bucket.js',
      '7 1 declaration: class TokenBucket {',
      'test/bucket.test.js',
      "8 1 import: const TokenBucket = require('../lib/bucket.js');",
      "9 2 call: test('fills', () => new TokenBucket(1).refill());",
      'coverage: 10 sites in 3 files (10 resolved, 0 candidate, 0 unresolved)',
    ]);
    const page = json(await refsCommand(['TokenBucket'], at({ format: 'json' })));
    expect(page.coverage).toMatchObject({ reference_sites: 10, reference_files: 3 });
    expect(page.hits[1]).toMatchObject({
      path: 'index.js',
      start_line: 7,
      role: 'call',
      resolution: 'resolved',
      definition: 'lib/bucket.js:1',
      within: 'pair',
      repeats: 2,
      text: 'return [new TokenBucket(1), new TokenBucket(2)];',
    });
    expect(page.hits[1].uri).toMatch(/^file:\/\/.*\/index\.js$/);
  });

  it("makes one row of a line's occurrences of one definition, whatever stands between them", async () => {
    const repo = await indexedRepo('tp-refs-line-', {
      'pkg/__init__.py': '',
      'pkg/util.py': 'def run(inst, d, callee=None):\n    return d\n',
      'pkg/runner.py':
        'from . import util\n\n\nclass Runner:\n    def run(self, d):\n        return d\n\n    def bind(self):\n        self.run = lambda d: util.run(self, d, callee=self.run)\n',
    });
    const rows = lines((await refsCommand(['run'], repo.at({ budget: 5000 }))).stdout).filter((r) => /^\d+ 9 /.test(r));
    // Before: `member` (self.run), `call` (util.run), `member` (self.run) again, in column order.
    expect(rows).toEqual([
      '1 9 member ×2 in Runner::bind: self.run = lambda d: util.run(self, d, callee=self.run)',
      '2 9 call → pkg/util.py:1 in Runner::bind: self.run = lambda d: util.run(self, d, callee=self.run)',
    ]);
  });
});

describe('refs of a name nothing uses', () => {
  it('answers 0 sites and names the defined names nearest it, in both formats', async () => {
    const out = await refsCommand(['TokenBuckt'], at());
    expect(out.exitCode).toBe(0);
    expect(lines(out.stdout).at(-1)).toBe(
      'coverage: 0 sites in 0 files (0 resolved, 0 candidate, 0 unresolved); nearest defined: TokenBucket (refs TokenBucket)',
    );
    const page = json(await refsCommand(['TokenBuckt'], at({ format: 'json' })));
    expect(page.coverage).toMatchObject({ reference_sites: 0, nearest_defined: ['TokenBucket'] });
  });
});

describe('refs pages', () => {
  it('name on every page the definition the first page names in its header', async () => {
    // Eight declarations of `tick`, each resolving to its own file: the header's choice
    // depends on all rows, and a later page holds only some of them.
    const first = lines((await refsCommand(['tick'], at({ limit: 3 }))).stdout);
    const header = first[0].replace(/\(show [0-9a-z]+:N/, '(show SET:N');
    const cursor = first.find((l) => l.startsWith('next: more '))!.split(' ')[2];
    const second = lines((await moreCommand(cursor, at({ limit: 3 }))).stdout);
    expect(second[0].replace(/\(show [0-9a-z]+:N/, '(show SET:N')).toBe(header);
    expect(header).toMatch(/^refs tick → \S+:\d+ /);
  });
});

describe('show HANDLE -C N', () => {
  it('reads the lines around a refs row, continues with the same context, and refuses -C where it means nothing', async () => {
    const refs = lines((await refsCommand(['TokenBucket'], at())).stdout);
    const set = refs[0].match(/\(show ([0-9a-z]+):N/)![1];
    // Row 2 is index.js line 7, `return [new TokenBucket(1), new TokenBucket(2)];`.
    const around = lines((await showCommand(`${set}:2`, at({ context: 2 }))).stdout);
    expect(around).toEqual([
      `${set}:2  index.js:5-9`,
      '5\t}',
      '6\tfunction pair() {',
      '7\t  return [new TokenBucket(1), new TokenBucket(2)];',
      '8\t}',
      '9\tmodule.exports = { make, pair, TokenBucket };',
    ]);
    const cut = lines((await showCommand(`${set}:2`, at({ context: 2, budget: 40 }))).stdout);
    const next = cut.find((l) => l.startsWith('next: show '))!.slice('next: show '.length);
    expect(next).toMatch(new RegExp(`^${set}:2~\\d+ -C 2$`));
    // The continuation as printed, pasted whole (an MCP target) or given -C again, reads on.
    const pasted = lines((await showCommand(next, at())).stdout);
    const given = lines((await showCommand(next.split(' ')[0], at({ context: 2 }))).stdout);
    expect(pasted).toEqual(given);
    expect(pasted[pasted.length - 1]).toBe('9\tmodule.exports = { make, pair, TokenBucket };');
    const onPath = await showCommand('path:index.js:7', at({ context: 2 }));
    expect(onPath.exitCode).toBe(2);
    expect(onPath.stderr).toMatch(/^trufflepig: bad_arguments: -C widens a handle's span/);
    const tooMany = await showCommand(`${set}:2`, at({ context: 11 }));
    expect(tooMany.stderr).toMatch(/^trufflepig: bad_arguments: -C takes a whole number/);
  });

  it('reads five lines around a refs row without -C (the row itself is already on the refs page), the row alone with -C 0', async () => {
    const refs = lines((await refsCommand(['TokenBucket'], at())).stdout);
    const set = refs[0].match(/\(show ([0-9a-z]+):N/)![1];
    // Row 2 is index.js line 7 of 9: lines 2 to 9.
    const plain = lines((await showCommand(`${set}:2`, at())).stdout);
    expect(plain[0]).toBe(`${set}:2  index.js:2-9`);
    expect(plain.slice(1).map((l) => Number(l.split('\t')[0]))).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const alone = lines((await showCommand(`${set}:2`, at({ context: 0 }))).stdout);
    expect(alone).toEqual([`${set}:2  index.js:7`, '7\t  return [new TokenBucket(1), new TokenBucket(2)];']);
    // A search hit is read as its span, as before.
    const hit = lines((await searchCommand(['sym:make'], at())).stdout)[0].split(/\s+/)[0];
    expect(lines((await showCommand(hit, at())).stdout)[0]).toMatch(/ index\.js:3-5 /);
  });
});

describe('show sym:', () => {
  it('an `also` handle reads its definition with its doc comment, as the best one is read', async () => {
    const repo = await indexedRepo('tp-sym-also-doc-', {
      'src/a/parse.ts': '/** Parses a line. */\nexport function parse(s: string): string {\n  return s;\n}\n',
      'src/b/parse.ts':
        '/** Parses a block, one line at a time. */\nexport function parse(s: string): string {\n  return s;\n}\n',
    });
    const out = lines((await showCommand('sym:parse', repo.at())).stdout);
    expect(out[0]).toMatch(/ {2}src\/a\/parse\.ts:1-4 {2}parse$/);
    const also = out.find((l) => l.startsWith('also: '))!;
    expect(also).toMatch(/^also: [0-9a-z]{6,}:2 src\/b\/parse\.ts:1-4 function parse$/);
    const shown = lines((await showCommand(also.split(' ')[1], repo.at())).stdout);
    expect(shown[1]).toBe('1\t/** Parses a block, one line at a time. */');
  });

  it("reads a class's method over a same-named interface's signature; the contract first only over other types'", async () => {
    // zod ships a v4 `interface ZodType` and a v3 `class ZodType`: `show sym:ZodType::safeParse`
    // read the interface's bodiless signature (a workspace trial).
    const repo = await indexedRepo('tp-sym-contract-', {
      'src/a/store.ts': 'export interface Store {\n  load(key: string): string;\n}\n',
      'src/b/store.ts': 'export class Store {\n  load(key: string): string {\n    return key;\n  }\n}\n',
      'src/c/memory.ts':
        "import { Store } from '../a/store';\n\nexport class Memory implements Store {\n  load(key: string): string {\n    return '';\n  }\n}\n",
    });
    const head = async (words: string) => lines((await showCommand(words, repo.at())).stdout)[0];
    expect(await head('sym:Store::load')).toMatch(/ {2}src\/b\/store\.ts:2-4 {2}Store::load$/);
    expect(await head('sym:load')).toMatch(/ {2}src\/a\/store\.ts:2 {2}Store::load$/);
  });

  it('reads the class, not the require binding, then one refs line', async () => {
    const out = await showCommand('sym:TokenBucket', at());
    const text = lines(out.stdout);
    expect(text[0]).toMatch(/^[0-9a-z]{6,}:1 {2}lib\/bucket\.js:1-25 {2}TokenBucket$/);
    expect(text.slice(-2)).toEqual(['25\t}', 'refs: 10 sites in 3 files (refs TokenBucket)']);
    // The definition's rows, a header naming it and the refs line: nothing else is paid for.
    const rows = text.slice(1, -1).join('\n');
    expect(countTokens(out.stdout) - countTokens(rows)).toBeLessThanOrEqual(35);
    // The refs line counts and names the sites under the filters asked (it had counted the
    // whole index's and dropped them, a trial).
    const filtered = lines((await showCommand('sym:TokenBucket file:lib/', at())).stdout);
    expect(filtered[filtered.length - 1]).toBe('refs: 3 sites in 1 file (refs TokenBucket file:lib/)');
    // A member's line counts every site of the name and says refs lists the owner's (a PHP
    // trial read `19 sites of autoCommit` against refs Configuration::autoCommit's 3).
    const member = lines((await showCommand('sym:TokenBucket::drain', at())).stdout);
    expect(member[member.length - 1]).toMatch(
      /^refs: \d+ sites of the name drain in \d+ files? \(refs TokenBucket::drain lists TokenBucket's\)$/,
    );
  });

  it('prints a long definition as its head, its members and a next that reads the body on', async () => {
    const out = await showCommand('sym:Ledger', at());
    const text = lines(out.stdout);
    // Its doc comment on line 1 is part of it (show sym: reads a short doc comment with a definition).
    const extent = '1-61';
    expect(text[0]).toMatch(new RegExp(`^[0-9a-z]{6,}:1  long/ledger\\.js:${extent}  Ledger$`));
    expect(text.slice(1, 3)).toEqual(['1\t// The ledger.', '2\tclass Ledger {']);
    const next = text.find((l) => l.startsWith('next: show '));
    expect(next).toMatch(/^next: show [0-9a-z]{6,}:1~\d+$/);
    const members = text.find((l) => l.startsWith('members: '));
    expect(members).toBe(
      `members: ${Array.from({ length: 11 }, (_, i) => `${3 + 5 * i} entry${i}`).join(', ')}, 58 static #seal`,
    );
    expect(countTokens(out.stdout)).toBeLessThan(150);
    // The continuation reads the body from the first member on, verified like any handle.
    const body = lines((await showCommand(next!.slice('next: show '.length), at())).stdout);
    expect(body[1]).toBe('3\t  entry0(x) {');
    expect(body).toContain('61\t}');
    const asJson = json(await showCommand('sym:Ledger', at({ format: 'json' })));
    expect(asJson).toMatchObject({ start_line: 1, end_line: 2, extent: { start_line: 1, end_line: 61 } });
    expect(asJson.members[11]).toEqual({
      line: 58,
      end_line: 60,
      kind: 'method',
      name: '#seal',
      modifiers: ['static'],
    });
  });

  it('reads a long type whole when the budget asked for (-b) holds it, and only then', async () => {
    const whole = lines((await showCommand('sym:Ledger', at({ budget: 3000 }))).stdout);
    expect(whole[1]).toBe('1\t// The ledger.');
    expect(whole).toContain('61\t}');
    expect(whole.some((l) => l.startsWith('members: ') || l.startsWith('next: '))).toBe(false);
    // A budget the body does not fit in keeps the head and members.
    const cut = lines((await showCommand('sym:Ledger', at({ budget: 300 }))).stdout);
    expect(cut.some((l) => l.startsWith('members: '))).toBe(true);
    expect(cut).not.toContain('61\t}');
  });

  it('reads the top-level function before a method of the same name', async () => {
    const text = lines((await showCommand('sym:urlFor', at())).stdout);
    expect(text[0]).toMatch(/^[0-9a-z]{6,}:1 {2}helpers\.js:1-3 {2}urlFor$/);
    expect(text).toContainEqual(
      expect.stringMatching(/^also: [0-9a-z]{6,}:2 app\/server\.js:2-4 method Server::urlFor$/),
    );
  });

  it('lists at most five other definitions under also, then says how many more', async () => {
    const text = lines((await showCommand('sym:tick', at())).stdout);
    // The method of Store ranks with the functions; all eight are definitions.
    const also = text.filter((l) => l.startsWith('also: '));
    expect(also).toHaveLength(6);
    expect(
      also.slice(0, 5).every((l) => /^also: [0-9a-z]{6,}:\d+ \S+:\d+-\d+ (function|method) (Store::)?tick$/.test(l)),
    ).toBe(true);
    expect(also[5]).toBe('also: +2 more definitions (search sym:tick)');
    expect(text[text.length - 1]).toBe('refs: 8 sites in 8 files (refs tick)');
  });
});

describe('refs: one row per line', () => {
  it('occurrences of the name with different roles on one line share one row naming every role', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-roles-')));
    const repo = makeRepo(path.join(base, 'repo'), {
      'holder.py':
        'class Holder:\n    def __init__(self, pool):\n        self.pool = pool\n\n    def take(self):\n        pool = self.pool\n        return pool.get()\n',
    });
    const here = { ...at(), cwd: repo, cache: path.join(base, 'cache') };
    expect((await indexCommand(here)).exitCode).toBe(0);
    const rows = lines((await refsCommand(['pool'], here)).stdout).filter((l) => /^\d+ /.test(l));
    // Line 3 holds `self.pool` and `pool` (a declaration line): once.
    expect(rows.filter((r) => r.split(' ')[1] === '3')).toHaveLength(1);
    // `self.pool = pool` in __init__ declares the field Holder::pool (Python extractor 2).
    const line3 = rows.find((r) => r.split(' ')[1] === '3');
    expect(line3).toMatch(/^\d+ 3 (declaration\+reference|reference\+declaration)\b.*: self\.pool = pool$/);
    // Line 6, `pool = self.pool`: the local `pool` is no site of the field (a bare name never
    // means a member in Python), so its row stands apart from the member's.
    const line6 = rows.filter((r) => r.split(' ')[1] === '6');
    expect(line6).toHaveLength(2);
    expect(line6.find((r) => / member /.test(r))).toMatch(/^\d+ 6 member in Holder::take: pool = self\.pool$/);
    expect(line6.find((r) => !/ member /.test(r))).toMatch(
      /^\d+ 6 reference unresolved in Holder::take: pool = self\.pool$/,
    );
    const page = json(await refsCommand(['pool'], { ...here, format: 'json' }));
    const hit = page.hits.find((h: { start_line: number }) => h.start_line === 3);
    expect(hit.roles).toEqual(expect.arrayContaining(['declaration', 'reference']));
    expect(hit.repeats).toBe(2);
  });
});

describe('show sym: of a long function', () => {
  it('reads the body (cut by the budget, continued by next), never a members line: a function is no outline', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-longfn-')));
    const body = Array.from({ length: 50 }, (_, i) => `    total += step_${i}(total)`).join('\n');
    const repo = makeRepo(path.join(base, 'repo'), {
      'work.py': `def long_work(total):\n    """Run every step.\n\n    Each step sees the running total.\n    """\n    def helper(x):\n        return x + 1\n${body}\n    return helper(total)\n`,
    });
    const here = { ...at(), cwd: repo, cache: path.join(base, 'cache') };
    expect((await indexCommand(here)).exitCode).toBe(0);
    const out = lines((await showCommand('sym:long_work', here)).stdout);
    expect(out[0]).toMatch(/^[0-9a-z]{6,}:1 {2}work\.py:1-58 {2}long_work$/);
    expect(out).toContain('6\t    def helper(x):');
    expect(out).toContain('57\t    total += step_49(total)');
    expect(out.some((l) => l.startsWith('members:'))).toBe(false);
  });
});

describe('build output beside its source', () => {
  it("show sym: reads the source, refs resolves to it and lists an example's call and the bundle's copies last", async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-dist-')));
    const merge = 'function mergeConfig(a, b) {\n  return Object.assign({}, a, b);\n}\n';
    const repo = makeRepo(path.join(base, 'repo'), {
      // `dist` sorts before `lib`: only the build-output rule puts the source first.
      'dist/axios.js': `${merge}function request(c) {\n  return mergeConfig({}, c);\n}\n`,
      'lib/mergeConfig.js': `${merge}module.exports = mergeConfig;\n`,
      'web/request.js':
        "const mergeConfig = require('./mergeConfig');\nfunction request(c) {\n  return mergeConfig({}, c);\n}\nmodule.exports = request;\n",
      // `examples` sorts before `lib` and `web`: only the example rule puts its call after theirs.
      'examples/basic.js':
        "const mergeConfig = require('../lib/mergeConfig');\nconsole.log(mergeConfig({ a: 1 }, {}));\n",
    });
    const here = { ...at(), cwd: repo, cache: path.join(base, 'cache') };
    expect((await indexCommand(here)).exitCode).toBe(0);
    const sym = lines((await showCommand('sym:mergeConfig', here)).stdout);
    expect(sym[0]).toMatch(/^[0-9a-z]{6,}:1 {2}lib\/mergeConfig\.js:1-3 {2}mergeConfig$/);
    expect(sym.find((l) => l.startsWith('also:'))).toMatch(/dist\/axios\.js:1-3 function mergeConfig$/);
    const refs = lines((await refsCommand(['mergeConfig'], here)).stdout);
    expect(refs[0]).toMatch(/^refs mergeConfig → lib\/mergeConfig\.js:1 /);
    const files = refs.filter((l) => /^[a-z]+\/[\w.]+$/.test(l));
    expect(files[files.length - 1]).toBe('dist/axios.js');
    // The library's uses, then its declaration and bindings, then the example's sites, then the bundle.
    const rows = refs.filter((l) => /^\d+ \d+ /.test(l));
    expect(rows.slice(0, 2).map((r) => r.replace(/^\d+ \d+ /, ''))).toEqual([
      'reference: module.exports = mergeConfig;',
      'call unresolved in request: return mergeConfig({}, c);',
    ]);
    expect(files.slice(-2)).toEqual(['examples/basic.js', 'dist/axios.js']);
  });
});

describe('refs: what an import binds', () => {
  it('follows a default import to the default export, and an aliased import to its own module', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-imports-')));
    const repo = makeRepo(path.join(base, 'repo'), {
      'lib/dispatch.js': 'export default function dispatch(config) {\n  return config;\n}\n',
      'lib/client.js': "import dispatch from './dispatch.js';\nexport function send(c) {\n  return dispatch(c);\n}\n",
      'pkg/errors.py': 'class SSLError(Exception):\n    pass\n',
      'pkg/adapter.py':
        'from vendorlib.errors import SSLError as _SSLError\nfrom .errors import (\n    SSLError,\n)\n\n\ndef send():\n    raise SSLError()\n',
    });
    const here = { ...at(), cwd: repo, cache: path.join(base, 'cache') };
    expect((await indexCommand(here)).exitCode).toBe(0);
    const js = json(await refsCommand(['dispatch'], { ...here, format: 'json' }));
    const call = js.hits.find((h: { path: string; role: string }) => h.path === 'lib/client.js' && h.role === 'call');
    expect(call).toMatchObject({ resolution: 'resolved', definition: 'lib/dispatch.js:1' });
    expect(js.hits.find((h: { role: string }) => h.role === 'import')).toMatchObject({
      resolution: 'resolved',
      definition: 'lib/dispatch.js:1',
    });
    const py = json(await refsCommand(['SSLError'], { ...here, format: 'json' }));
    const at3 = (line: number) =>
      py.hits.find((h: { path: string; start_line: number }) => h.path === 'pkg/adapter.py' && h.start_line === line);
    expect(at3(8)).toMatchObject({ role: 'call', resolution: 'resolved', definition: 'pkg/errors.py:1' });
    expect(at3(3)).toMatchObject({ role: 'import', resolution: 'resolved', definition: 'pkg/errors.py:1' });
    expect(at3(1)).toMatchObject({ role: 'import', resolution: 'unresolved' });
  });
});

describe('show sym: of a name nothing defines', () => {
  it('names the nearest defined names: another case or separator, then a small edit distance', async () => {
    for (const typed of ['tokenbucket', 'token_bucket', 'TokenBuckt']) {
      const out = await showCommand(`sym:${typed}`, at());
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toContain(`no_definition: no definition of ${typed} is indexed; nearest defined: TokenBucket`);
      expect(out.stderr).toContain('try: show sym:TokenBucket, ');
    }
    const none = await showCommand('sym:qqqzzzxxx', at());
    expect(none.stderr).not.toContain('nearest defined');
  });
});

describe('TypeScript declaration files', () => {
  it('show sym: reads the implementation before the types an index.d.ts gives it', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-dts-')));
    const repo = makeRepo(path.join(base, 'repo'), {
      // `index.d.ts` sorts before `lib/`: only the declaration rule puts the code first.
      'index.d.ts': 'export declare class Axios {\n  request(config: unknown): Promise<unknown>;\n}\n',
      'lib/Axios.js':
        'class Axios {\n  request(config) {\n    return Promise.resolve(config);\n  }\n}\nmodule.exports = Axios;\n',
    });
    const here = { ...at(), cwd: repo, cache: path.join(base, 'cache') };
    expect((await indexCommand(here)).exitCode).toBe(0);
    const sym = lines((await showCommand('sym:Axios', here)).stdout);
    expect(sym[0]).toMatch(/^[0-9a-z]{6,}:1 {2}lib\/Axios\.js:1-5 {2}Axios$/);
    expect(sym.some((l) => /^also: \S+ index\.d\.ts:1-3 class Axios$/.test(l))).toBe(true);
  });
});
