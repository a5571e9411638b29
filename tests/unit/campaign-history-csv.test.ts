/**
 * A campaign's history as the screen shows it and as its CSV writes it: one presenter
 * (app/domain/audit-view.ts) for both, with the app's own words in English and French.
 */
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { presentAuditEntry, type AuditNames, type AuditWords } from "~/domain/audit-view";
import { emptyCreative } from "~/domain/campaigns/campaign";
import { campaignHistoryCsvRows, campaignHistoryFileName } from "~/domain/campaigns/history-csv";
import type { CampaignTarget, Targets } from "~/domain/campaigns/targets";
import type { AuditEntry } from "~/domain/types";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { auditWords } from "~/services/audit-words";
import { getFixedT } from "~/services/i18n.server";
import { describeTargets } from "~/storage/repos/targets.server";

const names: AuditNames = {
  teams: new Map([["acme-brand", "Acme Brand"]]),
  campaigns: new Map(),
  wallets: new Map([["acme-brand-main", "Acme main wallet"]]),
  users: new Map([["sam@acme.example", "Sam Supplier"]]),
  products: new Map([
    ["SKU-000002", "Phone X"],
    ["SKU-000020", "Tablet Pro"],
  ]),
};
const words: Record<string, AuditWords> = {};
const csvWords: Record<string, Parameters<typeof campaignHistoryCsvRows>[1]> = {};

beforeAll(async () => {
  for (const locale of ["en-GB", "fr"]) {
    const t = await getFixedT(locale);
    words[locale] = auditWords(t);
    csvWords[locale] = {
      headers: { at: "When", by: "By", action: "Action", field: "Field", before: "Before", after: "After" },
      none: t("campaignProducts:history.none"),
      noFields: t("campaignProducts:history.noFields"),
    };
  }
});

let seq = 0;
function entry(action: string, changes: AuditEntry["changes"], at = "2026-11-27T00:16:45.873Z"): AuditEntry {
  seq += 1;
  return { id: `e${seq}`, version: 1, at, by: "sam@acme.example", action, entity: "campaign", entityId: "c1", teamId: "acme-brand", changes } as AuditEntry;
}

/** The CSV of these entries (given newest first, as the history gives them), for a reader in Paris. */
function csv(entries: AuditEntry[], locale = "en-GB"): string[][] {
  const format = { locale, currency: "EUR", timeZone: "Europe/Paris" };
  return campaignHistoryCsvRows(
    entries.map((e) => presentAuditEntry(e, format, names, words[locale]!)),
    csvWords[locale]!,
  );
}

/** The row of a field (by its label). */
function row(rows: string[][], label: string): string[] {
  const found = rows.find((r) => r[3] === label || r[3]!.startsWith(`${label}\n`));
  if (!found) throw new Error(`no row for ${label}: ${JSON.stringify(rows.map((r) => r[3]))}`);
  return found;
}

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

function target(name: string, bid: number | null, offers: string[] | null = null): CampaignTarget {
  return { on: true, bid, offers, name, url: null, placement: "plp", auto: false, created: "2026-11-27T00:00:00.000Z", updated: "2026-11-27T00:00:00.000Z" } as CampaignTarget;
}

/** The change of targets the storage records for these keys (tests the recorder and the presenter together). */
function targetsChange(field: string, keys: string[], before: Targets, after: Targets) {
  return { field, before: describeTargets(keys, before), after: describeTargets(keys, after) };
}

describe("a quick-built campaign's creation entry", () => {
  const created = entry("create", [
    { field: "name", before: null, after: "TV week" },
    { field: "status", before: null, after: "draft" },
    { field: "campaignType", before: null, after: "sponsored-products" },
    { field: "team", before: null, after: "acme-brand" },
    { field: "teamInfo", before: null, after: { name: "Acme Brand", account_type: "supplier" } },
    { field: "wallet", before: null, after: "acme-brand-main" },
    { field: "selectedWallet", before: null, after: { label: "Acme main wallet", credit: 500_000, balance: 123_456, status: "active" } },
    { field: "insufficient_funds", before: null, after: false },
    { field: "bid", before: null, after: 30 },
    { field: "capping", before: null, after: { enabled: false, type: "views", max: 3 } },
    { field: "offers", before: null, after: { "SKU-000002": { on: true, availability: "in stock", title: "Phone X", image_link: "https://img.example/x.jpg", pos: null, party: "1P" } } },
    { field: "productIds", before: null, after: ["SKU-000002"] },
    { field: "creative", before: null, after: { ...emptyCreative(), headline: "Big screens" } },
    { field: "startDate", before: null, after: "2026-11-27T23:00:00.000Z" },
    { field: "created", before: null, after: "2026-11-27T00:16:45.873Z" },
    { field: "quick", before: null, after: true },
  ]);
  const categories = entry(
    "update",
    [targetsChange("tCategories", ["electronics--tv-video"], {}, { "electronics--tv-video": target("Electronics > TV & video", 30) })],
    "2026-11-27T00:16:46.000Z",
  );

  it("writes the screen's words: names not ids, translated codes, money, dates in the reader's zone, records in words", () => {
    const rows = csv([categories, created]);
    const cells = rows.slice(1).flatMap((r) => r.slice(1));
    // Nothing raw: no ISO instant, no JSON, no id, no code.
    for (const cell of cells) {
      expect(cell).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect(cell).not.toMatch(/[{}[\]"]/);
      expect(cell).not.toMatch(/^(draft|sponsored-products|false|true|acme-brand|acme-brand-main|electronics--tv-video)$/);
    }
    expect(row(rows, "Start date").slice(4)).toEqual(["(none)", "28 Nov 2026, 00:00:00"]);
    expect(row(rows, "Created")[5]).toBe("27 Nov 2026, 01:16:45");
    expect(row(rows, "Advertiser")[5]).toBe("Acme Brand");
    expect(row(rows, "Wallet")[5]).toBe("Acme main wallet");
    expect(row(rows, "Status")[5]).toBe("Draft");
    expect(row(rows, "Campaign type")[5]).toBe("Sponsored products");
    expect(row(rows, "Insufficient funds")[5]).toBe("No");
    expect(row(rows, "Quick campaign")[5]).toBe("Yes");
    expect(row(rows, "Bid")[5]).toBe("€0.30");
    expect(row(rows, "Capping")[5]).toBe("Capping on: No, Capping by: Views, At most: 3");
    expect(row(rows, "Wallet details")[5]).toBe("Name: Acme main wallet, Credit: €5,000.00, Balance: €1,234.56, Status: Active");
    expect(row(rows, "Products")[5]).toBe("Phone X (on)");
    expect(row(rows, "Products")[3]).toBe("Products\nAdded: Phone X");
    expect(row(rows, "Products switched on")[5]).toBe("Phone X");
    expect(row(rows, "Creative")[5]).toContain("Headline: Big screens");
    expect(row(rows, "Creative")[5]).toContain("Aspect ratio: 16:9");
    // The quick build's categories: none before, the category's path, on, its bid after.
    expect(row(rows, "Categories").slice(2)).toEqual(["Edited", "Categories", "(none)", "Electronics > TV & video (on, €0.30)"]);
    // When, by whom, what: as the screen heads the entry.
    expect(rows[1]!.slice(0, 3)).toEqual(["27 Nov 2026, 01:16:45", "Sam Supplier", "Created"]);
  });

  it("in French too", () => {
    const rows = csv([categories, created], "fr").map((r) => r.map(nbsp));
    expect(row(rows, "Date de début").slice(4)).toEqual(["(aucun)", "28 nov. 2026, 00:00:00"]);
    expect(row(rows, "Statut")[5]).toBe("Brouillon");
    expect(row(rows, "Campagne rapide")[5]).toBe("Oui");
    expect(row(rows, "Catégories").slice(2)).toEqual(["Modification", "Catégories", "(aucun)", "Electronics > TV & video (activé, 0,30 €)"]);
  });
});

describe("a keyword added", () => {
  it("has nothing before, and the keyword, on or off and its bid in the currency after", () => {
    const added = entry("update", [targetsChange("tKeywords", ["laptop"], {}, { laptop: target("laptop", 50) })]);
    expect(csv([added]).slice(1)).toEqual([["27 Nov 2026, 01:16:45", "Sam Supplier", "Edited", "Keywords", "(none)", "laptop (on, €0.50)"]]);
    expect(csv([added], "fr").slice(1).map((r) => r.map(nbsp))).toEqual([["27 nov. 2026, 01:16:45", "Sam Supplier", "Modification", "Mots-clés", "(aucun)", "laptop (activé, 0,50 €)"]]);
  });

  it("names past twenty keywords by their count, and a keyword removed has nothing after", () => {
    const keys = Array.from({ length: 23 }, (_, i) => `kw${i}`);
    const many = entry("apply-min-bid", [targetsChange("tKeywords", keys, {}, Object.fromEntries(keys.map((k) => [k, target(k, null)])))]);
    const [, r] = csv([many]);
    expect(r![2]).toBe("Minimum bid applied");
    expect(r![5]).toMatch(/^kw0 \(on\); kw1 \(on\);.*; kw19 \(on\); \+3 more$/);
    const removed = entry("update", [targetsChange("tKeywords", ["laptop"], { laptop: target("laptop", 50) }, {})]);
    expect(csv([removed])[1]!.slice(4)).toEqual(["laptop (on, €0.50)", "(none)"]);
  });
});

describe("offers changed", () => {
  it("tells which products a keyword now advertises, by their titles, instead of 'No field changed.'", () => {
    const changed = entry("update", [
      targetsChange("tKeywords", ["laptop"], { laptop: target("laptop", 50, ["SKU-000002"]) }, { laptop: target("laptop", 50, ["SKU-000020"]) }),
    ]);
    const view = presentAuditEntry(changed, { locale: "en-GB", currency: "EUR", timeZone: "Europe/Paris" }, names, words["en-GB"]!);
    expect(view.changes).toHaveLength(1);
    expect(view.changes[0]!.lines).toEqual(["laptop: products added: Tablet Pro", "laptop: products removed: Phone X"]);
    expect(csv([changed]).slice(1)).toEqual([
      [
        "27 Nov 2026, 01:16:45",
        "Sam Supplier",
        "Edited",
        "Keywords\nlaptop: products added: Tablet Pro\nlaptop: products removed: Phone X",
        "laptop (on, €0.50, Products: Phone X)",
        "laptop (on, €0.50, Products: Tablet Pro)",
      ],
    ]);
  });

  it("tells the campaign's products added, removed, switched and moved by their titles", () => {
    const changed = entry("update", [
      {
        field: "offers",
        before: { "SKU-000002": { on: true, title: "Phone X", pos: 1 } },
        after: { "SKU-000002": { on: false, title: "Phone X", pos: 2 }, "SKU-000020": { on: true, title: "Tablet Pro", pos: null } },
      },
    ]);
    const [, r] = csv([changed]);
    expect(r![3]).toBe("Products\nAdded: Tablet Pro\nSwitched off: Phone X\nPhone X: position 1 → 2");
    expect(r!.slice(4)).toEqual(["Phone X (on, position 1)", "Phone X (off, position 2); Tablet Pro (on)"]);
  });
});

describe("a start date near midnight in Paris", () => {
  it("is the day and time of the reader's zone, in the reader's language", () => {
    const moved = entry("update", [{ field: "startDate", before: "2026-11-28T22:59:59.000Z", after: "2026-11-27T23:00:00.000Z" }]);
    expect(csv([moved])[1]!.slice(3)).toEqual(["Start date", "28 Nov 2026, 23:59:59", "28 Nov 2026, 00:00:00"]);
    expect(csv([moved], "fr")[1]!.slice(3).map(nbsp)).toEqual(["Date de début", "28 nov. 2026, 23:59:59", "28 nov. 2026, 00:00:00"]);
  });
});

describe("campaignHistoryCsvRows", () => {
  it("writes oldest first, entries of the same instant in the order they happened, and says when nothing visible changed", () => {
    const same = "2026-03-02T09:00:00.000Z";
    const rows = csv([
      entry("pause", [{ field: "status", before: "active", after: "paused" }], same),
      entry("enable", [{ field: "status", before: "draft", after: "active" }], same),
      entry("update", [{ field: "nameLower", before: "a", after: "b" }], "2026-03-01T08:00:00.000Z"),
    ]);
    expect(rows.slice(1).map((r) => r.slice(2))).toEqual([
      ["Edited", "No field changed.", "", ""],
      ["Activated", "Status", "Draft", "Active"],
      ["Paused", "Status", "Active", "Paused"],
    ]);
  });

  it("neutralises formulae once written", () => {
    const rows = csv([entry("update", [{ field: "name", before: "Spring", after: '=HYPERLINK("http://evil")' }])]);
    const parsed = Papa.parse<string[]>(Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN })).data;
    expect(parsed[1]![5]).toBe("'=HYPERLINK(\"http://evil\")");
  });

  it("gives a header row only when nothing was recorded", () => {
    expect(csv([])).toEqual([["When", "By", "Action", "Field", "Before", "After"]]);
  });
});

it.each([
  ["abc123", "campaign-abc123-history-2026-03-10.csv"],
  ["../etc/passwd", "campaign-etc-passwd-history-2026-03-10.csv"],
  ["///", "campaign-campaign-history-2026-03-10.csv"],
])("names the file after the campaign: %s", (id, expected) => {
  expect(campaignHistoryFileName(id, "2026-03-10")).toBe(expected);
});
