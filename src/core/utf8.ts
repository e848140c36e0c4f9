/**
 * Reading a file's bytes as text that can be written back byte for byte.
 */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes bytes as UTF-8 (WHATWG Encoding Standard, fatal mode), keeping a byte-order mark as
 * U+FEFF so that encoding the text again gives the same bytes.
 *
 * @returns the text, or undefined when the bytes are not valid UTF-8 (decoding would replace
 *   them, and a rewrite would change them)
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    // ignored: a fatal decoder throws only for bytes that are not UTF-8, which is what undefined
    // says; the caller reports it (and leaves the file alone).
    return undefined;
  }
}
