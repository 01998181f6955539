import { formatCursor, formatHandle, parseCursor, parseHandle } from '../src/index';

const ID = 'k3x9qa';
const OLD_ID = '0123456789abcdef0123456789abcdef';

describe('parseHandle', () => {
  it('parses SET:ORDINAL', () => {
    expect(parseHandle(`${ID}:1`)).toEqual({ ok: true, value: { setId: ID, ordinal: 1 } });
    expect(parseHandle(`${ID}:10000`)).toEqual({ ok: true, value: { setId: ID, ordinal: 10000 } });
  });

  it('accepts uppercase and normalizes it to lowercase', () => {
    expect(parseHandle(`${ID.toUpperCase()}:3`)).toEqual({ ok: true, value: { setId: ID, ordinal: 3 } });
  });

  it('accepts the longer ids issued after collisions, up to 16 characters', () => {
    expect(parseHandle('k3x9qa7:2')).toEqual({ ok: true, value: { setId: 'k3x9qa7', ordinal: 2 } });
    expect(parseHandle(`${'z'.repeat(16)}:1`)).toEqual({ ok: true, value: { setId: 'z'.repeat(16), ordinal: 1 } });
  });

  it.each([[`${OLD_ID}:1`], [`${OLD_ID.toUpperCase()}:4`]])(
    'answers an old 32-hex handle %j with bad_handle naming the new form',
    (input) => {
      const result = parseHandle(input);
      expect(result).toEqual({
        ok: false,
        error: { code: 'bad_handle', message: expect.stringContaining('old 32-hex form') },
      });
      if (!result.ok) expect(result.error.message).toContain('6 or more characters of [0-9a-z]');
    },
  );

  it.each([
    ['', 'empty'],
    [ID, 'no ordinal'],
    [`${ID}:`, 'empty ordinal'],
    [`${ID}:0`, 'ordinal 0'],
    [`${ID}:-1`, 'negative'],
    [`${ID}:+1`, 'signed'],
    [`${ID}:01`, 'leading zero'],
    [`${ID}:1.0`, 'decimal point'],
    [`${ID}:1e3`, 'exponent'],
    [`${ID}:abc`, 'non-numeric'],
    [`${ID}:1:2`, 'two separators'],
    [`${ID}@1`, 'cursor form'],
    [` ${ID}:1`, 'leading space'],
    [`${ID}:1\n`, 'trailing newline'],
    [`${ID.slice(1)}:1`, '5 characters'],
    [`${'a'.repeat(17)}:1`, '17 characters'],
    [`${ID.slice(1)}-:1`, 'a character outside [0-9a-z]'],
    [`${ID.slice(1)}é:1`, 'a non-ASCII letter'],
    [`${ID}:1234567890123456`, 'too many digits'],
  ])('rejects %j (%s) with bad_handle showing the expected form', (input) => {
    const result = parseHandle(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('bad_handle');
    expect(result.error.message).toContain('expected SET:ORDINAL');
  });

  it('escapes control characters of the input in the message', () => {
    const result = parseHandle('\u001b[31mevil');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).not.toContain('\u001b');
  });
});

describe('parseCursor', () => {
  it('parses SET@OFFSET including offset 0', () => {
    expect(parseCursor(`${ID}@0`)).toEqual({ ok: true, value: { setId: ID, offset: 0 } });
    expect(parseCursor(`${ID}@20`)).toEqual({ ok: true, value: { setId: ID, offset: 20 } });
    expect(parseCursor(`${ID.toUpperCase()}@5`)).toEqual({ ok: true, value: { setId: ID, offset: 5 } });
  });

  it('answers an old 32-hex cursor with bad_cursor naming the new form', () => {
    const result = parseCursor(`${OLD_ID}@20`);
    expect(result).toEqual({
      ok: false,
      error: { code: 'bad_cursor', message: expect.stringContaining('old 32-hex form') },
    });
    if (!result.ok)
      expect(result.error.message).toContain('expected SET@OFFSET (a set id of 6 or more characters of [0-9a-z]');
  });

  it('answers a handle given as a cursor with what reads a handle', () => {
    const result = parseCursor(`${ID}:3`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('it is a handle: `show` reads a handle');
  });

  it.each([[`${ID}:1`], [`${ID}@`], [`${ID}@-1`], [`${ID}@00`], [`${ID}@x`], [`${ID}@1@2`], [`abc@1`]])(
    'rejects %j with bad_cursor',
    (input) => {
      const result = parseCursor(input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('bad_cursor');
      expect(result.error.message).toContain('expected SET@OFFSET');
    },
  );
});

describe('formatHandle / formatCursor', () => {
  it('round-trips through the parsers', () => {
    expect(parseHandle(formatHandle(ID, 7))).toEqual({ ok: true, value: { setId: ID, ordinal: 7 } });
    expect(parseCursor(formatCursor(ID, 0))).toEqual({ ok: true, value: { setId: ID, offset: 0 } });
  });

  it('formats ids in lowercase', () => {
    expect(formatHandle(ID.toUpperCase(), 2)).toBe(`${ID}:2`);
  });

  it('throws on values no parser would accept', () => {
    expect(() => formatHandle(ID, 0)).toThrow(RangeError);
    expect(() => formatHandle('nope', 1)).toThrow(RangeError);
    expect(() => formatCursor(ID, -1)).toThrow(RangeError);
    expect(() => formatCursor(ID, 1.5)).toThrow(RangeError);
  });
});
