/**
 * Amounts in several currencies, each formatted with Intl in its own currency and never added
 * up: "€100.00 · PLN 400.00" (a team's wallets may hold two currencies).
 */
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/utils/format";

export function MoneyByCurrency({ amounts }: { amounts: readonly { currency: string; cents: number }[] }) {
  const { i18n } = useTranslation();
  return (
    <span className="money-by-currency">
      {amounts.map((a, i) => (
        <Fragment key={a.currency}>
          {i > 0 ? <span aria-hidden="true"> · </span> : null}
          <span className="money-amount" data-currency={a.currency}>
            {formatMoney(a.cents, a.currency, i18n.language)}
          </span>
          {i < amounts.length - 1 ? <span className="visually-hidden">, </span> : null}
        </Fragment>
      ))}
    </span>
  );
}
