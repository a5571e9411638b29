/**
 * Wallets and their ledger: the use cases behind the Wallets tab and the wallet page. Routes
 * authorize (requireUser, requireVisibleTeam, requirePermission); this module scopes every
 * record to its team, calls the storage and shapes what the browser may see (sensitive fields
 * only for operators and retailers; money and dates formatted on the server, so the browser's
 * first render is the server's).
 */
import { auditActor } from "~/domain/operators";
import Papa from "papaparse";
import { CSV_FORMULA_PATTERN, csvFileName, ledgerCsvRows, minorToDecimal, type CsvEntry } from "~/domain/wallets/ledger-csv";
import { dayOf, todayInstants, type PeriodInstants } from "~/domain/wallets/ledger-period";
import { currencyForLocale, formatMoney, type Cents } from "~/domain/money";
import { canSeeSensitive } from "~/domain/permissions";
import { fail, notFound, ok, type Failure, type Result } from "~/domain/result";
import type { EntryType, LedgerEntry, Team, User, Wallet } from "~/domain/types";
import { computeRunway, deriveWalletLiveStatus, isRecentlyUpdated, runwayPendingUntil, spentShare } from "~/domain/wallets/wallet";
import { reachesDailyCap, spendOfDay } from "~/domain/wallets/settlement";
import { localDay } from "~/domain/metrics/periods";
import type { WalletFormValue } from "~/forms/wallets";
import { type Page, type PostEntryResult, type WalletInput } from "~/storage/port";
import { refreshWalletCampaigns } from "~/services/campaigns/wallets.server";
import { saveUnlessEdited } from "~/services/save-unless-edited.server";
import { getEnv } from "~/services/env.server";
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";
import { isSettlementEntry } from "~/domain/wallets/settlement";
import { dateTimeFormat, numberFormat } from "~/domain/intl";
import { walletSnapshot } from "~/domain/campaigns/activation";
import type { SelectedWallet } from "~/domain/campaigns/campaign";
import { totalsBefore } from "~/domain/wallets/ledger";

export const LEDGER_PAGE_SIZE = 25;
const EXPORT_PAGE_SIZE = 500;

/** The retailer's currency and time zone (environment). */
export function retailerSettings() {
  const env = getEnv();
  return { currency: currencyForLocale(env.RETAILER_CURRENCY_LOCALE), timeZone: env.RETAILER_TIMEZONE };
}

/** How one reader sees money and time. */
export interface ViewContext {
  locale: string;
  /** The user's time zone: displays instants. */
  userTimeZone: string;
  /** The retailer's time zone: cuts days (today's spend, periods). */
  retailerTimeZone: string;
  seesSensitive: boolean;
  now: Date;
}

export function viewContext(user: User, locale: string, now = new Date()): ViewContext {
  return { locale, userTimeZone: user.timezone || "Europe/Paris", retailerTimeZone: retailerSettings().timeZone, seesSensitive: canSeeSensitive(user.claims), now };
}

function formatInstant(iso: string | null, ctx: ViewContext): string | null {
  if (!iso) return null;
  return dateTimeFormat(ctx.locale, { dateStyle: "medium", timeStyle: "short", timeZone: ctx.userTimeZone }).format(new Date(iso));
}

function formatDay(day: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

// ---------------------------------------------------------------------------------------------
// Wallets

/** The wallet, when it belongs to this team; else not-found, which reveals nothing. */
export async function findTeamWallet(team: Team, walletId: string | undefined): Promise<Result<Wallet>> {
  const wallet = walletId ? await getStorage().wallets.getOne(walletId) : null;
  return wallet && wallet.teamId === team.id ? ok(wallet) : notFound();
}

/**
 * Ad spend of the retailer's current day (ADR 41): the settlement's spend of today, the figure
 * the wallet's daily budget is held to. Manual debits and reversals are no ad spend.
 */
export function todaySpendOf(wallet: Pick<Wallet, "todaySpend">, now: Date, retailerTimeZone: string): Cents {
  return spendOfDay(wallet.todaySpend, localDay(now, retailerTimeZone));
}

async function listAll(walletId: string, period: PeriodInstants): Promise<LedgerEntry[]> {
  const all: LedgerEntry[] = [];
  let after: string | null = null;
  do {
    const page: Page<LedgerEntry> = await getStorage().ledger.list(walletId, { ...period, limit: EXPORT_PAGE_SIZE, after });
    all.push(...page.items);
    after = page.next;
  } while (after);
  return all;
}

export function presentWallet(wallet: Wallet, ctx: ViewContext) {
  const money = (minor: number) => formatMoney(minor, wallet.currency, ctx.locale);
  const runway = computeRunway(wallet, ctx.now, ctx.retailerTimeZone);
  const share = spentShare(wallet);
  return {
    id: wallet.id,
    version: wallet.version,
    label: wallet.label,
    currency: wallet.currency,
    status: wallet.status,
    liveStatus: deriveWalletLiveStatus(wallet),
    recentlyUpdated: isRecentlyUpdated(wallet, ctx.now),
    balanceCents: wallet.balance,
    balance: money(wallet.balance),
    credit: money(wallet.credit),
    debit: money(wallet.debit),
    /** Ad spend and funding (ADR 41), for spent versus funded. */
    spend: money(wallet.spend),
    funded: money(wallet.funded),
    dailyBudget: wallet.dailyBudget === null ? null : money(wallet.dailyBudget),
    /** The daily budget is reached today (settled spend, ADR 18): its campaigns serve again tomorrow. */
    dailyBudgetReached: reachesDailyCap(wallet.todaySpend, localDay(ctx.now, ctx.retailerTimeZone), wallet.dailyBudget),
    todaySpend: money(todaySpendOf(wallet, ctx.now, ctx.retailerTimeZone)),
    budgetEditing: wallet.budgetEditing,
    tags: ctx.seesSensitive ? wallet.tags : null,
    external_id: ctx.seesSensitive ? wallet.external_id : null,
    runway: runway
      ? { averageDailySpend: money(runway.averageDailySpendCents), dailyRate: money(runway.dailyRateCents), daysToGo: runway.daysToGo, daysToGoText: numberFormat(ctx.locale).format(runway.daysToGo), shouldEndBy: formatDay(runway.shouldEndBy, ctx.locale) }
      : null,
    /** Ad spent, but not yet for a full day: when the runway shows (ADR 44), in the user's time zone. */
    runwayFrom: runway ? null : formatInstant(runwayPendingUntil(wallet, ctx.now), ctx),
    spent: { share, percent: numberFormat(ctx.locale, { style: "percent", maximumFractionDigits: 0 }).format(share) },
    balanceUpdated: formatInstant(wallet.balanceUpdated, ctx),
    created: formatInstant(wallet.created, ctx),
    entryCount: wallet.entryCount,
    archived: wallet.status === "archived",
  };
}
export type WalletView = ReturnType<typeof presentWallet>;

/** What the edit form starts from (team managers only, who see sensitive fields). */
export function walletFormDefaults(wallet: Wallet) {
  return {
    label: wallet.label,
    currency: wallet.currency,
    status: wallet.status,
    dailyBudget: wallet.dailyBudget === null ? "" : minorToDecimal(wallet.dailyBudget),
    budgetEditing: wallet.budgetEditing ? "on" : undefined,
    external_id: wallet.external_id,
    tags: wallet.tags.join(", "),
    version: String(wallet.version),
  };
}

export async function listTeamWallets(team: Team, ctx: ViewContext): Promise<WalletView[]> {
  const wallets = await getStorage().wallets.listForTeam(team.id);
  return wallets.map((w) => presentWallet(w, ctx));
}

function toInput(value: Omit<WalletFormValue, "intent">): WalletInput {
  return {
    label: value.label,
    currency: value.currency,
    status: value.status,
    dailyBudget: value.dailyBudget,
    budgetEditing: value.budgetEditing,
    external_id: value.external_id,
    tags: value.tags,
  };
}

export async function createWallet(user: User, team: Team, value: Omit<WalletFormValue, "intent">): Promise<Wallet> {
  return getStorage().wallets.create(team.id, toInput(value), auditActor(user));
}

/** Saves the wallet's settings; the currency of a wallet that holds entries stays what it is. */
export async function updateWallet(user: User, wallet: Wallet, value: Omit<WalletFormValue, "intent"> & { version: number }): Promise<Result<Wallet>> {
  // Money postings raise the version too: only another settings edit makes this one stale (ADR 42).
  return saveUnlessEdited({
    formVersion: value.version,
    read: wallet,
    reread: () => getStorage().wallets.getOne(wallet.id),
    save: async (current) => {
      if (value.currency !== current.currency && current.entryCount > 0) return fail("invalid", "wallets:form.currencyLocked", { field: "currency" });
      const updated = await getStorage().wallets.update(current.id, toInput(value), auditActor(user), { expectVersion: current.version });
      // The version matched: `current` is the wallet as it was just before.
      await refreshWalletCampaigns(updated.id, { walletBefore: walletSnapshot(current) });
      return ok(updated);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Ledger

export interface PostEntryValue {
  type: EntryType;
  amount: Cents;
  reference: string;
  comment: string;
  idempotencyKey: string;
}

export type PostedEntry = { entry: LedgerEntry; wallet: Wallet };

/** The ledger's refusal as a failure whose reason is the message's key (amount rules on the amount). */
function ledgerFailure(reason: Extract<PostEntryResult, { ok: false }>["reason"]): Failure {
  if (reason === "ledger.walletNotFound" || reason === "ledger.entryNotFound") return fail("not-found", `wallets:${reason}`);
  const field = reason === "ledger.insufficientBalance" || reason === "ledger.notPositive" ? "amount" : undefined;
  return fail("invalid", `wallets:${reason}`, field ? { field } : {});
}

/** The wallet details as they were just before a posting: the posting's own wallet, less the entry. */
function walletBeforeEntry(posted: { entry: Pick<LedgerEntry, "type" | "amount">; wallet: Wallet }): SelectedWallet | null {
  return walletSnapshot({ ...posted.wallet, ...totalsBefore(posted.wallet, posted.entry) });
}

/** Posts an entry; the campaigns on the wallet then get its new balance and funds flag. */
export async function postEntry(user: User, wallet: Wallet, value: PostEntryValue, now = new Date()): Promise<Result<PostedEntry>> {
  const result = await getStorage().ledger.post({ walletId: wallet.id, ...value, ...auditActor(user) }, now);
  if (!result.ok) return ledgerFailure(result.reason);
  if (!result.duplicate) await refreshWalletCampaigns(wallet.id, { walletBefore: walletBeforeEntry(result) });
  return ok({ entry: result.entry, wallet: result.wallet });
}

export async function reverseEntry(user: User, wallet: Wallet, entryId: string, comment: string, now = new Date()): Promise<Result<PostedEntry>> {
  const actor = auditActor(user);
  const result = await getStorage().ledger.reverse(wallet.id, entryId, actor.by, comment, now, actor.realBy);
  if (!result.ok) return ledgerFailure(result.reason);
  if (!result.duplicate) await refreshWalletCampaigns(wallet.id, { walletBefore: walletBeforeEntry(result) });
  return ok({ entry: result.entry, wallet: result.wallet });
}

function presentEntry(entry: LedgerEntry, wallet: Wallet, ctx: ViewContext, reversed: boolean, reversalOfSeq: number | null) {
  const money = (minor: number) => formatMoney(minor, wallet.currency, ctx.locale);
  return {
    id: entry.id,
    seq: entry.seq,
    type: entry.type,
    amount: money(entry.amount),
    balanceAfter: money(entry.balanceAfter),
    reference: entry.reference,
    comment: ctx.seesSensitive ? entry.comment : null,
    /** Set for the settlement's debits, whose comment the view shows in the user's language. */
    commentKey: ctx.seesSensitive && isSettlementEntry(entry) ? "entry.spendSettled" : null,
    by: entry.by,
    /** The operator who posted it while logged as `by` ('Log as'), else null. */
    realBy: entry.realBy ?? null,
    at: formatInstant(entry.at, ctx)!,
    atIso: entry.at,
    reversed,
    reversalOf: entry.reversalOf ? { id: entry.reversalOf, seq: reversalOfSeq } : null,
    /** A reversal is not reversed again; an entry is reversed once. */
    reversible: !reversed && !entry.reversalOf,
  };
}
export type EntryView = ReturnType<typeof presentEntry>;

/** Sequence numbers of the entries that these entries reverse. */
async function reversedSeqs(wallet: Wallet, entries: readonly LedgerEntry[]): Promise<Map<string, number>> {
  const ids = [...new Set(entries.map((e) => e.reversalOf).filter((id): id is string => !!id))];
  const originals = await Promise.all(ids.map((id) => getStorage().ledger.getOne(wallet.id, id)));
  return new Map(originals.filter((o): o is LedgerEntry => !!o).map((o) => [o.id, o.seq]));
}

/** One page of the ledger, newest first; an unreadable cursor gives the first page. */
export async function listLedgerPage(wallet: Wallet, spec: PeriodInstants & { after?: string | null }, ctx: ViewContext) {
  const ledger = getStorage().ledger;
  let page: Page<LedgerEntry>;
  try {
    page = await ledger.list(wallet.id, { from: spec.from, to: spec.to, limit: LEDGER_PAGE_SIZE, after: spec.after ?? null });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    page = await ledger.list(wallet.id, { from: spec.from, to: spec.to, limit: LEDGER_PAGE_SIZE });
  }
  const [reversed, seqs] = await Promise.all([ledger.reversedIds(wallet.id, page.items.map((e) => e.id)), reversedSeqs(wallet, page.items)]);
  return {
    entries: page.items.map((e) => presentEntry(e, wallet, ctx, reversed.has(e.id), e.reversalOf ? (seqs.get(e.reversalOf) ?? null) : null)),
    next: page.next,
  };
}

/** One entry of the wallet, presented (for the reversal confirmation), or null. */
export async function getEntryView(wallet: Wallet, entryId: string, ctx: ViewContext): Promise<EntryView | null> {
  const ledger = getStorage().ledger;
  const entry = await ledger.getOne(wallet.id, entryId);
  if (!entry) return null;
  const reversed = await ledger.reversedIds(wallet.id, [entry.id]);
  return presentEntry(entry, wallet, ctx, reversed.has(entry.id), null);
}

/**
 * The ledger of a period as CSV: every page, oldest first, bank-statement columns in the
 * reader's language, amounts as numbers with two decimals under headers naming the currency,
 * formula-like text neutralised. A BOM lets spreadsheets read it as UTF-8.
 */
export async function exportLedgerCsv(
  wallet: Wallet,
  period: { days: { from?: string; to?: string }; instants: PeriodInstants },
  ctx: ViewContext,
): Promise<{ fileName: string; body: string }> {
  const entries = await listAll(wallet.id, period.instants);
  const bySeq = new Map(entries.map((e) => [e.id, e.seq]));
  const missing = entries.filter((e) => e.reversalOf && !bySeq.has(e.reversalOf));
  for (const [id, seq] of await reversedSeqs(wallet, missing)) bySeq.set(id, seq);
  const reversed = new Set<string>();
  for (let i = 0; i < entries.length; i += 100) {
    for (const id of await getStorage().ledger.reversedIds(wallet.id, entries.slice(i, i + 100).map((e) => e.id))) reversed.add(id);
  }
  const t = await getFixedT(ctx.locale);
  const currency = wallet.currency;
  const csvEntries: CsvEntry[] = entries.map((e) => ({
    seq: e.seq,
    at: e.at,
    type: e.type,
    amount: e.amount,
    balanceAfter: e.balanceAfter,
    reference: e.reference,
    comment: isSettlementEntry(e) ? t("wallets:entry.spendSettled") : e.comment,
    by: e.realBy ? t("common:activity.loggedAs", { operator: e.realBy, user: e.by }) : e.by,
    reversalOfSeq: e.reversalOf ? (bySeq.get(e.reversalOf) ?? null) : null,
    reversed: reversed.has(e.id),
  }));
  const rows = ledgerCsvRows(csvEntries, {
    headers: {
      seq: t("wallets:csv.seq"),
      date: t("wallets:csv.date", { timeZone: ctx.retailerTimeZone }),
      type: t("wallets:csv.type"),
      credit: t("wallets:csv.credit", { currency }),
      debit: t("wallets:csv.debit", { currency }),
      balanceAfter: t("wallets:csv.balanceAfter", { currency }),
      reference: t("wallets:csv.reference"),
      comment: t("wallets:csv.comment"),
      by: t("wallets:csv.by"),
      reversalOf: t("wallets:csv.reversalOf"),
      reversed: t("wallets:csv.reversed"),
    },
    timeZone: ctx.retailerTimeZone,
    includeComment: ctx.seesSensitive,
    typeLabel: (type) => t(`wallets:entry.types.${type}`),
    yes: t("wallets:csv.yes"),
  });
  const body = "\uFEFF" + Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
  return { fileName: csvFileName(wallet.label, period.days, dayOf(ctx.now, ctx.retailerTimeZone)), body };
}
