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

const legacy = new TextDecoder('windows-1252');

/**
 * Decodes bytes for reading only: as UTF-8 when they are valid UTF-8, else as Windows-1252 (the
 * WHATWG Encoding Standard's decoder for the `latin1`/`iso-8859-1` labels, which maps every byte),
 * the 8-bit encoding older `.bib` files use (BibTeX reads bytes, whatever they encode). A text
 * decoded so is never written back: writers use {@link decodeUtf8}, which refuses it.
 *
 * @returns the text, and whether it was UTF-8
 */
export function decodeForReading(bytes: Uint8Array): { text: string; utf8: boolean } {
  const text = decodeUtf8(bytes);
  return text !== undefined ? { text, utf8: true } : { text: legacy.decode(bytes), utf8: false };
}
