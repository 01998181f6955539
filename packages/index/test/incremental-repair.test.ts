// A repair's rewrite parsed from the edited tree it repairs must give what a parse from
// scratch gives: the same text, every node at the same offsets and points, the same facts.
// Real parses of real grammars; non-ASCII text before, between and after the edited ranges.
import type Parser from 'tree-sitter';
import { parserFor, type TreeSitterLanguage } from '../src/extract/grammars';
import { decodeText, lineStartOffsets } from '../src/extract/text';
import { parseRepaired, treeSitterFacts } from '../src/extract/treesitter';

/** Every node: type, offsets, points, missing flag (toString() names types alone). */
function dump(tree: Parser.Tree): string[] {
  const out: string[] = [];
  const c = tree.walk();
  for (;;) {
    const s = c.startPosition;
    const e = c.endPosition;
    out.push(
      `${c.nodeType} ${c.startIndex}-${c.endIndex} ${s.row}:${s.column}-${e.row}:${e.column}${c.nodeIsMissing ? ' missing' : ''}`,
    );
    if (c.gotoFirstChild()) continue;
    while (!c.gotoNextSibling()) if (!c.gotoParent()) return out;
  }
}

function bothWays(lang: TreeSitterLanguage, source: string) {
  const { parser, spec } = parserFor(lang);
  const full = parseRepaired(parser, spec, source, 'full');
  const incremental = parseRepaired(parser, spec, source, 'incremental');
  expect(incremental.text).toBe(full.text);
  expect(dump(incremental.tree)).toEqual(dump(full.tree));
  const bytes = Buffer.from(source, 'utf8');
  const decoded = decodeText(bytes);
  const lineStarts = lineStartOffsets(bytes);
  expect(treeSitterFacts(lang, decoded, lineStarts, 'incremental')).toEqual(
    treeSitterFacts(lang, decoded, lineStarts, 'full'),
  );
  return { full, parser };
}

const C_ANNOTATED = [
  '/* Größe — 日本語 😀 */',
  'asmlinkage __visible void __sched schedule(void)',
  '{',
  '\tint x = 1; /* ü */',
  '}',
  '',
  '// “quoted” 😀',
  'static noinline __cold int kstrtoull_x(const char *s)',
  '{',
  '\treturn 0; // ñ',
  '}',
  '',
  'struct __packed __aligned(4) hdr { int a; };',
  '/* après 😀 */',
  'int after(void) { return 2; }',
  '',
].join('\r\n');

describe('incremental re-parse of a repair', () => {
  it('gives the full parse on C with several repaired ranges among non-ASCII text and CRLF', () => {
    const { full } = bothWays('c', C_ANNOTATED);
    expect(full.text).not.toBe(C_ANNOTATED); // a rewrite was kept
    expect(full.text).toHaveLength(C_ANNOTATED.length);
  });

  it('gives the full parse on C++ (which parses its repairs whole: spec.incrementalRepair)', () => {
    const cpp = [
      '// Ünïcode ✓',
      '#ifdef __cplusplus',
      'extern "C" {',
      '#endif',
      'EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE int ñame(int a) { return a; } // é',
      '#if defined(A)',
      'void open_a(void) {',
      '#else',
      'void open_b(void) {',
      '#endif',
      '  return;',
      '}',
      '#ifdef __cplusplus',
      '}',
      '#endif',
      'class K { public: int m() const; }; // 😀',
      '',
    ].join('\n');
    const { full } = bothWays('cpp', cpp);
    expect(full.text).not.toBe(cpp);
  });

  it('gives the full parse on TypeScript and C# (parsed whole too)', () => {
    const ts = [
      '// Größe 😀',
      'export interface Chunk<out A> { readonly a: A } // ü',
      'export type F<in out K, out V> = (k: K) => V;',
      'const s = "日本";',
      '',
    ].join('\n');
    expect(bothWays('typescript', ts).full.text).not.toBe(ts);
    const cs = [
      '// Größe 😀',
      'public abstract class JToken : IJEnumerable<JToken>, IJsonLineInfo',
      '#if !(PORTABLE)',
      '    , ICloneable // é',
      '#endif',
      '{',
      '    public static JToken FromObject(object o) { return null; } // 日本',
      '}',
      '',
    ].join('\n');
    expect(bothWays('csharp', cs).full.text).not.toBe(cs);
  });

  it('leaves a usable, exact tree of the original text when the rewrite is rejected', () => {
    const { parser, spec } = parserFor('c');
    // The file has an error, so a repair is tried. This one has more errors, so it is rejected
    // after its edits were applied to the tree; they start inside tokens (`int`, `return`) and
    // end past them, which stretches those nodes in the edited tree.
    const source = '/* é 😀 */\nint f(void) {\n\tint x = ;\n\treturn x;\n}\n// ü\nint g(void) { return 1; }\n';
    const worse = {
      ...spec,
      repair: (text: string) => text.replace('nt f(vo', '@'.repeat(7)).replace('eturn x;\n}', '@'.repeat(10)),
    };
    const incremental = parseRepaired(parser, worse, source, 'incremental');
    expect(incremental.text).toBe(source);
    const fresh = parser.parse(source);
    expect(dump(incremental.tree)).toEqual(dump(fresh));
    const g = source.indexOf('g(void)');
    const node = incremental.tree.rootNode.descendantForIndex(g, g + 1);
    expect(node.type).toBe('identifier');
    expect(node.text).toBe('g');
    expect(node.startPosition).toEqual({ row: 6, column: 4 });
  });
});
