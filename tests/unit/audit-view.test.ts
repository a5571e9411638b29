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
  system: "the system",
};
const names = { teams: new Map([["acme", "Acme Brand"]]), campaigns: new Map(), wallets: new Map([["w1", "Acme 2026 budget"]]), users: new Map() };
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

  it("names a record's keys by their field ('Capping by', not 'Account type') and products by their identifier", () => {
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
    expect(view.changes[1]!.after.text).toMatch(/^SKU-002503: \(On: Yes, Position: 1\)/);
  });
});
