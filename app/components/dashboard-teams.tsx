/** The dashboard's Teams tab: the teams the user may see, with links to their pages and their totals. */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TeamStatus } from "~/domain/types";
import { MoneyByCurrency } from "~/components/money-by-currency";
import { FormAlert } from "~/components/forms";
import { TeamStatusBadge } from "~/components/team-status-badge";

interface DashboardTeamsResult {
  ok: boolean;
  rows: { id: string; name: string; status: TeamStatus; walletCount: number; totals: { currency: string; balance: number; credit: number }[] }[];
  next: string | null;
}

export function DashboardTeams({ result, after }: { result: DashboardTeamsResult; after: string | null }) {
  const { t } = useTranslation("teams");
  return (
    <section className="panel" aria-labelledby="dashboard-teams-title">
      <h2 id="dashboard-teams-title">{t("dashboard.title")}</h2>
      {!result.ok ? <FormAlert title={t("errors.fetchTeams")} message={t("common:errors.errorOccurred")} /> : null}
      {result.ok && result.rows.length === 0 ? <p className="empty-state">{t("dashboard.empty")}</p> : null}
      {result.rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{t("dashboard.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("fields.name")}</th>
                <th scope="col">{t("fields.status")}</th>
                <th scope="col" className="num">
                  {t("list.wallets")}
                </th>
                <th scope="col" className="num">
                  {t("list.balance")}
                </th>
                <th scope="col" className="num">
                  {t("list.credit")}
                </th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <Link to={`/teams/${row.id}`}>{row.name}</Link>
                  </th>
                  <td>
                    <TeamStatusBadge status={row.status} />
                  </td>
                  <td className="num">{row.walletCount}</td>
                  <td className="num">
                    <MoneyByCurrency amounts={row.totals.map((m) => ({ currency: m.currency, cents: m.balance }))} />
                  </td>
                  <td className="num">
                    <MoneyByCurrency amounts={row.totals.map((m) => ({ currency: m.currency, cents: m.credit }))} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {after || result.next ? (
        <nav className="pagination" aria-label={t("list.pages")}>
          {after ? <Link to="/?tab=teams">{t("list.firstPage")}</Link> : null}
          {result.next ? <Link to={`/?tab=teams&after=${encodeURIComponent(result.next)}`}>{t("common:actions.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
