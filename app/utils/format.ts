/** Formatting for display, per locale (Intl). */
import { formatMoney, type CurrencyCode } from "~/domain/money";

export { formatMoney };

export function formatDateTime(iso: string | null | undefined, locale: string, timeZone: string): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

export type { CurrencyCode };
