import { reply, replyFailure, unknownIntent } from "~/http/reply.server";
import { randomUUID } from "node:crypto";
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Freshness, KpiTiles, PeriodForm, periodProps } from "~/components/metrics/statistics";
import { periodFromSearch, periodParamNames, WALLET_PRESETS, walletPresetContext } from "~/domain/metrics/periods";
import { walletStatistics } from "~/services/wallet-statistics.server";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { DailyBudgetReached, RecentlyUpdatedBadge, SpentMeter, WalletFields, WalletStatusBadge } from "~/components/wallets";
import { periodInstants } from "~/domain/wallets/ledger-period";
import { formatMoney } from "~/domain/money";
import { can } from "~/domain/permissions";
import type { Team, User, Wallet } from "~/domain/types";
import {
  ENTRY_TYPES,
  PostEntrySchema,
  postEntryIntent,
  ReverseEntrySchema,
  reverseEntryIntent,
  UpdateWalletSchema,
  updateWalletIntent,
} from "~/forms/wallets";
import { requirePermission, requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { requireTeamWallet, requireVisibleTeam } from "~/http/scope.server";
import { redirectWithToast } from "~/http/toast.server";
import {
  getEntryView,
  listLedgerPage,
  postEntry,
  presentWallet,
  reverseEntry,
  updateWallet,
  viewContext,
  walletFormDefaults,
} from "~/services/wallets.server";
import { cn } from "~/utils/misc";
import { useByName } from "~/components/by-name";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => (data ? pageTitle(matches, { name: data.wallet.label }) : pageTitle(matches, "wallets"));

/**
 * The URL names of the wallet's statistics period (statsPeriod, statsFrom…): from and to are the
 * ledger's date filter.
 */
const STATS_PREFIX = "stats";

/**
 * A wallet: its money, runway and settings, its statistics for a period (default its lifetime),
 * and its ledger (posting, reversal, period, CSV).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Wallet");
  const team = await requireVisibleTeam(user, params.teamId);
  const wallet = await requireTeamWallet(team, params.walletId);
  const ctx = viewContext(user, await getRequestLocale(request));
  const search = new URL(request.url).searchParams;
  const from = search.get("from") || "";
  const to = search.get("to") || "";
  const period = periodInstants({ from: from || undefined, to: to || undefined }, ctx.retailerTimeZone);
  const canManage = can(user, "Wallet", "update", { teamId: team.id });
  const reverseId = search.get("reverse");
  const choice = periodFromSearch(search, { now: ctx.now, timeZone: ctx.retailerTimeZone, ...walletPresetContext(wallet) }, WALLET_PRESETS, {
    defaultPreset: "walletLifetime",
    prefix: STATS_PREFIX,
  });
  const [statistics, page, reverse] = await Promise.all([
    walletStatistics(user, wallet, choice.period, choice.previous, ctx.now),
    listLedgerPage(wallet, { ...(period.ok ? period.value : {}), after: search.get("after") }, ctx),
    canManage && reverseId ? getEntryView(wallet, reverseId, ctx) : null,
  ]);
  return {
    team: { id: team.id, name: team.name },
    wallet: presentWallet(wallet, ctx),
    form: canManage ? walletFormDefaults(wallet) : null,
    entries: page.entries,
    next: page.next,
    paged: !!search.get("after"),
    filter: { from, to, error: period.ok ? null : { field: period.field, reason: `wallets:${period.reason}` } },
    canManage,
    seesSensitive: ctx.seesSensitive,
    retailerTimeZone: ctx.retailerTimeZone,
    /** A fresh idempotency key for each posting form shown: a double submission records one entry. */
    postKey: canManage && wallet.status !== "archived" ? randomUUID() : null,
    reverse: reverse && reverse.reversible ? reverse : null,
    choice,
    statistics: statistics.ok ? statistics.value : null,
    statisticsFailure: statistics.ok ? null : statistics.reason,
  };
}

async function loadForAction(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request, "Wallet");
  const team = await requireVisibleTeam(user, params.teamId);
  const wallet = await requireTeamWallet(team, params.walletId);
  // Only team managers change a wallet or post to its ledger.
  requirePermission(user, "Wallet", "update", { teamId: team.id });
  return { user, team, wallet };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, team, wallet } = await loadForAction(request, params);
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case updateWalletIntent:
      return saveWallet(user, team, wallet, formData);
    case postEntryIntent:
      return post(request, user, team, wallet, formData);
    case reverseEntryIntent:
      return reverse(request, user, team, wallet, formData);
    default:
      return unknownIntent();
  }
}

const walletPath = (team: Team, wallet: Wallet) => `/teams/${team.id}/wallets/${wallet.id}`;

async function saveWallet(user: User, team: Team, wallet: Wallet, formData: FormData) {
  const submission = parseWithZod(formData, { schema: UpdateWalletSchema });
  if (submission.status !== "success") return data({ form: "wallet" as const, result: submission.reply() }, { status: 400 });
  return reply(await updateWallet(user, wallet, submission.value), {
    form: "wallet" as const,
    submission,
    onSuccess: () => ({ to: walletPath(team, wallet), toast: { type: "success", title: "toast.changesSaved" } }),
  });
}

async function post(request: Request, user: User, team: Team, wallet: Wallet, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PostEntrySchema });
  if (submission.status !== "success") return data({ form: "entry" as const, result: submission.reply() }, { status: 400 });
  const outcome = await postEntry(user, wallet, submission.value);
  if (!outcome.ok) {
    if (outcome.kind === "not-found") throw data({ error: "errors.notFound" }, { status: 404 });
    return replyFailure("entry" as const, outcome, submission);
  }
  const locale = await getRequestLocale(request);
  const { entry, wallet: saved } = outcome.value;
  const money = (minor: number) => formatMoney(minor, saved.currency, locale);
  return redirectWithToast(walletPath(team, wallet), {
    type: "success",
    title: "wallets:toast.posted",
    description: entry.type === "credit" ? "wallets:toast.credited" : "wallets:toast.debited",
    values: { amount: money(entry.amount), balance: money(saved.balance) },
  });
}

async function reverse(request: Request, user: User, team: Team, wallet: Wallet, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ReverseEntrySchema });
  if (submission.status !== "success") return data({ form: "reverse" as const, result: submission.reply() }, { status: 400 });
  const outcome = await reverseEntry(user, wallet, submission.value.entryId, submission.value.comment);
  if (!outcome.ok) {
    if (outcome.kind === "not-found") throw data({ error: "errors.notFound" }, { status: 404 });
    return replyFailure("reverse" as const, outcome, submission);
  }
  const locale = await getRequestLocale(request);
  return redirectWithToast(walletPath(team, wallet), {
    type: "success",
    title: "wallets:toast.reversed",
    description: "wallets:toast.reversedDescription",
    values: { seq: outcome.value.entry.seq, balance: formatMoney(outcome.value.wallet.balance, outcome.value.wallet.currency, locale) },
  });
}

/** True while this page's form with this intent is being sent (three forms share one action). */
function useIntentPending(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === intent;
}

export default function WalletRoute() {
  const { t } = useTranslation("wallets");
  const { team, wallet, canManage, postKey, reverse, seesSensitive } = useLoaderData<typeof loader>();
  // With JS, Cancel on the reversal's confirmation gives focus back to the entry's Reverse link
  // (after a reversal the link is gone: the content takes the focus, see Toasts).
  const lastReverse = useRef<string | null>(null);
  useEffect(() => {
    const previous = lastReverse.current;
    lastReverse.current = reverse?.id ?? null;
    if (previous && !reverse) document.querySelector<HTMLElement>(`[data-reverse-entry="${CSS.escape(previous)}"]`)?.focus();
  }, [reverse]);
  return (
    <>
      <p className="wallet-back">
        <Link to={`/teams/${team.id}/wallets`}>{t("page.back")}</Link>
      </p>
      <div className="wallet-heading">
        <h2 id="wallet-title">{wallet.label}</h2>
        <WalletStatusBadge status={wallet.status} liveStatus={wallet.liveStatus} />
        {wallet.recentlyUpdated ? <RecentlyUpdatedBadge /> : null}
      </div>
      {reverse ? <ReverseConfirmation entry={reverse} /> : null}
      <section className="panel wallet-section" aria-labelledby="wallet-money-title">
        <h3 id="wallet-money-title">{t("page.money")}</h3>
        <p className="wallet-balance">
          <span className="muted">{t("fields.balance")}</span> <strong data-testid="wallet-balance">{wallet.balance}</strong>
        </p>
        <dl className="facts">
          <dt>{t("fields.credit")}</dt>
          <dd>{wallet.credit}</dd>
          <dt>{t("fields.debit")}</dt>
          <dd>{wallet.debit}</dd>
          <dt>{t("fields.dailyBudget")}</dt>
          <dd>
            {wallet.dailyBudget ?? t("noDailyBudget")} <DailyBudgetReached reached={wallet.dailyBudgetReached} />
          </dd>
          <dt>{t("fields.todaySpend")}</dt>
          <dd>{wallet.todaySpend}</dd>
          <dt>{t("fields.runway")}</dt>
          <dd>
            {wallet.runway ? (
              <>
                {t("runway.long", { count: wallet.runway.daysToGo, days: wallet.runway.daysToGoText, date: wallet.runway.shouldEndBy, rate: wallet.runway.dailyRate })}
              </>
            ) : wallet.runwayFrom ? (
              t("runway.notYetLong", { time: wallet.runwayFrom })
            ) : (
              t("runway.none")
            )}
          </dd>
          <dt>{t("spent.label")}</dt>
          <dd>
            <SpentMeter id="wallet-spent" share={wallet.spent.share} spend={wallet.spend} funded={wallet.funded} percent={wallet.spent.percent} />
          </dd>
          <dt>{t("fields.currency")}</dt>
          <dd>{wallet.currency}</dd>
          <dt>{t("fields.budgetEditing")}</dt>
          <dd>{t(wallet.budgetEditing ? "yes" : "no")}</dd>
          {seesSensitive ? (
            <>
              <dt>{t("fields.tags")}</dt>
              <dd>{wallet.tags?.length ? wallet.tags.join(", ") : "—"}</dd>
              <dt>{t("fields.external_id")}</dt>
              <dd>{wallet.external_id || "—"}</dd>
            </>
          ) : null}
          <dt>{t("fields.balanceUpdated")}</dt>
          <dd>{wallet.balanceUpdated ?? t("page.neverUpdated")}</dd>
        </dl>
      </section>
      <WalletStatistics />
      {canManage && wallet.archived ? (
        <p className="notice" role="note">
          {t("page.archivedNotice")}
        </p>
      ) : null}
      {canManage && postKey ? <PostEntryPanel key={postKey} postKey={postKey} /> : <PostingRefused />}
      <LedgerSection />
      {canManage ? <EditWalletPanel /> : null}
    </>
  );
}

function PostEntryPanel({ postKey }: { postKey: string }) {
  const { t } = useTranslation("wallets");
  const { t: tc } = useTranslation();
  const { wallet } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIntentPending(postEntryIntent);
  const [form, fields] = useForm({
    id: "post-entry-form",
    lastResult: actionData?.form === "entry" ? actionData.result : undefined,
    constraint: getZodConstraint(PostEntrySchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PostEntrySchema }),
    defaultValue: { type: "credit" },
    shouldValidate: "onBlur",
  });
  return (
    <section className="panel wallet-section" aria-labelledby="post-entry-title">
      <h3 id="post-entry-title">{t("entry.title")}</h3>
      {form.errors?.length ? <FormAlert title={t("entry.refused")} message={tc(form.errors[0])} /> : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={postEntryIntent} />
        <input type="hidden" name="idempotencyKey" value={postKey} />
        {/* Nothing can be typed while an entry is being sent: the form is renewed (new key) once it is booked. */}
        <fieldset className="plain-fieldset" disabled={pending}>
          <fieldset className="wallet-type-choice" aria-describedby={fields.type.errors?.length ? `${fields.type.id}-error` : undefined}>
            <legend>{t("fields.type")}</legend>
            {ENTRY_TYPES.map((type) => {
              const props = getInputProps(fields.type, { type: "radio", value: type });
              return (
                <label key={type} className="radio">
                  <input {...props} key={`${fields.type.key}-${type}`} id={`${fields.type.id}-${type}`} />
                  {t(`entry.types.${type}`)}
                </label>
              );
            })}
            <ErrorList id={`${fields.type.id}-error`} errors={fields.type.errors} />
          </fieldset>
          <div className="field-row">
            <Field
              label={t("fields.amount", { currency: wallet.currency })}
              inputProps={{ ...getInputProps(fields.amount, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
              errors={fields.amount.errors}
              help={t("entry.amountHelp")}
            />
            <Field
              label={t("fields.reference")}
              inputProps={{ ...getInputProps(fields.reference, { type: "text" }), autoComplete: "off" }}
              errors={fields.reference.errors}
              help={t("entry.referenceHelp")}
            />
          </div>
          <div className="field">
            <label htmlFor={fields.comment.id}>{t("fields.comment")}</label>
            <textarea
              {...getTextareaProps(fields.comment)}
              key={fields.comment.key}
              rows={2}
              aria-describedby={[`${fields.comment.id}-help`, fields.comment.errors?.length ? `${fields.comment.id}-error` : ""].filter(Boolean).join(" ")}
            />
            <p id={`${fields.comment.id}-help`} className="field-help">
              {t("entry.commentHelp")}
            </p>
            <ErrorList id={`${fields.comment.id}-error`} errors={fields.comment.errors} />
          </div>
          <SubmitButton pending={pending}>{t("entry.submit")}</SubmitButton>
        </fieldset>
      </Form>
    </section>
  );
}

/**
 * A posting refused because the wallet can no longer take one (archived meanwhile): the page
 * shows no form any more, so the refusal is said where the form was.
 */
function PostingRefused() {
  const { t } = useTranslation("wallets");
  const { t: tc } = useTranslation();
  const actionData = useActionData<typeof action>();
  const error = actionData?.form === "entry" ? actionData.result?.error?.[""]?.[0] : undefined;
  if (!error) return null;
  return (
    <section className="panel wallet-section" aria-labelledby="post-entry-title">
      <h3 id="post-entry-title">{t("entry.title")}</h3>
      <FormAlert title={t("entry.refused")} message={tc(error)} />
    </section>
  );
}

function ReverseConfirmation({ entry }: { entry: NonNullable<Awaited<ReturnType<typeof loader>>["reverse"]> }) {
  const { t } = useTranslation("wallets");
  const { t: tc } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const pending = useIntentPending(reverseEntryIntent);
  const cancel = new URLSearchParams(params);
  cancel.delete("reverse");
  const [form, fields] = useForm({
    id: "reverse-entry-form",
    lastResult: actionData?.form === "reverse" ? actionData.result : undefined,
    constraint: getZodConstraint(ReverseEntrySchema),
    shouldValidate: "onBlur",
  });
  const opposite = entry.type === "credit" ? "debit" : "credit";
  // The confirmation appears above the ledger: with JS it takes the focus (the Reverse link pressed
  // is far below), so the next Tab reaches its comment and buttons.
  const section = useRef<HTMLElement>(null);
  useEffect(() => section.current?.focus(), [entry.id]);
  return (
    <section ref={section} tabIndex={-1} className="panel wallet-section wallet-confirm" role="region" aria-labelledby="reverse-title">
      <h3 id="reverse-title">{t("reverse.title", { seq: entry.seq })}</h3>
      <p>
        {t("reverse.explain", {
          type: t(`entry.types.${entry.type}`).toLowerCase(),
          amount: entry.amount,
          reference: entry.reference,
          opposite: t(`entry.types.${opposite}`).toLowerCase(),
        })}
      </p>
      {form.errors?.length ? <FormAlert title={t("reverse.refused")} message={tc(form.errors[0])} /> : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={reverseEntryIntent} />
        <input type="hidden" name="entryId" value={entry.id} />
        <div className="field">
          <label htmlFor={fields.comment.id}>{t("fields.comment")}</label>
          <textarea {...getTextareaProps(fields.comment)} key={fields.comment.key} rows={2} />
          <ErrorList errors={fields.comment.errors} />
        </div>
        <div className="wallet-button-row">
          <SubmitButton pending={pending}>{t("reverse.confirm")}</SubmitButton>
          <Link className="button" to={`?${cancel.toString()}`} preventScrollReset>
            {t("reverse.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}

function LedgerSection() {
  const byName = useByName();
  const { t } = useTranslation("wallets");
  const { t: tc } = useTranslation();
  const { team, wallet, entries, next, paged, filter, canManage, seesSensitive, retailerTimeZone } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const ledgerDays = new URLSearchParams();
  if (filter.from) ledgerDays.set("from", filter.from);
  if (filter.to) ledgerDays.set("to", filter.to);
  // The statistics' period stays as it is while the ledger is filtered, cleared or paged.
  const statisticsParams = useStatisticsParams();
  const periodQuery = new URLSearchParams([...statisticsParams, ...ledgerDays]);
  const nextQuery = new URLSearchParams(periodQuery);
  if (next) nextQuery.set("after", next);
  const reverseQuery = (id: string) => {
    const q = new URLSearchParams(params);
    q.set("reverse", id);
    return `?${q.toString()}`;
  };
  const filtered = !!(filter.from || filter.to);
  const exportHref = `/teams/${team.id}/wallets/${wallet.id}/export.csv${ledgerDays.size ? `?${ledgerDays.toString()}` : ""}`;
  return (
    <section className="panel wallet-section">
      <h3 id="ledger-title">{t("ledger.title")}</h3>
      <Form method="get" className="filters ledger-filters" aria-label={t("ledger.filter")}>
        {statisticsParams.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {(["from", "to"] as const).map((bound) => (
          <div className="field" key={bound}>
            <label htmlFor={`ledger-${bound}`}>{t(`ledger.${bound}`)}</label>
            <input
              id={`ledger-${bound}`}
              type="date"
              name={bound}
              defaultValue={filter[bound]}
              aria-invalid={filter.error?.field === bound || undefined}
              aria-describedby={filter.error?.field === bound ? "ledger-filter-error" : undefined}
            />
          </div>
        ))}
        <button type="submit" className="button">
          {tc("actions.filter")}
        </button>
        {filtered ? (
          <Link to={`?${new URLSearchParams(statisticsParams).toString()}`} className="button">
            {t("ledger.clear")}
          </Link>
        ) : null}
        <a className="button" href={exportHref} download>
          {t("ledger.export")}
        </a>
      </Form>
      {filter.error ? (
        <p id="ledger-filter-error" className="form-alert" role="alert">
          {t(filter.error.reason)}
        </p>
      ) : null}
      <p className="muted">{t("ledger.periodHelp", { timeZone: retailerTimeZone })}</p>
      {entries.length === 0 ? (
        <p className="empty-state">{t(filtered ? "ledger.emptyPeriod" : paged ? "ledger.emptyPage" : "ledger.empty")}</p>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="ledger-title" tabIndex={0}>
          <table className="ledger-table list-table">
            <caption className="visually-hidden">{t("ledger.caption", { label: wallet.label })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("ledger.seq")}</th>
                <th scope="col">{t("ledger.when")}</th>
                <th scope="col">{t("fields.type")}</th>
                <th scope="col" className="num">{t("ledger.amount")}</th>
                <th scope="col" className="num">{t("ledger.balanceAfter")}</th>
                <th scope="col">{t("fields.reference")}</th>
                {seesSensitive ? <th scope="col">{t("fields.comment")}</th> : null}
                <th scope="col">{t("ledger.by")}</th>
                <th scope="col">{t("ledger.state")}</th>
                {canManage ? <th scope="col">{t("ledger.actions")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} id={`entry-${e.seq}`} className={cn(e.reversed && "entry-reversed")}>
                  <td data-label={t("ledger.seq")}>{e.seq}</td>
                  <td data-label={t("ledger.when")}>
                    <time dateTime={e.atIso}>{e.at}</time>
                  </td>
                  <td data-label={t("fields.type")}>{t(`entry.types.${e.type}`)}</td>
                  <td className={cn("num", `amount-${e.type}`)} data-label={t("ledger.amount")}>
                    <span>
                      {e.type === "debit" ? "−" : "+"}
                      {e.amount}
                    </span>
                  </td>
                  <td className="num" data-label={t("ledger.balanceAfter")}>{e.balanceAfter}</td>
                  <td data-label={t("fields.reference")}>{e.reference}</td>
                  {seesSensitive ? <td data-label={t("fields.comment")}>{(e.commentKey ? t(e.commentKey) : e.comment) || <span className="muted">—</span>}</td> : null}
                  <td data-label={t("ledger.by")}>{e.realBy ? tc("activity.loggedAs", { operator: e.realBy, user: e.by }) : byName(e.by)}</td>
                  <td className="ledger-state" data-label={t("ledger.state")}>
                    {e.reversed ? <span className="wallet-badge wallet-badge-reversed">{t("ledger.reversed")}</span> : null}
                    {e.reversalOf ? (
                      <span className="wallet-badge wallet-badge-reversal">
                        {e.reversalOf.seq !== null ? t("ledger.reversalOf", { seq: e.reversalOf.seq }) : t("ledger.reversalOfUnknown")}
                      </span>
                    ) : null}
                  </td>
                  {canManage ? (
                    <td className="ledger-actions" data-label={t("ledger.actions")}>
                      {e.reversible && !wallet.archived ? (
                        <Link to={reverseQuery(e.id)} aria-label={t("ledger.reverseLabel", { seq: e.seq })} data-reverse-entry={e.id}>
                          {t("ledger.reverse")}
                        </Link>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next || paged ? (
        <nav className="wallet-pager" aria-label={t("ledger.pages")}>
          {paged ? <Link to={`?${periodQuery.toString()}`}>{t("ledger.firstPage")}</Link> : null}
          {next ? <Link to={`?${nextQuery.toString()}`}>{tc("actions.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

function EditWalletPanel() {
  const { t } = useTranslation("wallets");
  const { t: tc } = useTranslation();
  const { wallet, form: defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIntentPending(updateWalletIntent);
  const [form, fields] = useForm({
    id: "edit-wallet-form",
    lastResult: actionData?.form === "wallet" ? actionData.result : undefined,
    constraint: getZodConstraint(UpdateWalletSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateWalletSchema }),
    defaultValue: defaults ?? undefined,
    shouldValidate: "onBlur",
  });
  const failed = actionData?.form === "wallet";
  return (
    <section className="panel wallet-section" aria-labelledby="edit-wallet-title">
      <details className="wallet-disclosure" open={failed || undefined}>
        <summary id="edit-wallet-title">{t("edit.title")}</summary>
        {form.errors?.length ? <FormAlert title={tc("errors.conflictTitle")} message={tc(form.errors[0])} /> : null}
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={updateWalletIntent} />
          <input type="hidden" name="version" value={wallet.version} />
          <WalletFields fields={fields} currencyLocked={wallet.entryCount > 0} />
          <SubmitButton pending={pending}>{tc("actions.save")}</SubmitButton>
        </Form>
      </details>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";

/** The wallet's statistics for a period, by default its lifetime: what its money bought. */
function WalletStatistics() {
  const { t } = useTranslation("metrics");
  const { choice, statistics, statisticsFailure, filter } = useLoaderData<typeof loader>();
  // The ledger's date filter stays as it is when the statistics' period changes.
  const keep: Record<string, string> = {};
  if (filter.from) keep.from = filter.from;
  if (filter.to) keep.to = filter.to;
  return (
    <section className="panel wallet-section" aria-labelledby="wallet-statistics-title">
      <h3 id="wallet-statistics-title">{t("title")}</h3>
      <PeriodForm
        presets={WALLET_PRESETS}
        {...periodProps(choice)}
        prefix={STATS_PREFIX}
        idPrefix="wallet-period"
        keep={keep}
      />
      {statisticsFailure ? <FormAlert title={t(statisticsFailure)} message={t("common:errors.errorOccurred")} /> : null}
      {statistics ? (
        <>
          <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} currency={statistics.currency} comparedUntil={statistics.comparedUntil} />
          <Freshness newestEvent={statistics.newestEvent} />
        </>
      ) : null}
    </section>
  );
}

/** The statistics period's values of the URL, kept by the ledger's date filter. */
function useStatisticsParams(): [string, string][] {
  const [params] = useSearchParams();
  return Object.values(periodParamNames(STATS_PREFIX)).flatMap((name) => {
    const value = params.get(name);
    return value ? [[name, value] as [string, string]] : [];
  });
}
