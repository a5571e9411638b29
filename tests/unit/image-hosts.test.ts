/** The product image hosts' rule (ADR 34): what goes into img-src is only ever a whole https origin. */
import { describe, expect, it } from "vitest";
import { checkImageHost, MAX_IMAGE_HOSTS, onImageHost, parseImageHosts } from "~/domain/image-hosts";
import { displayableImage } from "~/domain/catalog-view";

describe("product image hosts", () => {
  it("takes https origins, lower-cased, with a port, without a trailing slash, each once", () => {
    expect(parseImageHosts(" https://Images.Example-Retailer.com/ \n\nhttps://cdn.example.com:8443\nhttps://images.example-retailer.com")).toEqual({
      ok: true,
      hosts: ["https://images.example-retailer.com", "https://cdn.example.com:8443"],
    });
    expect(parseImageHosts("")).toEqual({ ok: true, hosts: [] });
  });

  it.each([
    "http://images.example.com",
    "https://images.example.com/p",
    "https://images.example.com?x=1",
    "https://*.example.com",
    "https://images.example.com; script-src *",
    "https://images.example.com 'unsafe-inline'",
    "https://user@images.example.com",
    "https://localhost",
    "https://-bad.example.com",
    "images.example.com",
    "data:",
  ])("refuses %s, naming it", (value) => {
    expect(checkImageHost(value)).toEqual({ ok: false, reason: "imageHosts:errors.notHttpsOrigin" });
    expect(parseImageHosts(`https://ok.example.com\n${value}`)).toEqual({ ok: false, value, reason: "imageHosts:errors.notHttpsOrigin" });
  });

  it("takes at most MAX_IMAGE_HOSTS", () => {
    const many = Array.from({ length: MAX_IMAGE_HOSTS + 1 }, (_, i) => `https://img${i}.example.com`).join("\n");
    expect(parseImageHosts(many)).toMatchObject({ ok: false, reason: "imageHosts:errors.tooMany" });
  });

  it("shows a product picture of this site, data:, or one of the hosts only", () => {
    const hosts = ["https://images.example-retailer.com"];
    expect(onImageHost("https://images.example-retailer.com/p/1.jpg", hosts)).toBe(true);
    expect(onImageHost("https://images.example-retailer.com.evil.com/p/1.jpg", hosts)).toBe(false);
    expect(onImageHost("http://images.example-retailer.com/p/1.jpg", hosts)).toBe(false);
    expect(displayableImage("/images/products/1.png", hosts)).toBe(true);
    expect(displayableImage("https://elsewhere.example.com/1.jpg", hosts)).toBe(false);
    expect(displayableImage("https://images.example-retailer.com/1.jpg")).toBe(false);
  });
});
