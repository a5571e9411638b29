/**
 * The single sign-on half of the storage contract (issue 12 §1, ADR 31), run inside
 * runStorageContract on every adapter: the requests the console issued (answered once, forgotten
 * when expired), the assertions already used (a replay refused, atomically, even when several
 * instances receive it at once), expired records purged, fetched metadata shared, and the IdP
 * settings kept in the live config document.
 */
import { expect, it } from "vitest";
import { DEFAULT_SSO_SETTINGS } from "~/domain/sso";
import type { Storage } from "~/storage/port";

const T0 = new Date("2026-11-26T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function runSamlContract(storageOf: () => Storage): void {
  const repo = () => storageOf().saml;

  it("remembers an issued request id until it expires or is answered", async () => {
    await repo().saveRequest("_req-1", at(0), at(15));
    expect(await repo().getRequest("_req-1", at(1))).toBe(at(0).toISOString());
    expect(await repo().getRequest("_req-1", at(15))).toBeNull();
    expect(await repo().getRequest("_never-issued", at(1))).toBeNull();
    await repo().removeRequest("_req-1");
    expect(await repo().getRequest("_req-1", at(1))).toBeNull();
    // Forgetting an unknown id is harmless.
    await repo().removeRequest("_never-issued");
  });

  it("accepts an assertion id once per issuer, until its window ends; concurrent posts of one response: one wins", async () => {
    expect(await repo().rememberAssertion("https://idp.test", "_a1", at(10), at(0))).toBe(true);
    expect(await repo().rememberAssertion("https://idp.test", "_a1", at(10), at(5))).toBe(false);
    // The same id from another IdP is another assertion.
    expect(await repo().rememberAssertion("https://other.test", "_a1", at(10), at(5))).toBe(true);
    // Past its window the record no longer blocks (the assertion itself would be refused as expired).
    expect(await repo().rememberAssertion("https://idp.test", "_a1", at(20), at(11))).toBe(true);
    const results = await Promise.all(Array.from({ length: 5 }, () => repo().rememberAssertion("https://idp.test", "_race", at(10), at(0))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("purges expired requests and assertions, a bounded number at a time", async () => {
    await repo().saveRequest("_old-1", at(0), at(1));
    await repo().saveRequest("_old-2", at(0), at(2));
    await repo().saveRequest("_live", at(0), at(100));
    await repo().rememberAssertion("https://idp.test", "_old-a", at(3), at(0));
    const first = await repo().purgeExpired(at(50), 2);
    expect(first).toBe(2);
    const rest = await repo().purgeExpired(at(50), 100);
    expect(first + rest).toBeGreaterThanOrEqual(3);
    expect(await repo().purgeExpired(at(50), 100)).toBe(0);
    expect(await repo().getRequest("_live", at(50))).toBe(at(0).toISOString());
    expect(await repo().rememberAssertion("https://idp.test", "_old-a", at(60), at(50))).toBe(true);
  });

  it("keeps the metadata last fetched from a URL", async () => {
    expect(await repo().getMetadata("https://idp.test/metadata")).toBeNull();
    await repo().saveMetadata({ url: "https://idp.test/metadata", xml: "<md:EntityDescriptor/>", fetchedAt: at(0).toISOString() });
    await repo().saveMetadata({ url: "https://idp.test/metadata", xml: "<md:EntityDescriptor v2/>", fetchedAt: at(60).toISOString() });
    expect(await repo().getMetadata("https://idp.test/metadata")).toEqual({ url: "https://idp.test/metadata", xml: "<md:EntityDescriptor v2/>", fetchedAt: at(60).toISOString() });
  });

  it("keeps the IdP settings in the live config document, audited, refused on a stale version", async () => {
    const config = await storageOf().config.get();
    const sso = { ...DEFAULT_SSO_SETTINGS, enabled: true, metadataSource: "url" as const, metadataUrl: "https://idp.test/metadata", accountTypes: ["retailer" as const, "supplier" as const] };
    const saved = await storageOf().config.update({ sso }, { by: "operator@example.com" }, { expectVersion: config.version });
    expect(saved.sso).toEqual(sso);
    expect((await storageOf().config.get()).sso).toEqual(sso);
    await expect(storageOf().config.update({ sso: DEFAULT_SSO_SETTINGS }, { by: "operator@example.com" }, { expectVersion: config.version })).rejects.toThrow(/changed by someone else/);
    const audit = (await storageOf().audit.list({ entity: "config", limit: 10 })).items[0];
    expect(audit.changes.map((c) => c.field)).toContain("sso");
  });
}
