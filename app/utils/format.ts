/** Formatting for display, per locale (Intl). */
import { formatMoney, type CurrencyCode } from "~/domain/money";
import { dateTimeFormat } from "~/domain/intl";

export { formatMoney };

export function formatDateTime(iso: string | null | undefined, locale: string, timeZone: string): string {
  if (!iso) return "";
  return dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

export type { CurrencyCode };
