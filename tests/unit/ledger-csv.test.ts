import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CSV_FORMULA_PATTERN, csvDateTime, csvFileName, ledgerCsvRows, minorToDecimal, spendOf, type CsvEntry } from "~/domain/wallets/ledger-csv";

describe("the ledger as CSV", () => {
  it("writes cents as exact decimals", () => {
    expect(minorToDecimal(10_050)).toBe("100.50");
    expect(minorToDecimal(5)).toBe("0.05");
    expect(minorToDecimal(0)).toBe("0.00");
    expect(minorToDecimal(-5)).toBe("-0.05");
    expect(minorToDecimal(100_000_000_000_00)).toBe("100000000000.00");
    expect(() => minorToDecimal(1.5)).toThrow(RangeError);
  });

  it("neutralises formula-like text but not plain numbers", () => {
    const csv = Papa.unparse([["=1+1", "+1", "-2+3", "@SUM(A1)", "\tx", "-5.00", "100.50", "INV-1", "a=b"]], { escapeFormulae: CSV_FORMULA_PATTERN });
    expect(Papa.parse<string[]>(csv).data[0]).toEqual(["'=1+1", "'+1", "'-2+3", "'@SUM(A1)", "'\tx", "-5.00", "100.50", "INV-1", "a=b"]);
  });

  it("lays entries out as a statement, oldest first, credit and debit apart", () => {
    const entry = (seq: number, type: "credit" | "debit", amount: number, balanceAfter: number, extra: Partial<CsvEntry> = {}): CsvEntry => ({
      seq,
      at: `2026-03-0${seq}T12:00:00Z`,
      type,
      amount,
      balanceAfter,
      reference: `R${seq}`,
      comment: "secret",
      by: "a@b.c",
      reversalOfSeq: null,
      reversed: false,
      ...extra,
    });
    const headers = { seq: "No", date: "Date", type: "Type", credit: "Cr", debit: "Dr", balanceAfter: "Bal", reference: "Ref", comment: "Com", by: "By", reversalOf: "RevOf", reversed: "Rev" };
    const common = { headers, timeZone: "Europe/Paris", typeLabel: (t: string) => t.toUpperCase(), yes: "yes" };
    const entries = [entry(3, "credit", 3000, 10_000, { reversalOfSeq: 2 }), entry(1, "credit", 10_000, 10_000), entry(2, "debit", 3000, 7000, { reversed: true })];
    const rows = ledgerCsvRows(entries, { ...common, includeComment: true });
    expect(rows).toEqual([
      ["No", "Date", "Type", "Cr", "Dr", "Bal", "Ref", "Com", "By", "RevOf", "Rev"],
      [1, "2026-03-01 13:00:00", "CREDIT", "100.00", "", "100.00", "R1", "secret", "a@b.c", "", ""],
      [2, "2026-03-02 13:00:00", "DEBIT", "", "30.00", "70.00", "R2", "secret", "a@b.c", "", "yes"],
      [3, "2026-03-03 13:00:00", "CREDIT", "30.00", "", "100.00", "R3", "secret", "a@b.c", 2, ""],
    ]);
    expect(ledgerCsvRows(entries, { ...common, includeComment: false }).flat()).not.toContain("secret");
  });

  it("writes dates in the retailer's time zone", () => {
    expect(csvDateTime("2026-07-01T22:30:05Z", "Europe/Paris")).toBe("2026-07-02 00:30:05");
  });

  it("names the file after the wallet and the period", () => {
    expect(csvFileName("Printemps / Été 2026", { from: "2026-03-01", to: "2026-03-31" }, "2026-11-22")).toBe("wallet-printemps-ete-2026-2026-03-01-2026-03-31.csv");
    expect(csvFileName("€€€", {}, "2026-11-22")).toBe("wallet-wallet-start-2026-11-22.csv");
  });

  it("counts spend as debits less the credits that reverse them", () => {
    expect(
      spendOf([
        { type: "debit", amount: 3000, reversalOf: null },
        { type: "credit", amount: 1000, reversalOf: "x" },
        { type: "credit", amount: 10_000, reversalOf: null },
        { type: "debit", amount: 500, reversalOf: "funding-mistake" },
      ]),
    ).toBe(2000);
    expect(spendOf([{ type: "credit", amount: 1000, reversalOf: "x" }])).toBe(0);
  });
});
