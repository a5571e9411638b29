import { unknownIntent } from "~/http/reply.server";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms";
import { DailyBudgetReached, RecentlyUpdatedBadge, RunwayText, SpentMeter, WalletFields, WalletStatusBadge } from "~/components/wallets";
import { can } from "~/domain/permissions";
import { CreateWalletSchema, createWalletIntent } from "~/forms/wallets";
import { requirePermission, requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { redirectWithToast } from "~/http/toast.server";
import { createWallet, listTeamWallets, retailerSettings, viewContext } from "~/services/wallets.server";
import { useIsPending } from "~/utils/misc";
import { FormAlert } from "~/components/forms";
import { ExportLink, FiguresTable, Freshness, KpiTiles, MixedCurrenciesNote, PeriodForm, periodProps } from "~/components/metrics/statistics";
import { OVERVIEW_PRESETS as TEAM_PRESETS, periodFromSearch } from "~/domain/metrics/periods";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { teamWalletStatistics } from "~/services/wallet-statistics.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "wallets");

/** The Wallets tab of a team: every wallet with its money and runway; team managers create. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Wallet");
  const team = await requireVisibleTeam(user, params.teamId);
  const ctx = viewContext(user, await getRequestLocale(request));
  const choice = periodFromSearch(new URL(request.url).searchParams, { now: ctx.now, timeZone: retailerTimeZone() }, TEAM_PRESETS);
  const [wallets, statistics] = await Promise.all([listTeamWallets(team, ctx), teamWalletStatistics(user, team, choice.period, choice.previous, ctx.now)]);
  return {
    choice,
    statistics: statistics.ok ? statistics.value : null,
    statisticsFailure: statistics.ok ? null : statistics.reason,
    team: { id: team.id, name: team.name },
    wallets,
    canCreate: can(user, "Wallet", "create", { teamId: team.id }),
    seesSensitive: ctx.seesSensitive,
    defaultCurrency: retailerSettings().currency,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Wallet");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Wallet", "create", { teamId: team.id });
  const formData = await request.formData();
  if (formData.get("intent") !== createWalletIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: CreateWalletSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const wallet = await createWallet(user, team, submission.value);
  return redirectWithToast(`/teams/${team.id}/wallets/${wallet.id}`, {
    type: "success",
    title: "wallets:toast.created",
    values: { label: wallet.label },
  });
}

export default function WalletListRoute() {
  const { t } = useTranslation("wallets");
  const { team, wallets, canCreate, seesSensitive, choice, statistics, statisticsFailure } = useLoaderData<typeof loader>();
  const { t: mt } = useTranslation("metrics");
  return (
    <>
      <h2 id="wallets-title">{t("list.title")}</h2>
      {wallets.length === 0 ? (
        <div className="empty-state">
          <p>{t("list.empty")}</p>
          {canCreate ? <p>{t("list.emptyManager")}</p> : null}
        </div>
      ) : (
        <div className="table-wrap wallets-table-wrap" role="region" aria-labelledby="wallets-title" tabIndex={0}>
          <table className="wallets-table list-table">
            <caption className="visually-hidden">{t("list.caption", { team: team.name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("fields.label")}</th>
                <th scope="col">{t("fields.status")}</th>
                <th scope="col" className="num">{t("fields.balance")}</th>
                <th scope="col" className="num">{t("fields.credit")}</th>
                <th scope="col" className="num">{t("fields.debit")}</th>
                <th scope="col" className="num">{t("fields.dailyBudget")}</th>
                <th scope="col" className="num">{t("fields.todaySpend")}</th>
                <th scope="col">{t("fields.runway")}</th>
                {seesSensitive ? <th scope="col">{t("fields.tags")}</th> : null}
                {seesSensitive ? <th scope="col">{t("fields.external_id")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {wallets.map((w) => (
                <tr key={w.id}>
                  <th scope="row">
                    <Link to={`/teams/${team.id}/wallets/${w.id}`}>{w.label}</Link>
                    <span className="muted wallet-currency"> · {w.currency}</span>
                    {w.recentlyUpdated ? (
                      <>
                        {" "}
                        <RecentlyUpdatedBadge />
                      </>
                    ) : null}
                  </th>
                  <td data-label={t("fields.status")}>
                    <WalletStatusBadge status={w.status} liveStatus={w.liveStatus} />
                  </td>
                  <td className="num" data-label={t("fields.balance")}>{w.balance}</td>
                  <td className="num" data-label={t("fields.credit")}>{w.credit}</td>
                  <td className="num" data-label={t("fields.debit")}>{w.debit}</td>
                  <td className="num" data-label={t("fields.dailyBudget")}>
                    <div>
                      {w.dailyBudget ?? <span className="muted">{t("noDailyBudget")}</span>} <DailyBudgetReached reached={w.dailyBudgetReached} />
                    </div>
                  </td>
                  <td className="num" data-label={t("fields.todaySpend")}>{w.todaySpend}</td>
                  <td className="wallet-runway" data-label={t("fields.runway")}>
                    <div>
                      <RunwayText runway={w.runway} pendingFrom={w.runwayFrom} />
                      <SpentMeter id={`spent-${w.id}`} share={w.spent.share} spend={w.spend} funded={w.funded} percent={w.spent.percent} />
                    </div>
                  </td>
                  {seesSensitive ? <td data-label={t("fields.tags")}>{w.tags?.length ? w.tags.join(", ") : <span className="muted">—</span>}</td> : null}
                  {seesSensitive ? <td data-label={t("fields.external_id")}>{w.external_id || <span className="muted">—</span>}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {wallets.length > 0 ? (
        <section className="panel" aria-labelledby="wallets-statistics-title">
          <h3 id="wallets-statistics-title">{mt("title")}</h3>
          <PeriodForm presets={TEAM_PRESETS} {...periodProps(choice)} />
          {statisticsFailure ? <FormAlert title={mt(statisticsFailure)} message={t("common:errors.errorOccurred")} /> : null}
          {statistics ? (
            <>
              <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} currency={statistics.currency} comparedUntil={statistics.comparedUntil} />
              {statistics.currency === null ? <MixedCurrenciesNote /> : null}
              <Freshness newestEvent={statistics.newestEvent} />
              <FiguresTable caption={mt("walletsCaption", { team: team.name })} nameLabel={t("fields.label")} rows={statistics.rows} />
              <p>
                <ExportLink path={`/teams/${encodeURIComponent(team.id)}/wallets/statistics.csv`} label={mt("exportTable", { table: mt("dashboard.wallets") })} rows={statistics.rows.length} />
              </p>
            </>
          ) : null}
        </section>
      ) : null}
      {canCreate ? <CreateWalletPanel /> : null}
    </>
  );
}

function CreateWalletPanel() {
  const { t } = useTranslation("wallets");
  const { defaultCurrency } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "create-wallet-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(CreateWalletSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateWalletSchema }),
    defaultValue: { currency: defaultCurrency, status: "active" },
    shouldValidate: "onBlur",
  });
  return (
    <section className="panel wallet-section" aria-labelledby="create-wallet-title">
      <details className="wallet-disclosure" open={actionData?.result ? true : undefined}>
        <summary id="create-wallet-title">{t("create.title")}</summary>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={createWalletIntent} />
          <WalletFields fields={fields} />
          <SubmitButton pending={pending}>{t("create.submit")}</SubmitButton>
        </Form>
      </details>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
