/**
 * Typed arrays as base64 text (RFC 4648 §4), for the library cache: a JSON string is read by
 * `JSON.parse` as one value, where a JSON array of a million numbers is a million values. The
 * encoding itself is the platform's `btoa` and `atob` (WHATWG HTML's "forgiving-base64", in Node
 * and in browsers and their workers alike). Bytes are in the platform's order (little-endian on
 * every platform Node and browsers run on); a cache is read on the machine that wrote it.
 */

/** Bytes per `String.fromCharCode` call (its arguments go on the stack). */
const PIECE = 8192;

/**
 * The bytes of a typed array as base64.
 *
 * @param data - any typed array (its own bytes: `byteOffset` and `byteLength` are respected)
 * @example toBase64(Int32Array.of(1)) // 'AQAAAA=='
 */
export function toBase64(data: ArrayBufferView): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const pieces: string[] = [];
  // `apply` takes the typed array as it is (a spread would iterate it).
  for (let i = 0; i < bytes.length; i += PIECE) pieces.push(String.fromCharCode.apply(null, bytes.subarray(i, i + PIECE) as unknown as number[]));
  return btoa(pieces.join(''));
}

/**
 * Bytes written by {@link toBase64}.
 *
 * @throws Error (`atob`'s `InvalidCharacterError`) when the text is not base64
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Bytes of one varint at most: 35 bits, for a zigzag-coded difference of two 32-bit integers (33 bits). */
const VARINT_BYTES = 5;

/**
 * Integers as base64 of their differences, for sorted lists (postings, offsets, ids), which take one
 * or two bytes a number here where an `Int32Array` takes four: each number is the difference from
 * the one before (the first from `before`), zigzag-coded (0, -1, 1, -2 … as 0, 1, 2, 3 …) and written
 * as an unsigned LEB128 varint, seven bits a byte, low bits first, the high bit set on every byte
 * but a number's last (the varints of Protocol Buffers' `sint64` and of WebAssembly).
 *
 * @param values - integers in [-2^31, 2^31)
 * @param before - the number before the first (the last of the previous part, when a list is written in parts)
 * @example toDeltaBase64(Int32Array.of(5, 6, 4)) // the bytes 10, 2, 3
 */
export function toDeltaBase64(values: ArrayLike<number>, before = 0): string {
  const bytes = new Uint8Array(values.length * VARINT_BYTES);
  let n = 0;
  let prev = before;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const d = v - prev;
    prev = v;
    // Arithmetic, not bit operators: a difference of two 32-bit integers needs 33 bits.
    let z = d >= 0 ? 2 * d : -2 * d - 1;
    while (z >= 128) {
      bytes[n++] = (z % 128) | 128;
      z = Math.floor(z / 128);
    }
    bytes[n++] = z;
  }
  return toBase64(bytes.subarray(0, n));
}

/**
 * Integers written by {@link toDeltaBase64}.
 *
 * @param before - the `before` they were written with
 * @throws Error when the text is not base64 (see {@link fromBase64}), a varint is cut off or longer
 *   than five bytes, or a number leaves [-2^31, 2^31)
 */
export function fromDeltaBase64(text: string, before = 0): Int32Array<ArrayBuffer> {
  const bytes = fromBase64(text);
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! < 128) count++;
  if (bytes.length && bytes[bytes.length - 1]! >= 128) throw new Error('base64: a varint is cut off');
  const out = new Int32Array(count);
  let v = before;
  for (let i = 0, k = 0; i < bytes.length; k++) {
    let z = 0;
    let scale = 1;
    for (let j = 0; ; j++) {
      if (j === VARINT_BYTES) throw new Error('base64: a varint longer than five bytes');
      const b = bytes[i++]!;
      z += (b & 127) * scale;
      scale *= 128;
      if (b < 128) break;
    }
    v += z % 2 ? -(z + 1) / 2 : z / 2;
    if (v < -(2 ** 31) || v >= 2 ** 31) throw new Error('base64: a number out of the 32-bit range');
    out[k] = v;
  }
  return out;
}
