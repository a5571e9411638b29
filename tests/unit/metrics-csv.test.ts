import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { figuresCsvRows, statisticsFileName } from "~/domain/metrics/csv";
import { derive } from "~/domain/metrics/metrics";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";

const metrics = { displays: "Displays", views: "Views", clicks: "Clicks", ctr: "CTR", cost: "Spend", sales: "Sales", roas: "ROAS" };

describe("statistics as CSV", () => {
  it("writes figures as plain numbers: money in currency units, CTR in percent, ROAS as a ratio, blanks where undefined", () => {
    const rows = figuresCsvRows({ name: "Campaign", team: "Advertiser", metrics }, [
      { name: "Spring", team: "Acme", figures: derive({ displays: 2000, views: 1500, clicks: 30, costMicros: 12_345_678, quantity: 2, salesCents: 5_998 }) },
      { name: "Idle", team: "Acme", figures: derive({ displays: 0, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 }) },
    ]);
    expect(rows).toEqual([
      ["Campaign", "Advertiser", "Displays", "Views", "Clicks", "CTR", "Spend", "Sales", "ROAS"],
      ["Spring", "Acme", "2000", "1500", "30", "1.50", "12.35", "59.98", "4.86"],
      ["Idle", "Acme", "0", "0", "0", "", "0.00", "0.00", ""],
    ]);
  });

  it("neutralises a name a spreadsheet would run as a formula", () => {
    const rows = figuresCsvRows({ name: "Campaign", metrics }, [{ name: "=HYPERLINK(\"http://evil\")", figures: derive({ displays: 1, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 }) }]);
    const csv = Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN });
    expect(csv.split("\r\n")[1].startsWith(`"'=HYPERLINK`)).toBe(true);
  });

  it("names the file after its subject and period, in safe characters", () => {
    expect(statisticsFileName("Campagne d’été / Noël", "2026-11-01", "2026-11-30")).toBe("Campagne-d-ete-Noel-2026-11-01_2026-11-30.csv");
    expect(statisticsFileName("***", "2026-11-24", "2026-11-24")).toBe("statistics-2026-11-24.csv");
  });
});
