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
  private readonly decoder = new TextDecoder();

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const { out, held } = lowerScriptPriority(this.held + this.decoder.decode(chunk, { stream: true }));
    this.held = held;
    callback(null, out ? Buffer.from(out) : undefined);
  }

  override _flush(callback: TransformCallback): void {
    const rest = this.held + this.decoder.decode();
    callback(null, rest ? Buffer.from(rest) : undefined);
  }
}
