// Rust items written inside `macro_rules!` templates, shaped like regex 1.7.1's
// src/re_builder.rs: `pub struct RegexBuilder` and its impl live in `define_builder!`,
// which tree-sitter leaves as token trees. They are definitions; `$name` never is.
import { extractFile, type Extraction } from '../src';
import { roleNames } from '../src/extract/facts';
import { Fixture } from './helpers';

const RE_BUILDER = `/// Options shared by every builder (naïve about nothing).
pub struct RegexOptions {
    pub pats: Vec<String>,
}

macro_rules! define_builder {
    ($name:ident, $regex_mod:ident, $only_utf8:expr) => {
        pub mod $name {
            use super::RegexOptions;
            use crate::$regex_mod::Regex;

            /// A configurable builder for a regular expression (« é »).
            #[derive(Debug)]
            pub struct RegexBuilder(RegexOptions);

            impl RegexBuilder {
                /// Create a new regular expression builder.
                pub fn new(pattern: &str) -> RegexBuilder {
                    let mut builder = RegexBuilder(RegexOptions::default());
                    builder.0.pats.push(pattern.to_owned());
                    builder
                }

                pub fn build(&self) -> Result<Regex, Error> {
                    ExecBuilder::new_options(self.0.clone())
                        .only_utf8($only_utf8)
                        .build()
                }
            }
        }
    };
}

define_builder!(bytes, re_bytes, false);
define_builder!(unicode, re_unicode, true);
`;

function defs(x: Extraction): string[] {
  return x.definitions.map(
    (d) => `${d.container ? d.container + '::' : ''}${d.name}:${d.kind}@${d.startLine}-${d.endLine}`,
  );
}

function text(bytes: Buffer, d: { start: number; end: number }): string {
  return bytes.subarray(d.start, d.end).toString('utf8');
}

describe('definitions inside macro_rules! templates', () => {
  const bytes = Buffer.from(RE_BUILDER, 'utf8');
  const x = extractFile('rust', bytes);

  it('finds the struct and the methods of its impl, owned by the struct', () => {
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'RegexOptions:struct@2-4',
      'RegexOptions::pats:field@3-3',
      'define_builder:macro@6-32',
      // `mod $name` has no name to own them: the struct has no owner.
      'RegexBuilder:struct@14-14',
      'RegexBuilder::new:method@18-22',
      'RegexBuilder::build:method@24-28',
    ]);
  });

  it('spans each item from its visibility to its closing brace or semicolon, in bytes', () => {
    const at = (name: string) => x.definitions.find((d) => d.name === name)!;
    expect(text(bytes, at('RegexBuilder'))).toBe('pub struct RegexBuilder(RegexOptions);');
    const build = text(bytes, at('build'));
    expect(build.startsWith('pub fn build(&self) -> Result<Regex, Error> {')).toBe(true);
    expect(build.endsWith('.build()\n                }')).toBe(true);
    for (const d of x.definitions) expect(text(bytes, { start: d.nameStart, end: d.nameEnd })).toBe(d.name);
  });

  it('keeps the uses of those names: the name token declares, the others still refer', () => {
    const use = x.names.find((n) => n.name === 'RegexBuilder')!;
    // `RegexBuilder(RegexOptions::default())` in the template constructs one, and
    // `ExecBuilder::new_options(...)` calls: calls (Rust extractor 4).
    expect(roleNames(use.roles)).toEqual(['declaration', 'call', 'reference']);
    expect(use.count).toBe(4);
    expect(use.line).toBe(14);
    expect(roleNames(x.names.find((n) => n.name === 'new_options')!.roles)).toEqual(['call']);
  });

  it('never takes a metavariable for a name', () => {
    const src = [
      'macro_rules! make {',
      '    ($name:ident, $t:ty) => {',
      '        pub struct $name;',
      '        impl $name { pub fn get(&self) -> u8 { 0 } }',
      '        impl core::fmt::Display for $t { fn fmt(&self) {} }',
      '        fn $name() {}',
      '        pub(crate) const $name: u8 = 1;',
      '    };',
      '}',
      '',
    ].join('\n');
    const y = extractFile('rust', Buffer.from(src));
    expect(defs(y)).toEqual(['make:macro@1-9']);
  });

  it('calls a function of spliced impl members a method when it takes self, with no owner it cannot name', () => {
    const src = [
      'macro_rules! int_impl_common {',
      '    ($ty:ty) => {',
      '        const BITS: u32 = 8;',
      "        fn wrapping_add<F: Fn(u8)>(&'a mut self, other: Self) -> Self { self }",
      '        fn from_bool(b: bool) -> Self { b as $ty }',
      '    };',
      '}',
      'macro_rules! int_impl { ($ty:ty) => { impl Int for $ty { int_impl_common!($ty); } }; }',
      '',
    ].join('\n');
    expect(defs(extractFile('rust', Buffer.from(src)))).toEqual([
      'int_impl_common:macro@1-7',
      'BITS:constant@3-3',
      'wrapping_add:method@4-4',
      'from_bool:function@5-5',
      'int_impl:macro@8-8',
    ]);
  });

  it('reads qualified items and leaves type positions and matchers alone', () => {
    const src = [
      'macro_rules! kinds {',
      '    (struct $n:ident) => {',
      '        $vis struct Pair<T: Into<Vec<u8>>> where T: Clone { a: T }',
      "        impl<'a, T> ::std::fmt::Debug for &'a Pair<T> { fn fmt(&self) -> Result<Vec<Vec<u8>>, ()> { todo!() } }",
      '        pub(crate) const unsafe fn make() -> impl Iterator<Item = u8> { fn inner() {} }',
      '        pub mod shapes { pub trait Area { fn area(&self) -> f64; } }',
      '        static mut COUNT: u32 = 0;',
      '        const ORIGIN: Point = Point { x: 0, y: 0 };',
      '        type Callback = fn(u8) -> u8;',
      '        macro_rules! nested { (enum Matcher) => { enum Real {} }; }',
      '    };',
      '}',
      '',
    ].join('\n');
    const y = extractFile('rust', Buffer.from(src));
    expect(defs(y)).toEqual([
      'kinds:macro@1-12',
      'Pair:struct@3-3',
      'Pair::fmt:method@4-4',
      'make:function@5-5',
      'make::inner:function@5-5',
      'shapes:module@6-6',
      'shapes::Area:trait@6-6',
      'Area::area:method@6-6',
      'COUNT:variable@7-7',
      'ORIGIN:constant@8-8',
      'Callback:type@9-9',
      'Real:enum@10-10',
    ]);
    const origin = y.definitions.find((d) => d.name === 'ORIGIN')!;
    expect(src.slice(origin.start, origin.end)).toBe('const ORIGIN: Point = Point { x: 0, y: 0 };');
  });
});

describe('macro_rules! definitions through the index', () => {
  const fx = new Fixture('rust-templates', {
    'src/re_builder.rs': RE_BUILDER,
    'src/lib.rs': 'pub use crate::re_builder::unicode::RegexBuilder;\n',
  });

  it('stores them, and sym: finds the struct', async () => {
    await fx.index();
    const reader = await fx.open();
    try {
      expect(
        reader.definitions('RegexBuilder').map((d) => `${d.file.path}:${d.startLine} ${d.kind} ${d.container}`),
      ).toEqual(['src/re_builder.rs:14 struct null']);
      expect(
        reader.definitions('new', { container: 'RegexBuilder' }).map((d) => `${d.startLine}-${d.endLine}`),
      ).toEqual(['18-22']);
    } finally {
      reader.close();
    }
    expect((await fx.search('sym:RegexBuilder')).hits[0]).toMatchObject({ path: 'src/re_builder.rs', kind: 'struct' });
  });
});
