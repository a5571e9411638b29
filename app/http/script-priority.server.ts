/**
 * The first paint never waits for JavaScript: every page is server-rendered and works without
 * it, so the scripts Remix preloads (`<link rel="modulepreload">`, one per module of the page)
 * are fetched at low priority, after the document, the stylesheet and the images. Remix's
 * `<Scripts>` gives no way to set the attribute, so the streamed HTML is rewritten on its way out.
 * Only the exact tag Remix writes is touched; a tag split across two chunks is kept whole by
 * holding back the end of each chunk that could begin it.
 */
import { Transform, type TransformCallback } from "node:stream";

const TAG = '<link rel="modulepreload"';
const LOW = '<link rel="modulepreload" fetchpriority="low"';

/** The rewritten text, and the tail held back because it may be the start of a tag. */
export function lowerScriptPriority(text: string): { out: string; held: string } {
  const replaced = text.split(TAG).join(LOW);
  for (let keep = Math.min(TAG.length - 1, replaced.length); keep > 0; keep--) {
    if (TAG.startsWith(replaced.slice(replaced.length - keep))) {
      return { out: replaced.slice(0, replaced.length - keep), held: replaced.slice(replaced.length - keep) };
    }
  }
  return { out: replaced, held: "" };
}

const TAG_BYTES = Buffer.from(TAG);
const INSERT = Buffer.from(LOW.slice(TAG.length));

/**
 * lowerScriptPriority on bytes: the tag is ASCII, so it is found and rewritten in the encoded page
 * without decoding it (a multi-byte character never contains an ASCII byte).
 */
export function lowerScriptPriorityBytes(bytes: Buffer): { out: Buffer; held: Buffer } {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(TAG_BYTES); at >= 0; at = bytes.indexOf(TAG_BYTES, from)) {
    parts.push(bytes.subarray(from, at + TAG_BYTES.length), INSERT);
    from = at + TAG_BYTES.length;
  }
  let end = bytes.length;
  for (let keep = Math.min(TAG_BYTES.length - 1, bytes.length - from); keep > 0; keep--) {
    if (bytes.subarray(bytes.length - keep).equals(TAG_BYTES.subarray(0, keep))) {
      end = bytes.length - keep;
      break;
    }
  }
  parts.push(bytes.subarray(from, end));
  return { out: parts.length === 1 ? parts[0] : Buffer.concat(parts), held: bytes.subarray(end) };
}

export class LowPriorityScripts extends Transform {
  /** Bytes written since the last chunk went out (React writes a page in 2 KiB pieces), after the held-back tail. */
  private pending: Buffer[] = [];
  private scheduled: NodeJS.Immediate | null = null;

  /**
   * What React writes in one go (a whole shell, a resolved boundary) leaves as one chunk, once it
   * has finished writing: one compression call and one socket write instead of dozens.
   */
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    this.scheduled ??= setImmediate(() => this.release());
    callback();
  }

  private release() {
    this.scheduled = null;
    const { out, held } = lowerScriptPriorityBytes(Buffer.concat(this.pending));
    this.pending = held.length ? [held] : [];
    if (out.length) this.push(out);
  }

  override _flush(callback: TransformCallback): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    // At the end, a held-back tail is no tag's beginning any more: it goes out as it is.
    const { out, held } = lowerScriptPriorityBytes(Buffer.concat(this.pending));
    this.pending = [];
    callback(null, out.length || held.length ? Buffer.concat([out, held]) : undefined);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    callback(error);
  }
}
