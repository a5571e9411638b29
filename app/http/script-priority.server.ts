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

export class LowPriorityScripts extends Transform {
  private held = "";
  /** Text written since the last chunk went out (React writes a page in 2 KiB pieces). */
  private pending = "";
  private scheduled: NodeJS.Immediate | null = null;
  private readonly decoder = new TextDecoder();

  /**
   * What React writes in one go (a whole shell, a resolved boundary) leaves as one chunk, once it
   * has finished writing: one compression call and one socket write instead of dozens.
   */
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending += this.decoder.decode(chunk, { stream: true });
    this.scheduled ??= setImmediate(() => this.release());
    callback();
  }

  private release() {
    this.scheduled = null;
    const { out, held } = lowerScriptPriority(this.held + this.pending);
    this.pending = "";
    this.held = held;
    if (out) this.push(Buffer.from(out));
  }

  override _flush(callback: TransformCallback): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    // At the end, a held-back tail is no tag's beginning any more: it goes out as it is.
    const { out, held } = lowerScriptPriority(this.held + this.pending + this.decoder.decode());
    this.held = this.pending = "";
    callback(null, out || held ? Buffer.from(out + held) : undefined);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    callback(error);
  }
}
