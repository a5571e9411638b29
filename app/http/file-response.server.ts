/**
 * Serving a stored file over HTTP: its type, caching and sandboxing headers, and one byte range
 * (a <video> element asks for parts of the file; Safari plays nothing without them).
 */
import type { StoredFile } from "~/services/files.server";


export type ByteRange = { start: number; end: number };

/**
 * The one range of a "Range: bytes=…" header within a file of `size` bytes: null when there is no
 * usable header (the whole file is sent, as RFC 9110 allows for several ranges or another unit),
 * "unsatisfiable" when it lies outside the file.
 */
export function parseByteRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? "").trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/** The response for a stored file (200 whole, 206 one range, 416 outside the file). */
export function fileResponse(request: Request, file: StoredFile): Response {
  const size = file.bytes.byteLength;
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    // Keys are never reused (a new upload gets a new name), so the browser may keep them.
    "Cache-Control": "private, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Content-Disposition": "inline",
  });
  const range = parseByteRange(request.headers.get("Range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    headers.delete("Content-Type");
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    const part = file.bytes.subarray(range.start, range.end + 1);
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("Content-Length", String(part.byteLength));
    return new Response(part, { status: 206, headers });
  }
  headers.set("Content-Length", String(size));
  return new Response(file.bytes, { headers });
}
