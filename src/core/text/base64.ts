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

/** An `Int32Array` written by {@link toBase64}; throws like {@link fromBase64}, and when the byte count is not a multiple of 4. */
export function int32FromBase64(text: string): Int32Array<ArrayBuffer> {
  const bytes = fromBase64(text);
  if (bytes.length % 4) throw new Error(`base64: ${bytes.length} bytes are no whole Int32Array`);
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** A `Uint16Array` written by {@link toBase64}; throws like {@link int32FromBase64}. */
export function uint16FromBase64(text: string): Uint16Array<ArrayBuffer> {
  const bytes = fromBase64(text);
  if (bytes.length % 2) throw new Error(`base64: ${bytes.length} bytes are no whole Uint16Array`);
  return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}
