import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { campaignHistoryCsvRows, campaignHistoryFileName, historyCell, type HistoryCsvEntry } from "~/domain/campaigns/history-csv";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";

const headers = { at: "When", by: "By", action: "Action", field: "Field", before: "Before", after: "After" };

describe("historyCell: one value as a cell", () => {
  it.each<[string, string, unknown, string | number]>([
    ["null", "endDate", null, ""],
    ["missing", "endDate", undefined, ""],
    ["text", "name", "Spring sale", "Spring sale"],
    ["a plain number stays a number", "capping_max", 5, 5],
    ["boolean", "insufficient_funds", false, "false"],
    ["cents as decimals", "bid", 150, "1.50"],
    ["pacing in cents", "pacingDaily", 5, "0.05"],
    ["a record of cents", "placementBids", { search: 150, plp: 20 }, '{"search":"1.50","plp":"0.20"}'],
    ["a record of cents with nulls", "pacingDevices", { mobile: null, app: 1000 }, '{"mobile":null,"app":"10.00"}'],
    ["an object as JSON", "capping", { enabled: true, type: "views", max: 5 }, '{"enabled":true,"type":"views","max":5}'],
    ["an array as JSON", "slotsOff", ["slider"], '["slider"]'],
    ["a money field holding something odd", "bid", "n/a", "n/a"],
  ])("%s", (_label, field, value, expected) => {
    expect(historyCell(field, value)).toBe(expected);
  });
});

describe("campaignHistoryCsvRows", () => {
  // As the history gives them: newest first.
  const entries: HistoryCsvEntry[] = [
    {
      at: "2026-07-01T22:30:05.000Z",
      by: "admin@example.com",
      action: "pause",
      changes: [{ field: "status", before: "active", after: "paused" }],
    },
    {
      at: "2026-03-02T09:00:00.000Z",
      by: "",
      action: "update",
      changes: [
        { field: "bid", before: 50, after: 75 },
        { field: "name", before: "Spring", after: "=HYPERLINK(\"http://evil\")" },
      ],
    },
    { at: "2026-03-01T08:00:00.000Z", by: "editor@example.com", action: "create", changes: [{ field: "status", before: null, after: "draft" }] },
  ];

  it("writes one row per field, oldest first, dates in the time zone, 'system' when nobody", () => {
    const rows = campaignHistoryCsvRows(entries, { headers, timeZone: "Europe/Paris", actionLabel: (a) => a.toUpperCase() });
    expect(rows).toEqual([
      ["When", "By", "Action", "Field", "Before", "After"],
      ["2026-03-01 09:00:00", "editor@example.com", "CREATE", "status", "", "draft"],
      ["2026-03-02 10:00:00", "system", "UPDATE", "bid", "0.50", "0.75"],
      ["2026-03-02 10:00:00", "system", "UPDATE", "name", "Spring", '=HYPERLINK("http://evil")'],
      ["2026-07-02 00:30:05", "admin@example.com", "PAUSE", "status", "active", "paused"],
    ]);
  });

  it("keeps two entries of the same instant in the order they happened", () => {
    const same = "2026-03-02T09:00:00.000Z";
    const rows = campaignHistoryCsvRows(
      [
        { at: same, by: "b", action: "second", changes: [{ field: "f", before: 1, after: 2 }] },
        { at: same, by: "a", action: "first", changes: [{ field: "f", before: 0, after: 1 }] },
      ],
      { headers, timeZone: "UTC" },
    );
    expect(rows.slice(1).map((r) => r[2])).toEqual(["first", "second"]);
  });

  it("labels fields and neutralises formulae once written", () => {
    const rows = campaignHistoryCsvRows(entries.slice(1, 2), { headers, timeZone: "UTC", fieldLabel: (f) => `[${f}]` });
    const csv = Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN });
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[1]).toEqual(["2026-03-02 09:00:00", "system", "update", "[bid]", "0.50", "0.75"]);
    expect(parsed[2]![5]).toBe("'=HYPERLINK(\"http://evil\")");
  });

  it("gives a header row only when nothing was recorded", () => {
    expect(campaignHistoryCsvRows([], { headers, timeZone: "UTC" })).toEqual([["When", "By", "Action", "Field", "Before", "After"]]);
  });
});

it.each([
  ["abc123", "campaign-abc123-history-2026-03-10.csv"],
  ["../etc/passwd", "campaign-etc-passwd-history-2026-03-10.csv"],
  ["///", "campaign-campaign-history-2026-03-10.csv"],
])("names the file after the campaign: %s", (id, expected) => {
  expect(campaignHistoryFileName(id, "2026-03-10")).toBe(expected);
});
