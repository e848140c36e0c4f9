/** The library cache's number lists as base64 of varint differences (`core/text/base64.ts`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromDeltaBase64, toBase64, toDeltaBase64 } from '../../src/core/text/base64.js';

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

describe('toDeltaBase64 / fromDeltaBase64', () => {
  it('writes the zigzag-coded differences as LEB128 varints', () => {
    expect([...fromBase64(toDeltaBase64(Int32Array.of(5, 6, 4)))]).toEqual([10, 2, 3]);
    // 300 − 0 = 300, zigzag 600 = 0b100_1011000: low seven bits first, the high bit on all but the last.
    expect([...fromBase64(toDeltaBase64([300]))]).toEqual([0xd8, 0x04]);
    expect(toDeltaBase64([])).toBe('');
  });

  it('reads back every list of 32-bit integers, written whole or in parts', () => {
    fc.assert(fc.property(fc.array(int32, { maxLength: 200 }), fc.nat(200), (values, cut) => {
      const a = Int32Array.from(values);
      expect([...fromDeltaBase64(toDeltaBase64(a))]).toEqual(values);
      const at = Math.min(cut, a.length);
      const before = at ? a[at - 1]! : 0;
      const second = fromDeltaBase64(toDeltaBase64(a.subarray(at), before), before);
      expect([...fromDeltaBase64(toDeltaBase64(a.subarray(0, at))), ...second]).toEqual(values);
    }));
  });

  it('takes a byte a number for a sorted list of close numbers, where an Int32Array takes four', () => {
    const sorted = Int32Array.from({ length: 1000 }, (_, i) => 1_000_000 + 3 * i);
    expect(fromBase64(toDeltaBase64(sorted)).length).toBe(1000 + 2);
    expect(fromBase64(toBase64(sorted)).length).toBe(4000);
  });

  it('throws on a cut-off varint, one over five bytes, a number out of the 32-bit range, and text that is not base64', () => {
    expect(() => fromDeltaBase64(toBase64(Uint8Array.of(0x81)))).toThrow(/cut off/);
    expect(() => fromDeltaBase64(toBase64(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01)))).toThrow(/five bytes/);
    // 2^31 − 1, then +1: zigzag 2^32 − 2 and 2.
    const top = fromBase64(toDeltaBase64([2 ** 31 - 1]));
    expect(() => fromDeltaBase64(toBase64(Uint8Array.from([...top, 2])))).toThrow(/32-bit range/);
    expect(() => fromDeltaBase64('not base64!')).toThrow();
  });
});
