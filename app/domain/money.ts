/** Money is integer cents (minor units), shown /100 in the retailer's currency with Intl. */
import { numberFormat } from "~/domain/intl";

export type CurrencyCode = "EUR" | "PLN";

/**
 * An amount of money in integer cents (minor units): the one unit below the view. Stored fields
 * keep the spec's names (balance, dailyBudget…); their type says the unit.
 */
export type Cents = number;

/** EUR, or PLN when the retailer's currency locale is Polish. */
export function currencyForLocale(currencyLocale: string): CurrencyCode {
  return currencyLocale.toLowerCase().startsWith("pl") ? "PLN" : "EUR";
}

export function formatMoney(minor: Cents, currency: CurrencyCode | string, locale: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Money must be integer cents, got ${minor}`);
  return numberFormat(locale, { style: "currency", currency }).format(minor / 100);
}

export const MAX_AMOUNT_MINOR = 1_000_000_000_00; // one thousand million currency units

export type ParseAmountResult =
  | { ok: true; value: number }
  | { ok: false; reason: "amount.invalid" | "amount.notPositive" | "amount.tooLarge" };

/**
 * Parses an amount typed in currency units ("100", "100.5", "1 000,25") into cents, exactly:
 * no floating point is involved.
 */
export function parseAmountToMinor(input: string): ParseAmountResult {
  const compact = input.trim().replace(/[\s\u00a0\u202f]/g, "");
  const match = /^(-)?(\d+)(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return { ok: false, reason: "amount.invalid" };
  const [, minus, units, fraction = ""] = match;
  if (units.length > 13) return { ok: false, reason: "amount.tooLarge" };
  const minor = Number(units) * 100 + Number(fraction.padEnd(2, "0"));
  if (minus || minor <= 0) return { ok: false, reason: "amount.notPositive" };
  if (minor > MAX_AMOUNT_MINOR) return { ok: false, reason: "amount.tooLarge" };
  return { ok: true, value: minor };
}
