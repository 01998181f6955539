// The masking every C#, DreamMaker and C-family repair reads through (extract/mask.ts), and
// the conditional blocks it finds in masked code (extract/lang/conditionals.ts): the forms
// each language adds to C's, and that positions never move.
import { CSHARP_DIRECTIVES, C_DIRECTIVES, conditionals, lineStartsOf } from '../src/extract/lang/conditionals';
import { CSHARP_MASK, C_MASK, DREAMMAKER_MASK, maskText, type MaskSpan } from '../src/extract/mask';

const blank = (n: number) => ' '.repeat(n);

describe('maskText', () => {
  it('C#: a verbatim string ends at its lone quote, "" inside it is a quote, and it may span lines', () => {
    // Newtonsoft.Json.Tests/TestFixtureBase.cs: `@""""` was read as a raw string and masked
    // the code after it up to the next run of four quotes, five lines further on.
    const text = 'return @"@""" + json.Replace(@"""", @"""""") + @"""";\n#if NETFX_CORE';
    const masked = maskText(text, CSHARP_MASK);
    expect(masked).toHaveLength(text.length);
    expect(masked).toBe(
      `return @"${blank(3)}" + json.Replace(@"${blank(2)}", @"${blank(4)}") + @"${blank(2)}";\n#if NETFX_CORE`,
    );
    expect(maskText('var s = $@"a\n{b}""c";\nx', CSHARP_MASK)).toBe(`var s = $@"${blank(1)}\n${blank(6)}";\nx`);
  });

  it('C#: a raw string ends at the run of quotes it opened with', () => {
    const text = 'var s = """\n  "quoted" { \n  """;\nint x;';
    const masked = maskText(text, CSHARP_MASK);
    expect(masked.split('\n')).toEqual(['var s = "  ', blank(13), '    ";', 'int x;']);
  });

  it('DreamMaker: {"…"} spans lines and keeps its braces and quotes; C doesn\'t know the form', () => {
    const text = 'var/x = {"a\n"b" /* c */"}\nvar/y = 1 // z';
    expect(maskText(text, DREAMMAKER_MASK)).toBe(`var/x = {"${blank(1)}\n${blank(11)}"}\nvar/y = 1 ${blank(4)}`);
    expect(maskText('x = {"a"}', C_MASK)).toBe('x = {" "}');
  });

  it('reports each comment with its delimiters, never a literal', () => {
    const comments: MaskSpan[] = [];
    maskText('a /* b */ "/* c */" // d', C_MASK, comments);
    expect(comments).toEqual([
      { start: 2, end: 9 },
      { start: 20, end: 24 },
    ]);
  });
});

describe('conditionals', () => {
  const read = (text: string, syntax = C_DIRECTIVES) => {
    const code = maskText(text, C_MASK);
    return conditionals(code, lineStartsOf(code), syntax);
  };

  it('nested blocks close inner first; stray and unclosed directives are reported by line', () => {
    const text = ['#endif', '#ifdef A', '# if B', '#else', '#endif', '#elif C', '#endif', '#ifndef D', 'x'].join('\n');
    const { blocks, stray, unclosed } = read(text);
    expect(blocks.map((b) => [b.directive, b.branches.map((br) => [br.line, br.end]), b.endif])).toEqual([
      [
        'if',
        [
          [2, 3],
          [3, 4],
        ],
        4,
      ],
      [
        'ifdef',
        [
          [1, 5],
          [5, 6],
        ],
        6,
      ],
    ]);
    expect(stray).toEqual([0]);
    expect(unclosed).toEqual([7]);
  });

  it('C# has no #ifdef, and a directive inside a comment is none', () => {
    const text = ['#ifdef A', '/* #if B */', '#if C', '#endif'].join('\n');
    const { blocks, stray } = read(text, CSHARP_DIRECTIVES);
    expect(blocks.map((b) => b.branches[0].line)).toEqual([2]);
    expect(stray).toEqual([]);
  });
});
