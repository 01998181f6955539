// Real tree-sitter (and DreamMaker scanner) extraction of the committed language fixtures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { extractFile, extractOccurrences, languageOf, type Extraction } from '../src';
import { prepareLuau } from '../src/extract/lang/luau';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function extract(rel: string): { x: Extraction; bytes: Buffer } {
  const bytes = fs.readFileSync(path.join(FIXTURES, rel));
  return { x: extractFile(languageOf(rel), bytes), bytes };
}

function defs(x: Extraction): string[] {
  return x.definitions.map((d) => `${d.kind} ${d.container ? d.container + '::' : ''}${d.name}`);
}

/** Every definition's name span points at its name's bytes. */
function expectExactNames(x: Extraction, bytes: Buffer): void {
  for (const d of x.definitions) expect(bytes.subarray(d.nameStart, d.nameEnd).toString('utf8')).toBe(d.name);
}

describe.each([
  [
    'csharp/Inventory.cs',
    [
      'module Shop.Inventory',
      'interface IStockable',
      'class Product::Builder',
      'method Builder::WithSku',
      'variant Category::Service',
      'property Product::Sku',
      'constant Product::MaxNameLength',
      'struct StockLevel',
      'class PriceChange',
      'type StockChanged',
      'function Export::Indent',
    ],
  ],
  [
    'java/com/acme/orders/OrderService.java',
    [
      'module com.acme.orders',
      'class OrderService',
      'enum OrderService::Status',
      'variant Status::SHIPPED',
      'method Status::label',
      'class OrderService::Line',
      'constant OrderLookup::DEFAULT_PAGE',
      'interface Service',
      'method Repository::mapAll',
    ],
  ],
  [
    'go/cache/cache.go',
    [
      'module cache',
      'constant MaxEntries',
      'variable hits',
      'interface Store',
      'method Store::Get',
      'struct LRU',
      'field LRU::items',
      'method LRU::Get',
      'type Loader',
      'type Duration',
      'method Stats::String',
    ],
  ],
  [
    'python/billing/invoices.py',
    [
      'constant DEFAULT_CURRENCY',
      'type Money',
      'class Status',
      'variant Status::PAID',
      'method Status::is_open',
      'field Invoice::lines',
      'class Invoice::Meta',
      'method InvoiceService::send',
      'function overdue::is_late',
      'function render',
    ],
  ],
  [
    'php/app/Models/User.php',
    [
      'module App\\Models',
      'constant DEFAULT_ROLE',
      'interface Authenticatable',
      'trait HasTimestamps',
      'enum Role',
      'variant Role::Admin',
      'class User',
      'property User::id',
      'property User::email',
      'method User::register',
      'function user_display_name',
    ],
  ],
  ['php/resources/profile.phtml', ['function profile_link']],
  [
    'luau/src/Signal.luau',
    [
      'type Connection',
      'type Signal',
      'type Map',
      'constant MAX_LISTENERS',
      'function newId',
      'function Signal::new',
      'method Signal::Connect',
      'method Signal::Fire',
      'field Signal::__index',
    ],
  ],
  [
    'luau/src/Scheduler.lua',
    [
      'function drain',
      'function Scheduler::defer',
      'function Scheduler::flush',
      'method Scheduler::size',
      'constant DEFAULT_BUDGET',
    ],
  ],
  [
    'dreammaker/code/controllers/subsystem.dm',
    [
      'class /datum::controller',
      'method /datum/controller::fire',
      'field /datum/controller/subsystem::priority',
      'constant /datum/controller/subsystem::MAX_QUEUE',
      'method /datum/controller/subsystem::process_one',
      'class /datum/controller/subsystem::garbage',
      'method /datum/controller/subsystem/garbage::fire',
      'method /datum/controller/subsystem::set_flag',
    ],
  ],
  [
    'dreammaker/code/_defines.dm',
    [
      'macro CLAMP',
      'variable all_crayons',
      'constant MAX_DRAWINGS_PER_TURF',
      'function log_drawing',
      'function random_colour',
    ],
  ],
  [
    'c/include/linux/sched.h',
    [
      'macro task_is_running',
      'enum pid_type',
      'variant pid_type::PIDTYPE_PID',
      'struct task_struct',
      'field task_struct::real_parent',
      'field task_struct::pid',
      'struct pid_range_t',
      'type task_fn',
      'prototype schedule',
      'function task_nice',
      'function need_resched',
    ],
  ],
  [
    'c/kernel/sched/core.c',
    [
      'constant sched_nr_migrate',
      'variable sysctl_sched_rt_runtime',
      'prototype try_to_wake_up',
      'function __schedule',
      'function schedule',
      'function __task_rq_lock',
      'function try_to_wake_up',
      'prototype sched_warn',
    ],
  ],
  [
    'cpp/src/widget.hpp',
    [
      'module ui',
      'module ui::detail',
      'prototype detail::clamp',
      'enum ui::Align',
      'class ui::Widget',
      'type Widget::Children',
      'prototype Widget::~Widget',
      'method Widget::name',
      'class ui::Box',
      'method Box::get',
      'function ui::max_of',
    ],
  ],
  [
    'ruby/lib/shop/cart.rb',
    [
      'module Shop',
      'class Shop::Cart',
      'constant Cart::MAX_ITEMS',
      'property Cart::items',
      'method Cart::from_json',
      'method Cart::empty',
      'method Cart::empty?',
      'method Cart::count',
      'method Cart::length',
      'method Cart::size',
      'class Cart::Line',
    ],
  ],
  [
    'cpp/src/widget.cpp',
    [
      'function detail::clamp',
      'method Point::norm',
      'method Widget::Widget',
      'method Widget::~Widget',
      'method Box::draw',
      'function main',
    ],
  ],
])('%s', (rel, expected) => {
  const { x, bytes } = extract(rel);
  it('parses cleanly and finds the key definitions with kinds and owners', () => {
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(expect.arrayContaining(expected));
    expectExactNames(x, bytes);
  });
});

describe('C# members without an identifier name', () => {
  it('reads operators, conversion operators, indexers and destructors as written, spans exact', () => {
    // newtonsoft-json's JToken: 72 conversion operators over lines 462-1240 were no
    // definitions, and the calls inside them were `in JToken` (an agent trial).
    const bytes = Buffer.from(
      'class A {\n' +
        ' public static A operator +(A a, A b) => a;\n' +
        ' public static bool operator ==(A a, A b) { return Equals(a, b); }\n' +
        ' public static explicit operator int(A a) => 1;\n' +
        ' public int this[int i] { get { return Lookup(i); } }\n' +
        ' ~A() { Dispose(); }\n' +
        '}\n',
    );
    const x = extractFile('csharp', bytes);
    expect(x.parse).toBe('ok');
    // An operator is named as C++ names one, whatever its spacing (operator-name.ts); its
    // span is the source's spelling.
    expect(defs(x)).toEqual([
      'class A',
      'method A::operator+',
      'method A::operator==',
      'method A::operator int',
      'property A::this',
      'method A::~A',
    ]);
    for (const d of x.definitions)
      expect(
        bytes
          .subarray(d.nameStart, d.nameEnd)
          .toString('utf8')
          .replace(/operator /, 'operator'),
      ).toBe(d.name.replace(/operator /, 'operator'));
  });
});

describe('imports with spelled paths', () => {
  const spelled = (rel: string) => extract(rel).x.imports.map((i) => `${i.spelled}|${i.name ?? ''}|${i.alias ?? ''}`);
  it('C#, Java, Go, Python, PHP, Lua, Ruby and DreamMaker', () => {
    expect(spelled('csharp/Inventory.cs')).toEqual(
      expect.arrayContaining([
        'System.Collections.Generic||',
        'System.Math|*|',
        'System.Text.Json.JsonSerializer||Json',
      ]),
    );
    expect(spelled('java/com/acme/orders/OrderService.java')).toEqual(
      expect.arrayContaining([
        'java.math.BigDecimal|BigDecimal|',
        'java.util|*|',
        'java.util.Objects.requireNonNull|requireNonNull|',
      ]),
    );
    expect(spelled('go/cache/cache.go')).toEqual(
      expect.arrayContaining(['container/list||', 'github.com/acme/logging||log']),
    );
    expect(spelled('python/billing/invoices.py')).toEqual(
      expect.arrayContaining(['os.path||osp', 'dataclasses|field|', '.models|LineItem|Line', '..core.events|*|']),
    );
    expect(spelled('php/app/Models/User.php')).toEqual(
      expect.arrayContaining([
        'App\\Contracts\\HasRoles|HasRoles|',
        'App\\Contracts\\Notifiable|Notifiable|CanNotify',
        'Illuminate\\Database\\Eloquent\\Model|Model|',
        'App\\Support\\audit|audit|',
      ]),
    );
    expect(spelled('luau/src/Signal.luau')).toEqual(['script.Parent.Types||Types', './Scheduler||Scheduler']);
    // A required file's names all become visible (a glob); autoload binds one constant.
    expect(spelled('ruby/lib/shop.rb')).toEqual(['json|*|', './shop/cart|*|', 'shop/ledger|Ledger|']);
    expect(spelled('dreammaker/station.dme')).toEqual(
      expect.arrayContaining(['code\\_defines.dm||', 'code\\game\\objects\\crayons.dm||']),
    );
  });

  it('Rust use trees and TS re-exports', () => {
    const rust = extractFile('rust', Buffer.from('pub use crate::a::{b, c::D as E, f::*};\nuse std::io;\n')).imports;
    expect(rust.map((i) => `${i.spelled}|${i.name}|${i.alias ?? ''}|${i.reexport}`)).toEqual([
      'crate::a::b|b||true',
      'crate::a::c::D|D|E|true',
      'crate::a::f|*||true',
      'std::io|io||false',
    ]);
    const ts = extractFile(
      'typescript',
      Buffer.from("import D, { a as b } from './x';\nexport { c } from '../y';\nexport * from './z';\n"),
    ).imports;
    expect(ts.map((i) => `${i.spelled}|${i.name}|${i.alias ?? ''}|${i.reexport}`)).toEqual([
      './x|default|D|false',
      './x|a|b|false',
      '../y|c||true',
      './z|*||true',
    ]);
  });
});

describe('occurrence roles', () => {
  const roleAt = (rel: string, name: string, line: number) => {
    const bytes = fs.readFileSync(path.join(FIXTURES, rel));
    return extractOccurrences(languageOf(rel), bytes)
      .filter((o) => o.name === name && o.line === line)
      .map((o) => o.role);
  };
  it('tells calls, types, members, modules and declarations apart', () => {
    expect(roleAt('go/cache/cache.go', 'time', 18)).toEqual(['module']);
    expect(roleAt('go/cache/cache.go', 'Errorf', 92)).toEqual(['call']);
    expect(roleAt('csharp/Inventory.cs', 'Product', 91)).toEqual(['type']);
    expect(roleAt('python/billing/invoices.py', 'render', 99)).toEqual(['declaration']);
    expect(roleAt('luau/src/Signal.luau', 'Map', 34)).toEqual(['type']);
    expect(roleAt('dreammaker/code/game/objects/crayons.dm', 'to_chat', 26)).toEqual(['call']);
    expect(roleAt('ruby/lib/shop/cart.rb', 'JSON', 30)).toEqual(['type']);
    expect(roleAt('ruby/lib/shop/cart.rb', 'parse', 30)).toEqual(['call']);
  });
});

describe('TypeScript and JavaScript parameters', () => {
  // rxjs (an agent trial): `valueTransform = identity` was a `local` site, so `ctx` of
  // identity missed the caller; `constructor(private partialObserver)` defined no member.
  const ts = Buffer.from(
    [
      'import { identity } from "./identity";',
      'export function init(a: number, valueTransform: (v: any) => any = identity, b?: Opts) {',
      '  return valueTransform(a);',
      '}',
      'class Consumer {',
      '  constructor(private partialObserver: Observer, readonly label: string, plain: number) {}',
      '}',
      '',
    ].join('\n'),
  );
  const js = Buffer.from('function init(a, valueTransform = identity, ...rest) { return a; }\n');
  const rolesOf = (lang: 'typescript' | 'javascript', bytes: Buffer, name: string) =>
    extractOccurrences(lang, bytes)
      .filter((o) => o.name === name)
      .map((o) => `${o.line} ${o.role}`);

  it("reads a default value as a use, the parameter's own name as local", () => {
    expect(rolesOf('typescript', ts, 'identity')).toEqual(['1 import', '2 reference']);
    expect(rolesOf('typescript', ts, 'valueTransform')).toEqual(['2 local', '3 call']);
    expect(rolesOf('typescript', ts, 'Opts')).toEqual(['2 type']);
    expect(rolesOf('javascript', js, 'identity')).toEqual(['1 reference']);
    expect(rolesOf('javascript', js, 'valueTransform')).toEqual(['1 local']);
    expect(rolesOf('javascript', js, 'rest')).toEqual(['1 local']);
  });

  it('defines the fields a constructor declares with a modifier', () => {
    const d = extractFile('typescript', ts).definitions.filter((x) => x.kind === 'field');
    expect(d.map((x) => `${x.container}::${x.name}`)).toEqual(['Consumer::partialObserver', 'Consumer::label']);
  });
});

describe('Luau blanking', () => {
  it('keeps every offset and turns Luau syntax into Lua the grammar parses', () => {
    const src =
      'export type P<T> = { x: T }\nlocal n: number = 1\nn += 2\nlocal s = if n > 1 then "a" else "b"\nfor i: number = 1, 3 do if i == 2 then continue end end\nlocal v = (n :: any)\n';
    const prepared = prepareLuau(src);
    expect(prepared.text.length).toBe(src.length);
    expect(prepared.text.split('\n').map((l) => l.trimEnd())).toEqual([
      '',
      'local n         = 1',
      'n  = 2',
      'local s =    n > 1 and  "a" or   "b"',
      'for i         = 1, 3 do if i == 2 then break    end end',
      'local v = (n       )',
      '',
    ]);
    expect(prepared.defs.map((d) => d.name)).toEqual(['P']);
    const x = extractFile('luau', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['type P', 'variable n', 'variable s', 'variable v']);
  });
});

describe('Lua module fields', () => {
  it('reads `T.a.x = …` and `T["name/with/slashes"] = …` at module level as fields of T, functions when assigned one', () => {
    // Neovim's runtime: `M['textDocument/hover'] = function …` (lsp/handlers.lua), `M.handlers.signs = {…}` (diagnostic.lua).
    const src = [
      'local M = {}',
      'M.handlers = {}',
      "M['textDocument/hover'] = function(_, result) return result end",
      'M["workspace/applyEdit"] = M.apply',
      'M.handlers.signs = { show = function(ns) return ns end }',
      'M.handlers.underline = function(ns) return ns end',
      "M.handlers['x'].y = 1",
      'local function f()',
      "  M['inner/local'] = function() end",
      'end',
      'return M',
    ].join('\n');
    const x = extractFile('luau', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(x.definitions.map((d) => `${d.kind} ${d.container ?? ''}::${d.name} ${d.startLine}`)).toEqual([
      'variable ::M 1',
      'field M::handlers 2',
      'function M::textDocument/hover 3',
      'field M::workspace/applyEdit 4',
      'field M.handlers::signs 5',
      'function M.handlers::underline 6',
      'function ::f 8',
    ]);
  });
});

describe('parse failures keep lexical coverage', () => {
  it.each([
    ['csharp', 'class A { void M( { }'],
    ['java', 'class A { void m( }'],
    ['go', 'package p\nfunc F( {\n'],
    ['python', 'def f(:\n    pass\n'],
    ['php', '<?php class { function }'],
    ['luau', 'local function f(\n'],
    ['dreammaker', '/obj/item{\n\tname = "x"\n'],
  ] as const)('%s: a broken file is partial, still has regions', (lang, src) => {
    const x = extractFile(lang, Buffer.from(src));
    expect(x.parse).toBe('partial');
    expect(x.regions.length).toBeGreaterThan(0);
  });
});

describe('Go embedded fields and the blank identifier', () => {
  // zap 1.23 (an agent trial): `map` and `ctx` of `sampler` left out its embedded `Core`,
  // and listed `var _ Core = (*sampler)(nil)` assertions as variables named `_`.
  const source = [
    'package zapcore',
    '',
    'type sampler struct {',
    '\tCore',
    '\t*EncoderConfig',
    '\tio.Writer',
    '\tList[int]',
    '\tcounts int',
    '}',
    '',
    'var _ Core = (*sampler)(nil)',
    'var a, _ = 1, 2',
    'const _ = 3',
    '',
  ].join('\n');
  const bytes = Buffer.from(source);
  const x = extractFile(languageOf('zapcore/sampler.go'), bytes);

  it('an embedded field is a field named by its type', () => {
    expect(defs(x)).toEqual(
      expect.arrayContaining([
        'field sampler::Core',
        'field sampler::EncoderConfig',
        'field sampler::Writer',
        'field sampler::List',
        'field sampler::counts',
      ]),
    );
    expectExactNames(x, bytes);
  });

  it('a generic function called with type arguments is a call', () => {
    const generic = Buffer.from(
      'package a\n\nfunc f() {\n\tObjectValues[emptyObject]("", nil)\n\tzapcore.Objects[*T]("", nil)\n}\n',
    );
    const occurrences = extractOccurrences(languageOf('a/f.go'), generic);
    const roles = (name: string) => occurrences.filter((o) => o.name === name).map((o) => o.role);
    expect(roles('ObjectValues')).toEqual(['call']);
    expect(roles('Objects')).toEqual(['call']);
  });

  it('the blank identifier defines nothing', () => {
    expect(defs(x).filter((d) => d.endsWith(' _'))).toEqual([]);
    expect(defs(x)).toContain('variable a');
  });
});
