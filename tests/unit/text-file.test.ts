import { describe, expect, it } from "vitest";
import { decodeTextFile } from "~/domain/text-file";

const bytes = (...parts: (number[] | Buffer)[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe("decodeTextFile", () => {
  it("reads UTF-8 with or without its byte order mark, and UTF-16 of either byte order with its mark", () => {
    expect(decodeTextFile(bytes(Buffer.from("sku\nÉté")))).toEqual({ ok: true, text: "sku\nÉté", encoding: "utf-8" });
    expect(decodeTextFile(bytes([0xef, 0xbb, 0xbf], Buffer.from("sku\nÉté")))).toEqual({ ok: true, text: "sku\nÉté", encoding: "utf-8" });
    expect(decodeTextFile(bytes([0xff, 0xfe], Buffer.from("sku\nÉté", "utf16le")))).toEqual({ ok: true, text: "sku\nÉté", encoding: "utf-16le" });
    const be = Buffer.from("sku\nÉté", "utf16le").swap16();
    expect(decodeTextFile(bytes([0xfe, 0xff], be))).toEqual({ ok: true, text: "sku\nÉté", encoding: "utf-16be" });
  });

  it("refuses bytes that are not UTF-8 (a Windows-1252 export, a spreadsheet's binary file) instead of replacing them with U+FFFD", () => {
    expect(decodeTextFile(bytes(Buffer.from("Café crème", "latin1")))).toEqual({ ok: false, reason: "notUtf8" });
    expect(decodeTextFile(bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0xa1, 0xc3]))).toEqual({ ok: false, reason: "notUtf8" });
  });
});
