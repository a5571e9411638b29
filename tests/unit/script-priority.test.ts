import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LowPriorityScripts, lowerScriptPriority, lowerScriptPriorityBytes } from "~/http/script-priority.server";

const page =
  '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>Ads console</p>' +
  '<link rel="modulepreload" href="/build/entry.client.js"/><link rel="modulepreload" href="/build/root.js"/>' +
  '<script type="module" async="">import "/build/entry.client.js";</script></body></html>';
const expected = page.split('<link rel="modulepreload"').join('<link rel="modulepreload" fetchpriority="low"');

async function streamed(chunks: Array<string | Buffer>): Promise<string> {
  const out: Buffer[] = [];
  const stream = Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))).pipe(new LowPriorityScripts());
  for await (const chunk of stream) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

describe("scripts preloaded at low priority", () => {
  it("marks every modulepreload link low and leaves the rest of the page as it was", () => {
    expect(lowerScriptPriority(page)).toEqual({ out: expected, held: "" });
  });

  it("holds back a chunk's end that may begin a tag, and nothing else", () => {
    expect(lowerScriptPriority("<p>x</p><link rel=")).toEqual({ out: "<p>x</p>", held: "<link rel=" });
    expect(lowerScriptPriority('<link rel="stylesheet"/>')).toEqual({ out: '<link rel="stylesheet"/>', held: "" });
  });

  it("gives the same page whatever the chunk boundaries, multi-byte characters included", async () => {
    const text = page.replace("Ads console", "Campagnes d’Acme — été");
    const whole = text.split('<link rel="modulepreload"').join('<link rel="modulepreload" fetchpriority="low"');
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 7, 13, 25, 26, 27, 64, bytes.length]) {
      // Cut the bytes (not the characters), as a network stream does.
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
      expect(await streamed(parts), `chunks of ${size} bytes`).toBe(whole);
    }
    expect(await streamed([text])).toBe(whole);
  });
});

describe("the page leaves in few chunks", () => {
  it("what is written in one go leaves as one chunk; what comes later, as another", async () => {
    const transform = new LowPriorityScripts();
    const out: string[] = [];
    transform.on("data", (chunk: Buffer) => out.push(chunk.toString("utf8")));
    for (let i = 0; i < 40; i++) transform.write(Buffer.from(`<p>${i}</p>`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(out).toEqual([Array.from({ length: 40 }, (_, i) => `<p>${i}</p>`).join("")]);
    transform.write(Buffer.from('<link rel="modulepreload" href="/a.js"/>'));
    const ended = new Promise((resolve) => transform.on("end", resolve));
    transform.end();
    await ended;
    expect(out).toHaveLength(2);
    expect(out[1]).toBe('<link rel="modulepreload" fetchpriority="low" href="/a.js"/>');
  });
});

describe("the rewrite on bytes", () => {
  it("gives the text rewrite's page and held-back tail, for every cut", () => {
    const bytes = Buffer.from(page.replace("Ads console", "Campagnes d’Acme — été"));
    for (let cut = 0; cut <= bytes.length; cut += 7) {
      const head = bytes.subarray(0, cut);
      const text = lowerScriptPriority(head.toString("latin1"));
      const { out, held } = lowerScriptPriorityBytes(head);
      expect(out.toString("latin1")).toBe(text.out);
      expect(held.toString("latin1")).toBe(text.held);
    }
  });
});
