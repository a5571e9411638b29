// The patch of React's streaming renderer (patches/react-dom+18.3.1.patch, docs/decisions/0038):
// its text is joined and encoded whole, once per 8 KiB and at the end of each flush, instead of
// piece by piece into 2 KiB buffers. React 18.3.1 as published wrote a full buffer with its unused
// tail, so a multi-byte character (é, €, zł) at a buffer's end left NUL bytes in the page: French
// pages of this console had them. The tests below fail on the published build. The page must
// come out as React's string renderer writes it: every multi-byte character whole, no NUL, a
// boundary resolved later streamed after its shell, two pages rendered at once never mixed.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import { createElement as h, Suspense, type ReactElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

const require = createRequire(import.meta.url);
// The build a production server runs (NODE_ENV=production), whatever the tests' NODE_ENV.
const productionPath = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs/react-dom-server.node.production.min.js");
const production = require(productionPath) as typeof import("react-dom/server");

/** The page as the browser receives it, and how many writes it took. */
function render(element: ReactElement, options: { nonce?: string } = {}): Promise<{ html: string; writes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
      final(callback) {
        resolve({ html: Buffer.concat(chunks).toString("utf8"), writes: chunks.length });
        callback();
      },
    });
    const { pipe } = production.renderToPipeableStream(element, { ...options, onShellReady: () => pipe(sink), onShellError: reject, onError: reject });
  });
}

/** A component that suspends until `promise` settles (React 18's protocol: throw the promise). */
function later(promise: Promise<void>, state: { done: boolean }, children: ReactNode) {
  function Later() {
    if (!state.done) throw promise;
    return h("p", { className: "later" }, children);
  }
  return h(Later);
}

function deferred() {
  const state = { done: false };
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve)).then(() => {
    state.done = true;
  });
  return { state, promise, release };
}

const MULTI_BYTE = "Réglages € 😀 zł ";

function Page({ rows, label }: { rows: number; label: string }) {
  return h(
    "table",
    { className: "campaign-table" },
    h(
      "tbody",
      null,
      Array.from({ length: rows }, (_, i) =>
        h(
          "tr",
          { key: i },
          h("td", null, h("input", { type: "checkbox", name: "campaignId", value: `id-${i}`, "aria-label": `Select ${label} ${i} <&"'>` })),
          h("th", { scope: "row" }, h("a", { href: `/campaigns/${i}?a=1&b=2` }, `${label} ${i}`)),
          h("td", { className: "num" }, MULTI_BYTE.repeat((i % 7) + 1), i),
        ),
      ),
    ),
  );
}

describe("React's streaming renderer as patched", () => {
  it("is the patched build (npm ci runs patch-package)", () => {
    expect(fs.readFileSync(productionPath, "utf8")).toContain("docs/decisions/0038");
  });

  it("writes the same markup as React's string renderer, every multi-byte character whole and no NUL byte", async () => {
    // About 60 KiB: many 8 KiB pieces, with characters of 2, 3 and 4 bytes across their edges.
    const page = h(Page, { rows: 300, label: "Campagne" });
    const { html, writes } = await render(page);
    // (toBe on booleans: a failure does not print 60 KiB twice)
    expect(html === renderToString(page)).toBe(true);
    expect(html.includes(`<td class="num">${MULTI_BYTE.repeat(7)}<!-- -->299</td>`)).toBe(false);
    expect(html.includes(`<td class="num">${MULTI_BYTE.repeat(6)}<!-- -->299</td>`)).toBe(true);
    expect(html.includes('aria-label="Select Campagne 0 &lt;&amp;&quot;&#x27;&gt;"')).toBe(true);
    expect(html.includes("\uFFFD")).toBe(false);
    expect(html.includes("\u0000")).toBe(false);
    // Fewer, larger writes than React's 2 KiB pieces.
    expect(writes).toBeLessThanOrEqual(Math.ceil(Buffer.byteLength(html) / 8192) + 1);
  });

  it("writes one text longer than a piece whole", async () => {
    const long = `${"€".repeat(5000)}${"a".repeat(10_000)}😀`;
    const { html } = await render(h("p", null, long));
    expect(html).toBe(`<p>${long}</p>`);
  });

  it("streams a boundary resolved later after its shell, with the nonce on its script", async () => {
    const slow = deferred();
    const shellSent = vi.fn();
    const page = h("main", null, h("h1", null, "Statistiques €"), h(Suspense, { fallback: h("p", null, "Chargement…") }, later(slow.promise, slow.state, "Données ✓")));
    const rendering = render(page, { nonce: "n0nce" });
    await new Promise((resolve) => setImmediate(resolve));
    shellSent();
    slow.release();
    const { html } = await rendering;
    expect(shellSent).toHaveBeenCalled();
    const shell = html.indexOf("Chargement…");
    const content = html.indexOf('<p class="later">Données ✓</p>');
    expect(html.startsWith("<main><h1>Statistiques €</h1><!--$?-->")).toBe(true);
    expect(shell).toBeGreaterThan(0);
    expect(content).toBeGreaterThan(shell);
    expect(html).toMatch(/<script nonce="n0nce">[^<]*\$RC\("B:0","S:0"\)<\/script>$/);
  });

  it("keeps two pages rendered at the same time apart", async () => {
    const first = deferred();
    const second = deferred();
    const pageOf = (label: string, gate: ReturnType<typeof deferred>) =>
      h("div", null, h(Page, { rows: 40, label }), h(Suspense, { fallback: h("i", null, `${label}…`) }, later(gate.promise, gate.state, h(Page, { rows: 40, label: `${label} late` }))));
    const a = render(pageOf("Alpha", first));
    const b = render(pageOf("Bravo", second));
    await new Promise((resolve) => setImmediate(resolve));
    second.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.release();
    const [alpha, bravo] = await Promise.all([a, b]);
    expect(alpha.html).not.toContain("Bravo");
    expect(bravo.html).not.toContain("Alpha");
    expect(alpha.html).toContain(renderToString(h(Page, { rows: 40, label: "Alpha" })));
    expect(alpha.html).toContain(renderToString(h(Page, { rows: 40, label: "Alpha late" })));
    expect(bravo.html).toContain(renderToString(h(Page, { rows: 40, label: "Bravo late" })));
  });
});
