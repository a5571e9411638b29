import { describe, expect, it } from "vitest";
import { checkLogo, collectTags, LOGO_MAX_BYTES, parseTextList, sniffImageType, statusChangesFor, teamIdFor } from "~/domain/team-form";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("team form rules", () => {
  it("splits comma-separated text, trimming and dropping duplicates of any case", () => {
    expect(parseTextList(" Acme ,  acme kids,ACME,, \n Beta  Co ")).toEqual(["Acme", "acme kids", "Beta Co"]);
    expect(parseTextList("")).toEqual([]);
  });

  it("collects tags lower-cased, the known ones first", () => {
    expect(collectTags(["internal billing"], "Spring  Sale, INTERNAL billing, vip")).toEqual(["internal billing", "spring sale", "vip"]);
  });

  it("recognises PNG, JPEG and WebP from their first bytes only", () => {
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("GIF89a"))).toBeNull();
  });

  it("refuses empty, oversized and unknown logos", () => {
    expect(checkLogo(bytes())).toEqual({ ok: false, reason: "logo.empty" });
    const big = new Uint8Array(LOGO_MAX_BYTES + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(checkLogo(big)).toEqual({ ok: false, reason: "logo.tooLarge" });
    expect(checkLogo(bytes(1, 2, 3))).toEqual({ ok: false, reason: "logo.badType" });
    expect(checkLogo(big.subarray(0, LOGO_MAX_BYTES))).toEqual({ ok: true, value: { contentType: "image/png", extension: "png" } });
  });

  it("makes readable team ids", () => {
    // The name comes folded (lower case, accents removed).
    expect(teamIdFor("creme brulee & co", "abc123")).toBe("creme-brulee-co-abc123");
    expect(teamIdFor("acme brand", "k3x9q2")).toBe("acme-brand-k3x9q2");
    expect(teamIdFor("日本", "k3x9q2")).toBe("team-k3x9q2");
  });

  it("offers the status changes a user may make", () => {
    expect(statusChangesFor({ type: "retailer", role: "ADMIN" }, "active")).toEqual([
      { to: "suspended", change: "suspend" },
      { to: "archived", change: "archive" },
    ]);
    expect(statusChangesFor({ type: "retailer", role: "ADMIN" }, "archived")).toEqual([]);
    expect(statusChangesFor({ type: "operator", role: "ADMIN" }, "archived")).toEqual([
      { to: "active", change: "restore" },
      { to: "suspended", change: "suspend" },
    ]);
    expect(statusChangesFor({ type: "retailer", role: "VIEWER" }, "active")).toEqual([]);
  });
});
