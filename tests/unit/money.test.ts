import { describe, expect, it } from "vitest";
import { currencyForLocale, formatMoney, MAX_AMOUNT_MINOR, parseAmountToMinor } from "~/domain/money";

/** Intl separates with no-break spaces (U+00A0 or U+202F, by ICU version): compare them as spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney: cents shown /100 in the retailer's currency", () => {
  it.each([
    [10000, "EUR", "en-GB", "€100.00"],
    [10000, "EUR", "fr", "100,00 €"],
    [10000, "EUR", "fr-FR", "100,00 €"],
    [1, "EUR", "en-GB", "€0.01"],
    [123456789, "EUR", "en-GB", "€1,234,567.89"],
    [123456789, "EUR", "fr", "1 234 567,89 €"],
    [-2550, "EUR", "en-GB", "-€25.50"],
    [0, "EUR", "fr", "0,00 €"],
    [10000, "PLN", "pl-PL", "100,00 zł"],
    [123456, "PLN", "pl-PL", "1234,56 zł"],
  ])("%i cents in %s, %s -> %s", (minor, currency, locale, expected) => {
    expect(plain(formatMoney(minor, currency, locale))).toBe(expected);
  });

  it("is exactly what Intl prints, no-break spaces included", () => {
    const fr = formatMoney(10000, "EUR", "fr");
    expect(fr).toBe(new Intl.NumberFormat("fr", { style: "currency", currency: "EUR" }).format(100));
    expect(fr).toMatch(/^100,00[\u00a0\u202f]€$/);
  });

  it("refuses amounts that are not integer cents", () => {
    expect(() => formatMoney(100.5, "EUR", "en-GB")).toThrow(RangeError);
    expect(() => formatMoney(Number.NaN, "EUR", "en-GB")).toThrow(RangeError);
    expect(() => formatMoney(2 ** 60, "EUR", "en-GB")).toThrow(RangeError);
  });
});

describe("currencyForLocale: euros, or zlotys for a Polish retailer", () => {
  it.each([
    ["pl-PL", "PLN"],
    ["pl", "PLN"],
    ["PL-pl", "PLN"],
    ["fr-FR", "EUR"],
    ["en-GB", "EUR"],
    ["de-DE", "EUR"],
  ])("%s -> %s", (locale, currency) => {
    expect(currencyForLocale(locale)).toBe(currency);
  });

  it("formats a Polish retailer's amount in zlotys", () => {
    const currency = currencyForLocale("pl-PL");
    expect(plain(formatMoney(4999, currency, "pl-PL"))).toBe("49,99 zł");
    expect(plain(formatMoney(4999, currency, "en-GB"))).toBe("PLN 49.99");
  });
});

describe("parseAmountToMinor: exact cents", () => {
  it.each([
    ["100", 10000],
    ["100.5", 10050],
    ["100,5", 10050],
    ["100.25", 10025],
    ["100,25", 10025],
    ["0.01", 1],
    ["0,1", 10],
    ["19.99", 1999],
    ["0.29", 29],
    ["1.15", 115],
    ["4.35", 435],
    ["1 000,25", 100025],
    ["1\u00a0000,25", 100025],
    ["1\u202f000.25", 100025],
    ["  42  ", 4200],
    ["007", 700],
    ["1000000000", MAX_AMOUNT_MINOR],
    ["999999999.99", MAX_AMOUNT_MINOR - 1],
  ])("%j -> %i cents", (input, cents) => {
    expect(parseAmountToMinor(input)).toEqual({ ok: true, value: cents });
  });

  it("never goes through floating point (every cent from 0.01 to 9.99 round-trips)", () => {
    for (let cents = 1; cents < 1000; cents++) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
      expect(parseAmountToMinor(text)).toEqual({ ok: true, value: cents });
    }
  });

  it.each([["0"], ["0.00"], ["0,0"], ["-5"], ["-0.01"], ["- 5"]])("%j is not positive", (input) => {
    expect(parseAmountToMinor(input)).toEqual({ ok: false, reason: "amount.notPositive" });
  });

  it.each([
    [""],
    ["   "],
    ["abc"],
    ["12abc"],
    ["1e5"],
    ["1.005"],
    ["1.2.3"],
    ["1,000.25"],
    ["+5"],
    [".5"],
    ["5."],
    ["€100"],
    ["100 €"],
    ["NaN"],
    ["Infinity"],
    ["0x10"],
  ])("%j is invalid", (input) => {
    expect(parseAmountToMinor(input)).toEqual({ ok: false, reason: "amount.invalid" });
  });

  it.each([["1000000000.01"], ["1000000001"], ["99999999999999"], ["9".repeat(40)], ["123456789012345678901234567890.50"]])(
    "%j is too large",
    (input) => {
      expect(parseAmountToMinor(input)).toEqual({ ok: false, reason: "amount.tooLarge" });
    },
  );

  it("keeps the cap at one thousand million currency units", () => {
    expect(MAX_AMOUNT_MINOR).toBe(100_000_000_000);
  });
});
