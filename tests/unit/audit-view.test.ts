import { describe, expect, it } from "vitest";
import { presentAuditEntry, type AuditWords } from "~/domain/audit-view";
import type { AuditEntry } from "~/domain/types";

const words: AuditWords = {
  field: (_entity, field) => ({ selectedWallet: "Wallet details", credit: "Credit", balance: "Balance", label: "Label", status: "Status", bid: "Bid" })[field] ?? field,
  action: () => "Edited",
  entity: () => "Campaign",
  value: () => null,
  yes: "Yes",
  no: "No",
  on: "on",
  off: "off",
  more: (count) => `+${count} more`,
  position: (pos) => `position ${pos}`,
  allProducts: "every product",
  offers: (kind, titles) => `${kind}: ${titles}`,
  moved: (title, before, after) => `${title}: ${before} → ${after}`,
  targetOffers: (kind, target, titles) => `${target} ${kind}: ${titles}`,
  system: "the system",
  loggedAs: (operator: string, user: string) => `${operator}, logged as ${user}`,
};
const names = { teams: new Map([["acme", "Acme Brand"]]), campaigns: new Map(), wallets: new Map([["w1", "Acme 2026 budget"]]), users: new Map(), products: new Map([["SKU-002503", "Wireless mouse"]]) };
const format = { locale: "en-GB", currency: "EUR", timeZone: "Europe/Paris" };

function entry(changes: AuditEntry["changes"]): AuditEntry {
  return { id: "a1", version: 1, at: "2026-11-23T10:00:00.000Z", by: "system", action: "update", entity: "campaign", entityId: "c1", teamId: "acme", changes } as AuditEntry;
}

describe("the audit presenter (Activity and History)", () => {
  it("shows a campaign's wallet snapshot amounts in the currency, not in cents", () => {
    const view = presentAuditEntry(
      entry([{ field: "selectedWallet", before: null, after: { label: "Acme 2026 budget", credit: 500_000, balance: 123_456, status: "active" } }]),
      format,
      names,
      words,
    );
    const after = view.changes[0]!.after.text;
    expect(after).toContain("Credit: €5,000.00");
    expect(after).toContain("Balance: €1,234.56");
    expect(after).not.toMatch(/500,000|123,456/);
  });

  it("shows bids in the currency and the time in the reader's zone", () => {
    const view = presentAuditEntry(entry([{ field: "bid", before: 15, after: 120 }]), format, names, words);
    expect(view.changes[0]).toMatchObject({ label: "Bid", before: { text: "€0.15" }, after: { text: "€1.20" } });
    expect(view.atText).toBe("23 Nov 2026, 11:00:00");
    expect(view.teamName).toBe("Acme Brand");
  });

  it("names a record's keys by their field ('Capping by', not 'Account type') and products by their title", () => {
    const labelled: AuditWords = {
      ...words,
      field: (_entity, field) => ({ capping: "Capping", offers: "Products", type: "Account type", on: "On", pos: "Position" })[field] ?? field,
      nested: (field, key) => (field === "capping" && key === "type" ? "Capping by" : null),
    };
    const view = presentAuditEntry(
      entry([
        { field: "capping", before: null, after: { enabled: true, type: "views", max: 5 } },
        { field: "offers", before: null, after: { "SKU-002503": { on: true, pos: 1 } } },
      ]),
      format,
      names,
      labelled,
    );
    expect(view.changes[0]!.after.text).toContain("Capping by: views");
    expect(view.changes[0]!.after.text).not.toContain("Account type");
    expect(view.changes[1]!.after.text).toBe("Wireless mouse (on, position 1)");
    expect(view.changes[1]!.lines).toEqual(["added: Wireless mouse"]);
  });

  it("shows of a product kept what changed only: its state, or its position alone (ADR 48)", () => {
    const view = presentAuditEntry(
      entry([
        { field: "offers", before: { "SKU-002503": { on: true } }, after: { "SKU-002503": { on: false, title: "Wireless mouse" } } },
        { field: "offers", before: { "SKU-002503": { pos: null } }, after: { "SKU-002503": { pos: 3, title: "Wireless mouse" } } },
      ]),
      format,
      names,
      words,
    );
    expect([view.changes[0]!.before.text, view.changes[0]!.after.text]).toEqual(["Wireless mouse (on)", "Wireless mouse (off)"]);
    expect([view.changes[1]!.before.text, view.changes[1]!.after.text]).toEqual(["Wireless mouse", "Wireless mouse (position 3)"]);
  });

  it("shows placements and slots by their labels wherever they sit: lists, a slot's placements, bids per placement, banners per slot", () => {
    const labelled: AuditWords = {
      ...words,
      field: (_entity, field) => ({ placements: "Placements", slots: "Slots", slotsOff: "Slots switched off", placementBids: "Placement bids" })[field] ?? field,
      placement: (code) => ({ search: "Search", plp: "Category pages (PLP)", hub: "Shop pages (hub)" })[code] ?? code,
      slot: (code) => ({ sp: "Sponsored products (sp)", slider: "Product slider (slider)" })[code] ?? code,
    };
    const view = presentAuditEntry(
      entry([
        { field: "placements", before: ["search", "plp", "hub"], after: ["search", "plp"] },
        { field: "slots", before: ["sp", "slider"], after: ["sp"] },
        { field: "slotsOff", before: [], after: ["slider"] },
        { field: "placementBids", before: {}, after: { plp: 60 } },
        { field: "banners", before: {}, after: { "670x980": { image: null, href_link: "https://shop.example" } } },
      ]),
      format,
      names,
      labelled,
    );
    const text = (field: string) => view.changes.find((c) => c.field === field)!.after.text;
    expect(view.changes[0]!.before.text).toBe("Search, Category pages (PLP), Shop pages (hub)");
    expect(text("placements")).toBe("Search, Category pages (PLP)");
    expect(text("slots")).toBe("Sponsored products (sp)");
    expect(text("slotsOff")).toBe("Product slider (slider)");
    expect(text("placementBids")).toBe("Category pages (PLP): €0.60");
    // A slot the retailer named itself is shown by its name.
    expect(text("banners")).toMatch(/^670x980: \(/);

    // Activity: the retailer settings' slots (slot -> placements) and a type's placements.
    const config = presentAuditEntry(
      { ...entry([{ field: "retailerSettings", before: null, after: { types: { "sponsored-products": { placements: ["plp"], slots: { sp: ["search", "hub"] } } } } }]), entity: "config" },
      format,
      names,
      labelled,
    );
    const settings = config.changes[0]!.after.text;
    expect(settings).toContain("Placements: Category pages (PLP), Slots:");
    expect(settings).toContain("Slots: (Sponsored products (sp): Search, Shop pages (hub))");
    expect(settings).not.toMatch(/\b(plp|hub)\b(?!\))/);
  });

  it("translates a record's stored words by the record and key ('capping.type')", () => {
    const labelled: AuditWords = {
      ...words,
      field: (_entity, field) => ({ capping: "Capping", max: "At most" })[field] ?? field,
      nested: (field, key) => (field === "capping" && key === "type" ? "Capping by" : null),
      value: (_entity, field, value) => (field === "capping.type" ? ({ views: "Views", clicks: "Clicks" })[value] ?? null : null),
    };
    const view = presentAuditEntry(entry([{ field: "capping", before: { type: "views", max: 5 }, after: { type: "clicks", max: 5 } }]), format, names, labelled);
    expect(view.changes[0]).toMatchObject({ before: { text: "Capping by: Views, At most: 5" }, after: { text: "Capping by: Clicks, At most: 5" } });
  });
});
