// The owner of a method in an impl for a reference type with a lifetime (regex's
// `impl<'r, 't> Pattern<'t> for &'r Regex`) is the type, not `'r Regex`.
import { extractFile } from '../src';

test('impl for a reference with a lifetime owns its methods by the type name', () => {
  const src =
    "pub struct Regex;\nimpl<'r, 't> Pattern<'t> for &'r Regex {\n    fn into_searcher(self, h: &'t str) {}\n}\nimpl<'a> Index for &'a mut Regex {\n    fn at(&self) {}\n}\n";
  const x = extractFile('rust', Buffer.from(src, 'utf8'));
  expect(x.parse).toBe('ok');
  expect(x.definitions.map((d) => `${d.container ?? ''}::${d.name}:${d.kind}`)).toEqual([
    '::Regex:struct',
    'Regex::into_searcher:method',
    'Regex::at:method',
  ]);
});
