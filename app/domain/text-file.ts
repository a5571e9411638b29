/**
 * The text of an uploaded file (a catalog feed, a CSV of SKUs): UTF-8, with or without its byte
 * order mark, or UTF-16 with its mark (what spreadsheets save as "Unicode text"). Any other
 * bytes (a Windows-1252 export, a spreadsheet's binary file) are not guessed at: decoding them as
 * UTF-8 would store U+FFFD in place of every accented letter, so the file is refused and the user
 * told to save it as UTF-8 (ADR 47). Pure.
 */

export type TextFileEncoding = "utf-8" | "utf-16le" | "utf-16be";

export type DecodedTextFile = { ok: true; text: string; encoding: TextFileEncoding } | { ok: false; reason: "notUtf8" };

export function decodeTextFile(bytes: Uint8Array): DecodedTextFile {
  const encoding: TextFileEncoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  try {
    // The decoder drops the byte order mark; fatal: a byte that is not of the encoding throws.
    return { ok: true, text: new TextDecoder(encoding, { fatal: true }).decode(bytes), encoding };
  } catch {
    return { ok: false, reason: "notUtf8" };
  }
}
