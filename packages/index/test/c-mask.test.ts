// The same-length masking every C and C++ file goes through before its repairs: what is
// blanked, what is kept, and that positions never move.
import { maskCode } from '../src/extract/lang/c-repair';

describe('maskCode', () => {
  it('blanks comments and literal contents, keeping newlines and every position', () => {
    const text = [
      'int a = 1; // a "quoted" comment',
      '/* one',
      '   two */ char *s = "x /* y */ z";',
      "char c = '\\'';",
      'int b = 2 / 3;',
    ].join('\n');
    const masked = maskCode(text);
    expect(masked).toHaveLength(text.length);
    const blank = (n: number) => ' '.repeat(n);
    expect(masked.split('\n')).toEqual([
      `int a = 1; ${blank('// a "quoted" comment'.length)}`,
      blank('/* one'.length),
      `${blank('   two */'.length)} char *s = "${blank('x /* y */ z'.length)}";`,
      "char c = '  ';",
      'int b = 2 / 3;',
    ]);
  });

  it('ends a literal at its line, and an unterminated comment at the end of the text', () => {
    expect(maskCode('"open\nint x; /* never closed\nint y;')).toBe('"    \nint x;                \n      ');
  });

  it('blanks a carriage return inside a comment but keeps the line break', () => {
    expect(maskCode('// c\r\nx')).toBe('     \nx');
  });

  it('returns a text without comments or literals unchanged', () => {
    const text = 'int main(void) { return 0; }\n';
    expect(maskCode(text)).toBe(text);
  });
});
