import { extractFile } from '../src';
import { ROLE, roleNames } from '../src/extract/facts';
import { defs, expectExactSpans, roles } from './extraction';

const RUST = `//! crate docs
use std::collections::HashMap;
pub const LIMIT: usize = 4;
pub mod inner { pub fn helper() {} }
macro_rules! shout { () => {} }
pub struct Bucket { tokens: u32, cap: u32 }
pub enum Color { Red, Green(u8) }
pub trait Refill { fn refill(&mut self); }
impl Refill for Bucket {
    fn refill(&mut self) {
        let n = self.tokens;
        helper(n);
        inner::helper();
        let m: HashMap<u32, Color> = HashMap::new();
    }
}
impl<T> Wrapper<T> { pub fn new() -> Self { todo!() } }
`;

describe('Rust extraction', () => {
  const bytes = Buffer.from(RUST);
  const x = extractFile('rust', bytes);

  it('finds items with kinds and owners', () => {
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'LIMIT:constant',
      'inner:module',
      'inner::helper:function',
      'shout:macro',
      'Bucket:struct',
      'Bucket::tokens:field',
      'Bucket::cap:field',
      'Color:enum',
      'Color::Red:variant',
      'Color::Green:variant',
      'Refill:trait',
      'Refill::refill:method',
      'Bucket::refill:method',
      'Wrapper::new:method',
    ]);
    expectExactSpans(bytes, x.definitions);
  });

  it('records lines and whole-item spans', () => {
    const bucket = x.definitions.find((d) => d.name === 'Bucket')!;
    expect(bytes.subarray(bucket.start, bucket.end).toString()).toBe('pub struct Bucket { tokens: u32, cap: u32 }');
    expect(bucket.startLine).toBe(6);
    const impl = x.definitions.find((d) => d.name === 'refill' && d.container === 'Bucket')!;
    expect(impl.startLine).toBe(10);
    expect(impl.endLine).toBe(15);
  });

  it('classifies occurrence roles', () => {
    expect(roles(x, 'HashMap')).toEqual(expect.arrayContaining(['import', 'type']));
    expect(roles(x, 'helper')).toEqual(['declaration', 'call']);
    expect(roles(x, 'n')).toContain('local');
    expect(roles(x, 'tokens')).toEqual(['declaration', 'member']);
    expect(roles(x, 'inner')).toEqual(['declaration', 'module']);
    expect(roles(x, 'todo')).toEqual(['call']);
    expect(roles(x, 'Wrapper')).toEqual(['type']);
  });

  it("reads a name before `(` inside a macro's token tree as a call, not an index or a value", () => {
    // tokio: `ready!(crate::runtime::coop::poll_proceed(cx))` at 20 sites were references.
    const src = Buffer.from(
      'fn f(cx: u8, arr: [u8; 2], i: usize) {\n    ready!(crate::coop::poll_proceed(cx));\n    vec![arr[i], budget];\n}\n',
    );
    const y = extractFile('rust', src);
    expect(roles(y, 'poll_proceed')).toEqual(['call']);
    expect(roles(y, 'arr')).not.toContain('call');
    expect(roles(y, 'budget')).not.toContain('call');
  });

  it('reads a turbofish call as a call: x.f::<T>(), f::<T>(), a::f::<T>()', () => {
    // hyper's `self.state.try_keep_alive::<T>()` was a member read: ctx had no callee for it.
    const y = extractFile(
      'rust',
      Buffer.from('fn f() {\n    self.state.keep::<T>();\n    parse::<u8>(1);\n    a::b::<T>();\n}\n'),
    );
    expect(roles(y, 'keep')).toEqual(['call']);
    expect(roles(y, 'parse')).toEqual(['call']);
    expect(roles(y, 'b')).toEqual(['call']);
  });

  it('represents a name by its declaration even when a use comes first', () => {
    const src = Buffer.from('fn a() { later(); }\nfn later() {}\n');
    const y = extractFile('rust', src);
    const later = y.names.find((n) => n.name === 'later')!;
    expect(later.count).toBe(2);
    expect(later.start).toBe(src.indexOf('later() {}'));
    expect(later.line).toBe(2);
  });
});

const TS = `import { a, b as c } from './m';
export interface Shape { area(): number; name: string }
export type Id = string;
export enum Dir { Up, Down = 2 }
export abstract class Base { abstract run(): void }
export class Circle implements Shape { radius = 1; area() { return this.radius * helper(a); } get name() { return 'c'; } }
export const makeIt = () => new Circle();
export function top(x: number): Shape { const local = x; const inner = () => 1; return makeIt(); }
namespace NS { export const inside = 1; }
let plain = 3;
`;

describe('TypeScript, TSX and JavaScript extraction', () => {
  it('finds TypeScript definitions with containers and kinds', () => {
    const bytes = Buffer.from(TS);
    const x = extractFile('typescript', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Shape:interface',
      'Shape::area:method',
      'Shape::name:property',
      'Id:type',
      'Dir:enum',
      'Dir::Up:variant',
      'Dir::Down:variant',
      'Base:class',
      'Base::run:method',
      'Circle:class',
      'Circle::radius:field',
      'Circle::area:method',
      'Circle::name:method',
      'makeIt:function',
      'top:function',
      'NS:module',
      'NS::inside:constant',
      'plain:variable',
    ]);
    expectExactSpans(bytes, x.definitions);
    // Locals of a function body are not definitions.
    expect(x.definitions.some((d) => d.name === 'local' || d.name === 'inner')).toBe(false);
  });

  it('a function signature (a .d.ts declaration, an overload) is a prototype of the function', () => {
    const src =
      'export declare function getAdapter(name: string): unknown;\ndeclare function log(msg: string): void;\nexport function pick(a: string): string;\nexport function pick(a: string): string { return a; }\n';
    const x = extractFile('typescript', Buffer.from(src));
    expect(defs(x)).toEqual(['getAdapter:prototype', 'log:prototype', 'pick:prototype', 'pick:function']);
    expectExactSpans(Buffer.from(src), x.definitions);
  });

  it("a class method's overload signature is a prototype; an interface's or a type literal's method signature is its method", () => {
    // rxjs' Observable declares pipe 11 times before its body: show sym:Observable::pipe printed `pipe(): Observable<T>;`.
    const src = [
      'export class Stream<T> {',
      '  pipe(): Stream<T>;',
      '  pipe<A>(op: (s: T) => A): Stream<A>;',
      '  pipe(...ops: unknown[]): unknown {',
      '    return ops;',
      '  }',
      '}',
      'export interface Sink { push(v: number): void; }',
      'export type Source = { pull(): number };',
      '',
    ].join('\n');
    const x = extractFile('typescript', Buffer.from(src));
    expect(x.definitions.map((d) => `${d.container ? `${d.container}::` : ''}${d.name}:${d.kind}`)).toEqual([
      'Stream:class',
      'Stream::pipe:prototype',
      'Stream::pipe:prototype',
      'Stream::pipe:method',
      'Sink:interface',
      'Sink::push:method',
      'Source:type',
      'pull:method',
    ]);
    expectExactSpans(Buffer.from(src), x.definitions);
  });

  it('a named class expression is a class that owns its methods; an anonymous one defines nothing', () => {
    // ESLint's `module.exports = class Cursor {` and espree's `return class Espree extends Parser {`
    // were no definitions: show sym:Cursor said nothing is indexed (an agent trial).
    for (const lang of ['javascript', 'typescript'] as const) {
      const src = [
        'module.exports = class Cursor {',
        '  next() {}',
        '};',
        'function make(Parser) {',
        '  return class Espree extends Parser {',
        '    parse() {}',
        '  };',
        '}',
        'const anon = class {',
        '  run() {}',
        '};',
        '',
      ].join('\n');
      const x = extractFile(lang, Buffer.from(src));
      expect(x.definitions.map((d) => `${d.container ? `${d.container}::` : ''}${d.name}:${d.kind}`)).toEqual([
        'Cursor:class',
        'Cursor::next:method',
        'make:function',
        'make::Espree:class',
        'Espree::parse:method',
        'anon:constant',
        'run:method',
      ]);
      expectExactSpans(Buffer.from(src), x.definitions);
    }
  });

  it('classifies TypeScript occurrence roles', () => {
    const x = extractFile('typescript', Buffer.from(TS));
    expect(roles(x, 'b')).toEqual(['import']);
    expect(roles(x, 'Circle')).toEqual(['declaration', 'call']);
    expect(roles(x, 'Shape')).toEqual(['declaration', 'type']);
    expect(roles(x, 'radius')).toEqual(['declaration', 'member']);
    expect(roles(x, 'helper')).toEqual(['call']);
    expect(roles(x, 'local')).toEqual(['local']);
  });

  it('parses TSX components', () => {
    const src = Buffer.from(
      'export function App() { return <div className="x"><Button onClick={go} /></div>; }\nconst Button = (p: {}) => <b/>;\n',
    );
    const x = extractFile('tsx', src);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['App:function', 'Button:function']);
    expectExactSpans(src, x.definitions);
  });

  it('parses JavaScript classes, fields and functions', () => {
    const src = Buffer.from(
      'class A { #priv = 1; field = 2; m() { return this.#priv; } static s() {} }\nfunction f() {}\nconst g = function() {};\nmodule.exports = { f };\n',
    );
    const x = extractFile('javascript', src);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'A:class',
      'A::priv:field',
      'A::field:field',
      'A::m:method',
      'A::s:method',
      'f:function',
      'g:function',
    ]);
    const priv = x.definitions.find((d) => d.name === 'priv')!;
    expect(src.subarray(priv.nameStart, priv.nameEnd).toString()).toBe('#priv');
    expect(roleNames(x.names.find((n) => n.name === 'f')!.roles)).toContain('declaration');
    expect(x.names.find((n) => n.name === 'f')!.roles & ROLE.declaration).toBe(ROLE.declaration);
  });

  it('reads ES5 definitions: prototype methods, exports, and functions assigned to an object at top level', () => {
    const src = Buffer.from(
      [
        'function Range(raw) { this.raw = raw; }',
        'Range.prototype.parseRange = function (range) {',
        '  return range.trim();',
        '};',
        'Range.prototype.test = (v) => v;',
        'Range.fromString = function (s) { return new Range(s); };',
        'exports.satisfies = function (v, r) { return true; };',
        'module.exports.coerce = function coerce (v) { return v; };',
        'function wire(opts) { opts.callback = function () {}; }',
        'Range.prototype.loose = false;',
        'Range.get = Range.header = function header(name) { return name; };',
        '',
      ].join('\n'),
    );
    const x = extractFile('javascript', src);
    expect(x.parse).toBe('ok');
    // A callback stored on a local object and a data property are not definitions.
    expect(defs(x)).toEqual([
      'Range:function',
      'Range::parseRange:method',
      'Range::test:method',
      'Range::fromString:method',
      'satisfies:function',
      'coerce:function',
      'wire:function',
      'Range::get:method',
      'Range::header:method',
    ]);
    expectExactSpans(src, x.definitions);
    const parse = x.definitions.find((d) => d.name === 'parseRange')!;
    expect(src.subarray(parse.start, parse.end).toString()).toBe(
      'Range.prototype.parseRange = function (range) {\n  return range.trim();\n};',
    );
    // The same forms in TypeScript.
    expect(defs(extractFile('typescript', Buffer.from('Foo.prototype.bar = function (): void {};\n')))).toEqual([
      'Foo::bar:method',
    ]);
  });

  it("reads an object literal's function-valued properties as methods, beside its method syntax, but not an argument's callbacks", () => {
    const src = Buffer.from(
      [
        'const DEFAULT_CONFIG = {',
        "  url: '',",
        '  deserializer: (e: MessageEvent) => JSON.parse(e.data),',
        '  serializer: function (value: unknown) { return JSON.stringify(value); },',
        '  onOpen() {},',
        '};',
        'foo({ success: () => 1 });',
        '',
      ].join('\n'),
    );
    for (const lang of ['typescript', 'javascript'] as const) {
      const x = extractFile(
        lang,
        lang === 'typescript'
          ? src
          : Buffer.from(src.toString().replace(': MessageEvent', '').replace(': unknown', '')),
      );
      expect(defs(x)).toEqual([
        'DEFAULT_CONFIG:constant',
        // Members of an object literal have no owner, `onOpen() {}` as before.
        'deserializer:method',
        'serializer:method',
        'onOpen:method',
      ]);
    }
  });

  it("reads a module-level table's built values as properties, not a local object's, a plain value, nor an alias", () => {
    const src = [
      'const keys = {',
      "  kReplySerializerDefault: Symbol('fastify.replySerializerDefault'),",
      '  kAlias: other,',
      '}',
      "module.exports = { FST_ERR_BAD_STATUS_CODE: createError('FST_ERR_BAD_STATUS_CODE', 'bad'), keys }",
      "const aliases = { home: 'docs', limit: 1024 * 1024 }",
      'function f () {',
      '  const local = { notADefinition: 1 }',
      '  return local',
      '}',
      '',
    ].join('\n');
    // Before, neither key had a definition: `show sym:` said no_definition (an agent trial on fastify).
    for (const lang of ['typescript', 'javascript'] as const)
      expect(defs(extractFile(lang, Buffer.from(src)))).toEqual([
        'keys:constant',
        'kReplySerializerDefault:property',
        'FST_ERR_BAD_STATUS_CODE:property',
        // A plain value is data: `home` stays no defined name.
        'aliases:constant',
        'f:function',
      ]);
  });

  it('reads the methods a factory function puts on the object it builds, not functions stored on a parameter', () => {
    const src = Buffer.from(
      [
        'function usage(yargs) {',
        '  const self = {};',
        '  self.help = function help() { return 1; };',
        '  self.wrap = (cols) => cols;',
        '  if (yargs) {',
        '    self.fail = function (msg) { throw msg; };',
        '  }',
        '  yargs.onDone = function onDone() {};',
        '  return self;',
        '}',
        '',
      ].join('\n'),
    );
    const x = extractFile('javascript', src);
    expect(defs(x)).toEqual(['usage:function', 'self::help:method', 'self::wrap:method', 'self::fail:method']);
    expectExactSpans(src, x.definitions);
    // The prototype and exports forms stay definitions inside a function body (an IIFE).
    const iife = Buffer.from(
      '(function () {\n  function Range(r) { this.r = r; }\n  Range.prototype.test = function (v) { return v; };\n  exports.satisfies = function (v) { return true; };\n})();\n',
    );
    expect(defs(extractFile('javascript', iife))).toEqual([
      'Range:function',
      'Range::test:method',
      'satisfies:function',
    ]);
  });

  it("reads a Python class's instance attributes from self.x = ... in its __init__ only", () => {
    const src = Buffer.from(
      [
        'class Env:',
        '    cache = None',
        '    def __init__(self, auto_reload=True):',
        '        self.auto_reload = auto_reload',
        '        if auto_reload:',
        '            self.loader = None',
        '        def inner():',
        '            self.nope = 1',
        '    def other(self):',
        '        self.later = 2',
        'def free(self):',
        '    self.x = 1',
        '',
      ].join('\n'),
    );
    const x = extractFile('python', src);
    expect(defs(x)).toEqual([
      'Env:class',
      'Env::cache:field',
      'Env::__init__:method',
      'Env::auto_reload:field',
      'Env::loader:field',
      '__init__::inner:function',
      'Env::other:method',
      'free:function',
    ]);
    expectExactSpans(src, x.definitions);
    // The first assignment declares it: not the other branch, nor over a class-level default.
    const twice = Buffer.from(
      [
        'class Loader:',
        '    encoding = "utf-8"',
        '    def __init__(self, archive, encoding=None):',
        '        if archive:',
        '            self._archive = archive',
        '        else:',
        '            self._archive = None',
        '        self.encoding = encoding',
        '',
      ].join('\n'),
    );
    expect(defs(extractFile('python', twice))).toEqual([
      'Loader:class',
      'Loader::encoding:field',
      'Loader::__init__:method',
      'Loader::_archive:field',
    ]);
  });

  it('reads Cls.x = ... at module level as a field of a class the module defines above it', () => {
    // urllib3's `Retry.DEFAULT = Retry(3)` after its decorated class (a workspace trial).
    const src = Buffer.from(
      [
        'import os',
        '',
        '@six.add_metaclass(Meta)',
        'class Retry(object):',
        '    total = 10',
        '',
        'Retry.DEFAULT = Retry(3)',
        'Retry.DEFAULT = Retry(4)',
        'Retry.total = 5',
        'os.sep = "/"',
        'Later.x = 1',
        '',
        'class Later:',
        '    pass',
        '',
        'def f(r):',
        '    Retry.inner = 1',
        '',
      ].join('\n'),
    );
    const x = extractFile('python', src);
    expect(defs(x)).toEqual(['Retry:class', 'Retry::total:field', 'Retry::DEFAULT:field', 'Later:class', 'f:function']);
    expectExactSpans(src, x.definitions);
  });

  it("reads a Python parameter's name as a local, and its default value and annotation as uses", () => {
    // SQLAlchemy's `def __init__(self, bind=None, class_=Session, ...)`: `Session` was a local
    // (the whole parameter list was), so `refs Session` said "local unresolved" in the file
    // defining the class (an agent trial).
    const src = Buffer.from(
      [
        'class Session:',
        '    pass',
        '',
        'def make(bind=None, class_=Session, *args, limit: int = 3, kind: Session, **kw):',
        '    pick = lambda a, fallback=Session: a',
        '    return class_, pick',
        '',
      ].join('\n'),
    );
    const x = extractFile('python', src);
    expect(roles(x, 'Session')).toEqual(expect.arrayContaining(['declaration', 'reference', 'type']));
    expect(roles(x, 'Session')).not.toContain('local');
    for (const name of ['bind', 'args', 'limit', 'kw', 'fallback']) expect(roles(x, name)).toEqual(['local']);
    expect(roles(x, 'class_')).toEqual(expect.arrayContaining(['local', 'reference']));
    expect(roles(x, 'int')).toEqual(['type']);
  });

  it('reads an @overload signature as a prototype, its implementation as the method', () => {
    // starlette's Config.__call__: two stubs, then the body (`show sym:` read the first stub).
    const src = Buffer.from(
      [
        'import typing',
        '',
        'class Config:',
        '    @typing.overload',
        '    def __call__(self, key: str) -> str: ...',
        '',
        '    @overload',
        '    def __call__(self, key: str, cast: int) -> int: ...',
        '',
        '    def __call__(self, key, cast=None):',
        '        return key',
        '',
      ].join('\n'),
    );
    expect(defs(extractFile('python', src))).toEqual([
      'Config:class',
      'Config::__call__:prototype',
      'Config::__call__:prototype',
      'Config::__call__:method',
    ]);
  });

  it("records var X = require('m').Y as an import of Y bound to X, not a variable", () => {
    const src = Buffer.from(
      "var setCharset = require('./utils').setCharset;\nconst mime = require('send').mime;\nvar other = require('x').y.z;\n",
    );
    const x = extractFile('javascript', src);
    expect(defs(x)).toEqual(['other:variable']);
    expect(x.imports.map((i) => [i.spelled, i.name, i.alias])).toEqual([
      ['./utils', 'setCharset', null],
      ['send', 'mime', null],
    ]);
    const aliased = extractFile('javascript', Buffer.from("const charset = require('./utils').setCharset;\n"));
    expect(aliased.imports.map((i) => [i.spelled, i.name, i.alias])).toEqual([['./utils', 'setCharset', 'charset']]);
    expect(defs(aliased)).toEqual([]);
  });
});

describe('C functions under the names a file gives them', () => {
  it('reads strong_alias, weak_alias, versioned_symbol and a renaming #define as definitions of the function', () => {
    // glibc (an agent trial): `show sym:malloc` read ld.so's inline wrapper, not malloc.c's
    // __libc_malloc; `show sym:strlen` its prototype; `__vfprintf_internal` was no definition.
    const src = Buffer.from(
      [
        '#ifndef STRLEN',
        '# define STRLEN strlen',
        '#endif',
        'void *malloc (size_t);',
        '',
        'size_t',
        'STRLEN (const char *str)',
        '{',
        '  return 0;',
        '}',
        '',
        'void *',
        '__libc_malloc (size_t bytes)',
        '{',
        '  return 0;',
        '}',
        'int __new_sem_wait (void *s) { return 0; }',
        '# define LIMIT MAX',
        '',
        'strong_alias (__libc_malloc, __malloc) strong_alias (__libc_malloc, malloc)',
        'weak_alias (__libc_missing, missing)',
        'versioned_symbol (libc, __new_sem_wait, sem_wait, GLIBC_2_1);',
        '',
      ].join('\n'),
    );
    const x = extractFile('c', src);
    const of = (name: string) =>
      x.definitions.filter((d) => d.name === name).map((d) => `${d.kind}@${d.startLine}-${d.endLine}`);
    expect(of('strlen')).toEqual(['function@6-10']);
    expect(of('malloc')).toEqual(['prototype@4-4', 'function@12-16']);
    expect(of('__malloc')).toEqual(['function@12-16']);
    expect(of('sem_wait')).toEqual(['function@17-17']);
    // Nothing the file defines as a function: no definition.
    expect(of('missing')).toEqual([]);
    expect(of('MAX')).toEqual([]);
    // Each is named where the file spells the new name: its declaration site.
    const malloc = x.definitions.find((d) => d.name === 'malloc' && d.kind === 'function')!;
    expect(src.toString('utf8', malloc.nameStart, malloc.nameEnd)).toBe('malloc');
    expect(malloc.startLine).toBe(12);
  });
});

describe('Rust items inside macro invocations', () => {
  it('finds definitions in item-level macro bodies, with exact spans, without double counting uses', () => {
    const src = Buffer.from(
      'cfg_rt! {\n    pub struct JoinHandle<T> { raw: u8 }\n    impl<T> JoinHandle<T> { pub fn abort(&self) {} }\n}\nfn main() { let h: JoinHandle<u8>; }\n',
    );
    const x = extractFile('rust', src);
    expect(defs(x)).toEqual([
      'JoinHandle:struct',
      'JoinHandle::raw:field',
      'JoinHandle::abort:method',
      'main:function',
    ]);
    expectExactSpans(src, x.definitions);
    const use = x.names.find((n) => n.name === 'JoinHandle')!;
    expect(use.count).toBe(3);
    expect(roleNames(use.roles)).toContain('declaration');
    expect(use.start).toBe(src.indexOf('JoinHandle'));
  });

  it("reads each macro body alone when they do not parse together, without the macro's tail after the item", () => {
    // hyper's `ffi_fn! { fn hyper_x(…) -> T { … } ?= default }`: one body's `?=` swallowed
    // the items of the bodies after it, 33 of its 61 C-API functions (an agent trial).
    const src = Buffer.from(
      [
        'ffi_fn! {',
        '    fn hyper_a() -> u8 { 1 }',
        '}',
        'ffi_fn! {',
        '    /// Free it.',
        '    fn hyper_b(x: *mut u8) -> u8 {',
        '        1',
        '    } ?= 0',
        '}',
        'ffi_fn! {',
        '    fn hyper_c() -> u8 { 2 }',
        '}',
        '',
      ].join('\n'),
    );
    const x = extractFile('rust', src);
    expect(defs(x)).toEqual(['hyper_a:function', 'hyper_b:function', 'hyper_c:function']);
    expectExactSpans(src, x.definitions);
  });

  it('reads a macro_rules! defined inside a macro body', () => {
    // hyper's cfg.rs: `cfg_client!` and `cfg_server!` are defined inside `cfg_proto! { … }`,
    // and `show sym:cfg_client` answered no_definition (a Rust trial).
    const src = Buffer.from(
      [
        'macro_rules! cfg_proto {',
        '    ($($item:item)*) => { $($item)* }',
        '}',
        'cfg_proto! {',
        '    macro_rules! cfg_client {',
        '        ($($item:item)*) => { $($item)* }',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    const x = extractFile('rust', src);
    expect(defs(x)).toEqual(['cfg_proto:macro', 'cfg_client:macro']);
    expectExactSpans(src, x.definitions);
  });
});

describe('large files matched in windows', () => {
  it('counts every definition and use once across window edges', () => {
    const parts: string[] = [];
    for (let i = 0; i < 1400; i++) parts.push(`pub fn f${i}(x: u32) -> u32 {\n    helper(x) + ${i}\n}\n`);
    // A multi-line struct straddling the 1500-row window edge, inside a macro body.
    parts.splice(499, 0, 'cfg_x! {\n    pub struct Wide {\n        a: u8,\n        b: u8,\n    }\n}\n');
    const src = Buffer.from(parts.join('') + 'fn helper(v: u32) -> u32 { v }\n');
    expect(src.length).toBeGreaterThan(64 * 1024);
    const x = extractFile('rust', src);
    expect(x.definitions.filter((d) => /^f\d+$/.test(d.name))).toHaveLength(1400);
    expect(x.definitions.filter((d) => d.name === 'Wide')).toHaveLength(1);
    expect(x.definitions.find((d) => d.name === 'a')!.container).toBe('Wide');
    expectExactSpans(src, x.definitions);
    expect(x.names.find((n) => n.name === 'helper')!.count).toBe(1401);
    expect(x.names.find((n) => n.name === 'x')!.count).toBe(2800);
  });
});
