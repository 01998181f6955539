import { formatCursor, formatHandle, parseCursor, parseHandle } from '../src/index';

const ID = '0123456789abcdef0123456789abcdef';

describe('parseHandle', () => {
  it('parses SET:ORDINAL', () => {
    expect(parseHandle(`${ID}:1`)).toEqual({ ok: true, value: { setId: ID, ordinal: 1 } });
    expect(parseHandle(`${ID}:10000`)).toEqual({ ok: true, value: { setId: ID, ordinal: 10000 } });
  });

  it('accepts uppercase hex and normalizes it to lowercase', () => {
    expect(parseHandle(`${ID.toUpperCase()}:3`)).toEqual({ ok: true, value: { setId: ID, ordinal: 3 } });
  });

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
    [`${ID.slice(1)}:1`, '31 hex chars'],
    [`${ID}0:1`, '33 hex chars'],
    [`${ID.slice(1)}g:1`, 'non-hex char'],
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

  it.each([[`${ID}:1`], [`${ID}@`], [`${ID}@-1`], [`${ID}@00`], [`${ID}@x`], [`${ID}@1@2`], [`abc@1`]])('rejects %j with bad_cursor', (input) => {
    const result = parseCursor(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('bad_cursor');
    expect(result.error.message).toContain('expected SET@OFFSET');
  });
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
