import { describe, expect, it } from "vitest";
import { loader } from "~/routes/images.products.$file";

async function get(file: string) {
  return loader({ params: { file }, request: new Request(`http://x/images/products/${file}`), context: {} } as never) as Promise<Response>;
}

describe("demo catalog pictures", () => {
  it("draws a stable SVG tile naming the product", async () => {
    const a = await get("SKU-000123.svg");
    expect(a.status).toBe(200);
    expect(a.headers.get("Content-Type")).toContain("image/svg+xml");
    const body = await a.text();
    expect(body).toContain("#123");
    expect(await (await get("SKU-000123.svg")).text()).toBe(body);
    expect(await (await get("SKU-000124.svg")).text()).not.toBe(body);
  });

  it.each(["../secret.svg", "SKU-1.png", "<script>.svg", ""])("refuses %j", async (file) => {
    expect((await get(file)).status).toBe(404);
  });
});
