/**
 * Wallets and their ledger through the real route loaders and actions: rights and scope, the
 * wallet forms, posting (amount rules, idempotency, balance), reversal, the date filter in the
 * retailer's time zone, pagination and the CSV export.
 */
import { randomUUID } from "node:crypto";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Wallet } from "~/domain/types";
import { makeCampaignData, makePosting, makeTeamData, makeWalletInput } from "../factories";
import { call, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let routes: {
  list: typeof import("~/routes/teams.$teamId.wallets");
  page: typeof import("~/routes/teams.$teamId.wallets_.$walletId");
  csv: typeof import("~/routes/teams.$teamId.wallets_.$walletId.export[.]csv");
};
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
let otherTeamId: string;
let otherWallet: Wallet;

const storage = () => app.m.storageIndex.getStorage();
const context = { requestId: "t", clientIp: "127.0.0.1" };
type Params = { teamId?: string; walletId?: string };

function run(fn: (a: never) => unknown, request: Request, params: Params) {
  return call(() => fn({ request, params, context } as never));
}
const listPath = (teamId = TEAM) => `/teams/${teamId}/wallets`;
const walletPath = (walletId: string, teamId = TEAM) => `/teams/${teamId}/wallets/${walletId}`;

const loadList = (who: string, teamId = TEAM) => run(routes.list.loader, getRequest(listPath(teamId), { cookie: cookies[who] }), { teamId });
const createWalletAs = (who: string, form: Record<string, string>, teamId = TEAM) =>
  run(routes.list.action, postRequest(listPath(teamId), { intent: "create-wallet", ...form }, { cookie: cookies[who] }), { teamId });
const loadWallet = (who: string, walletId: string, query = "", teamId = TEAM) =>
  run(routes.page.loader, getRequest(`${walletPath(walletId, teamId)}${query}`, { cookie: cookies[who] }), { teamId, walletId });
const walletAction = (who: string, walletId: string, form: Record<string, string>, teamId = TEAM) =>
  run(routes.page.action, postRequest(walletPath(walletId, teamId), form, { cookie: cookies[who] }), { teamId, walletId });
const postAs = (who: string, walletId: string, form: Record<string, string>) =>
  walletAction(who, walletId, { intent: "post-entry", idempotencyKey: randomUUID(), type: "credit", reference: "INV-1", ...form });

async function exportCsv(who: string, walletId: string, query = "", teamId = TEAM) {
  const request = getRequest(`${walletPath(walletId, teamId)}/export.csv${query}`, { cookie: cookies[who] });
  const response = (await routes.csv.loader({ request, params: { teamId, walletId }, context } as never)) as Response;
  // Response.text() would drop the byte-order mark: decode the bytes as they are.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  return { response, text, rows: Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data };
}

async function newWallet(overrides: Parameters<typeof makeWalletInput>[0] = {}, teamId = TEAM): Promise<Wallet> {
  return storage().wallets.create(teamId, makeWalletInput(overrides), { by: "system" });
}
/** Ad spend settled into a wallet as the settlement does it (ADR 18): one batch of events' cost, then the settlement. */
let batches = 0;
async function settle(walletId: string, cents: number): Promise<void> {
  const now = new Date();
  const batchId = `test-${++batches}-${randomUUID()}`;
  const cost = { [walletId]: { total: cents * 10_000, campaigns: { "no-campaign": cents * 10_000 } } };
  await storage().spend.openBatch({ batchId, eventsHash: batchId, accepted: 1, refused: [], cost, newestEvent: now.toISOString(), received: now.toISOString() });
  await storage().spend.recordBatch(batchId, now);
  await storage().spend.settle(walletId, { now, timeZone: "Europe/Paris" });
}
const fresh = async (id: string) => (await storage().wallets.getOne(id))!;
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

beforeAll(async () => {
  app = await startApp();
  routes = {
    list: await import("~/routes/teams.$teamId.wallets"),
    page: await import("~/routes/teams.$teamId.wallets_.$walletId"),
    csv: await import("~/routes/teams.$teamId.wallets_.$walletId.export[.]csv"),
  };
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]] = await signIn(app.m, email, app.demoPassword);
  }
  const french = await app.createUser({ claims: { type: "retailer", role: "ADMIN" }, locale: "fr", roleByTeam: {} });
  cookies.french = await signIn(app.m, french.email, french.password);
  const other = await storage().teams.create(makeTeamData({ name: `Other Brand ${randomUUID().slice(0, 6)}` }), { by: "system" });
  otherTeamId = other.id;
  otherWallet = await newWallet({ label: "Other wallet" }, otherTeamId);
});
afterAll(async () => {
  await app?.stop();
});

describe("the Wallets tab", () => {
  it("shows an empty state, and team managers get the create form with the retailer's currency", async () => {
    const outcome = await loadList("retailer.admin");
    expect(outcome.status).toBe(200);
    expect(outcome.data.wallets).toEqual([]);
    expect(outcome.data.canCreate).toBe(true);
    expect(outcome.data.defaultCurrency).toBe("EUR");
    expect((await loadList("supplier.viewer")).data.canCreate).toBe(false);
    expect((await loadList("retailer.viewer")).data.canCreate).toBe(false);
  });

  it("gives a new wallet a Polish retailer's currency (PLN)", async () => {
    const saved = process.env.RETAILER_CURRENCY_LOCALE;
    process.env.RETAILER_CURRENCY_LOCALE = "pl-PL";
    app.m.env.resetEnvForTests();
    try {
      expect((await loadList("operator")).data.defaultCurrency).toBe("PLN");
    } finally {
      if (saved === undefined) delete process.env.RETAILER_CURRENCY_LOCALE;
      else process.env.RETAILER_CURRENCY_LOCALE = saved;
      app.m.env.resetEnvForTests();
    }
  });

  it("creates a wallet for a team manager: budget in units stored in cents, tags parsed, then opens it", async () => {
    const outcome = await createWalletAs("retailer.admin", {
      label: "  Spring campaigns ",
      currency: "EUR",
      status: "active",
      dailyBudget: "50,50",
      budgetEditing: "on",
      external_id: "SAP-001",
      tags: "internal billing, spring, Spring, ",
    });
    expect(outcome.status).toBe(302);
    const id = outcome.location!.split("/").pop()!;
    expect(outcome.location).toBe(walletPath(id));
    expect(outcome.headers.get("Set-Cookie")).toContain("toast=");
    const wallet = await fresh(id);
    expect(wallet).toMatchObject({
      teamId: TEAM,
      label: "Spring campaigns",
      currency: "EUR",
      status: "active",
      dailyBudget: 5050,
      budgetEditing: true,
      external_id: "SAP-001",
      tags: ["internal billing", "spring"],
      balance: 0,
    });
  });

  it("refuses a wallet without label or with a junk daily budget, with the messages", async () => {
    const before = (await storage().wallets.listForTeam(TEAM)).length;
    const outcome = await createWalletAs("operator", { label: "", currency: "EUR", status: "active", dailyBudget: "abc" });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.label).toEqual(["validation.required"]);
    expect(outcome.data.result.error.dailyBudget).toEqual(["wallets:amount.invalid"]);
    const zero = await createWalletAs("operator", { label: "Zero budget", currency: "EUR", status: "active", dailyBudget: "0" });
    expect(zero.data.result.error.dailyBudget).toEqual(["wallets:amount.notPositive"]);
    const currency = await createWalletAs("operator", { label: "Dollars", currency: "USD", status: "active" });
    expect(currency.data.result.error.currency).toEqual(["wallets:form.currencyInvalid"]);
    expect((await storage().wallets.listForTeam(TEAM)).length).toBe(before);
  });

  it.each([["supplier.viewer"], ["supplier.admin"], ["retailer.viewer"]])("refuses a forged create POST by %s (403) and creates nothing", async (who) => {
    const before = (await storage().wallets.listForTeam(TEAM)).length;
    const outcome = await createWalletAs(who, { label: `Forged ${who}`, currency: "EUR", status: "active" });
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    expect((await storage().wallets.listForTeam(TEAM)).length).toBe(before);
  });

  it("shows tags and external_id to retailers and operators only", async () => {
    await newWallet({ label: "Sensitive", tags: ["internal billing"], external_id: "EXT-9" });
    const staff = (await loadList("retailer.viewer")).data.wallets.find((w: { label: string }) => w.label === "Sensitive");
    expect(staff).toMatchObject({ tags: ["internal billing"], external_id: "EXT-9" });
    const supplierOutcome = await loadList("supplier.viewer");
    expect(supplierOutcome.data.seesSensitive).toBe(false);
    const supplier = supplierOutcome.data.wallets.find((w: { label: string }) => w.label === "Sensitive");
    expect(supplier).toMatchObject({ tags: null, external_id: null, balance: "€0.00" });
    expect(JSON.stringify(supplierOutcome.data)).not.toContain("EXT-9");
    expect(JSON.stringify(supplierOutcome.data)).not.toContain("internal billing");
  });

  it("shows insufficient funds for an empty active wallet, the stored status otherwise", async () => {
    await newWallet({ label: "Empty test wallet", status: "test" });
    const wallets = (await loadList("operator")).data.wallets as { label: string; liveStatus: string; status: string; runway: unknown }[];
    expect(wallets.find((w) => w.label === "Sensitive")).toMatchObject({ status: "active", liveStatus: "insufficient_funds", runway: null });
    expect(wallets.find((w) => w.label === "Empty test wallet")).toMatchObject({ status: "test", liveStatus: "test" });
  });

  it("answers 404 to a supplier asking for another team's wallets, page or export", async () => {
    for (const who of ["supplier.viewer", "supplier.admin"]) {
      expect((await loadList(who, otherTeamId)).status).toBe(404);
      expect((await loadWallet(who, otherWallet.id, "", otherTeamId)).status).toBe(404);
      const csv = await call(() =>
        routes.csv.loader({ request: getRequest(`${walletPath(otherWallet.id, otherTeamId)}/export.csv`, { cookie: cookies[who] }), params: { teamId: otherTeamId, walletId: otherWallet.id }, context } as never),
      );
      expect(csv.status).toBe(404);
      const forged = await walletAction(who, otherWallet.id, { intent: "post-entry", idempotencyKey: randomUUID(), type: "credit", amount: "10", reference: "X" }, otherTeamId);
      expect(forged.status).toBe(404);
      expect((await createWalletAs(who, { label: "Forged", currency: "EUR", status: "active" }, otherTeamId)).status).toBe(404);
    }
    expect((await fresh(otherWallet.id)).entryCount).toBe(0);
  });

  it("answers 404 to a wallet of another team asked for under this team's URL, even for an operator", async () => {
    expect((await loadWallet("operator", otherWallet.id)).status).toBe(404);
    const forged = await postAs("operator", otherWallet.id, { amount: "10" });
    expect(forged.status).toBe(404);
    expect((await fresh(otherWallet.id)).balance).toBe(0);
    expect((await loadWallet("operator", "no-such-wallet")).status).toBe(404);
  });

  it("sends a signed-out visitor to sign in", async () => {
    const outcome = await run(routes.list.loader, getRequest(listPath()), { teamId: TEAM });
    expect(outcome.location).toBe(`/login?to=${encodeURIComponent(listPath())}`);
  });
});

describe("posting to the ledger", () => {
  let wallet: Wallet;
  beforeAll(async () => {
    wallet = await newWallet({ label: "Posting" });
  });

  it("gives each form shown its own idempotency key, and none to readers", async () => {
    const a = await loadWallet("retailer.admin", wallet.id);
    const b = await loadWallet("retailer.admin", wallet.id);
    expect(a.data.postKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.data.postKey).not.toBe(b.data.postKey);
    expect((await loadWallet("supplier.viewer", wallet.id)).data.postKey).toBeNull();
    expect((await loadWallet("retailer.viewer", wallet.id)).data.canManage).toBe(false);
  });

  it("credits 100.00: the balance, credit and running balance change together, with a toast", async () => {
    const outcome = await postAs("retailer.admin", wallet.id, { amount: "100.00", reference: "INV-100", comment: "Top-up" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(walletPath(wallet.id));
    expect(outcome.headers.get("Set-Cookie")).toContain("toast=");
    const stored = await fresh(wallet.id);
    expect(stored).toMatchObject({ credit: 10_000, debit: 0, balance: 10_000, entryCount: 1 });
    const page = await loadWallet("retailer.admin", wallet.id);
    expect(page.data.wallet).toMatchObject({ balance: "€100.00", credit: "€100.00", liveStatus: "active", recentlyUpdated: true, runway: null });
    expect(page.data.entries).toHaveLength(1);
    expect(page.data.entries[0]).toMatchObject({ seq: 1, type: "credit", amount: "€100.00", balanceAfter: "€100.00", reference: "INV-100", comment: "Top-up", by: "retailer.admin@example.com" });
  });

  it("shows the balance in French as 100,00 € to a French-speaking user", async () => {
    const page = await loadWallet("french", wallet.id);
    expect(spaces(page.data.wallet.balance)).toBe("100,00 €");
  });

  it("hides transaction comments from suppliers, who still read the balance and the entries", async () => {
    const page = await loadWallet("supplier.viewer", wallet.id);
    expect(page.status).toBe(200);
    expect(page.data.wallet.balance).toBe("€100.00");
    expect(page.data.entries[0]).toMatchObject({ reference: "INV-100", comment: null });
    expect(JSON.stringify(page.data)).not.toContain("Top-up");
  });

  it.each([
    ["0", "wallets:amount.notPositive"],
    ["-5", "wallets:amount.notPositive"],
    ["abc", "wallets:amount.invalid"],
    ["12.345", "wallets:amount.invalid"],
    ["99999999999999", "wallets:amount.tooLarge"],
    ["1000000001", "wallets:amount.tooLarge"],
  ])("refuses the amount %s with a clear message and changes nothing", async (amount, message) => {
    const before = await fresh(wallet.id);
    const outcome = await postAs("operator", wallet.id, { amount });
    expect(outcome.status).toBe(400);
    expect(outcome.data.form).toBe("entry");
    expect(outcome.data.result.error.amount).toEqual([message]);
    expect(await fresh(wallet.id)).toEqual(before);
  });

  it("requires a reference and a type", async () => {
    const outcome = await walletAction("operator", wallet.id, { intent: "post-entry", idempotencyKey: randomUUID(), amount: "5", reference: " " });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.reference).toEqual(["wallets:entry.referenceRequired"]);
    expect(outcome.data.result.error.type).toEqual(["wallets:entry.typeRequired"]);
  });

  it("refuses a debit larger than the balance and changes nothing", async () => {
    const before = await fresh(wallet.id);
    const outcome = await postAs("operator", wallet.id, { type: "debit", amount: "100.01" });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.amount).toEqual(["wallets:ledger.insufficientBalance"]);
    expect(await fresh(wallet.id)).toEqual(before);
  });

  it("records one transaction for a double-submitted form (same idempotency key)", async () => {
    const key = (await loadWallet("operator", wallet.id)).data.postKey as string;
    const form = { intent: "post-entry", idempotencyKey: key, type: "credit", amount: "20", reference: "INV-DOUBLE" };
    const [first, second] = await Promise.all([walletAction("operator", wallet.id, form), walletAction("operator", wallet.id, form)]);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    const third = await walletAction("operator", wallet.id, form);
    expect(third.status).toBe(302);
    const stored = await fresh(wallet.id);
    expect(stored).toMatchObject({ balance: 12_000, credit: 12_000, entryCount: 2 });
    const page = await loadWallet("operator", wallet.id);
    expect(page.data.entries.filter((e: { reference: string }) => e.reference === "INV-DOUBLE")).toHaveLength(1);
  });

  it.each([["supplier.viewer"], ["supplier.admin"], ["retailer.viewer"]])("refuses a forged transaction POST by %s (403) and changes nothing", async (who) => {
    const before = await fresh(wallet.id);
    const outcome = await postAs(who, wallet.id, { amount: "1000" });
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    const reversal = await walletAction(who, wallet.id, { intent: "reverse-entry", entryId: (await storage().ledger.list(wallet.id, { limit: 1 })).items[0].id });
    expect(reversal.status).toBe(403);
    const edit = await walletAction(who, wallet.id, { intent: "update-wallet", version: String(before.version), label: "Hijacked", currency: "EUR", status: "archived" });
    expect(edit.status).toBe(403);
    expect(await fresh(wallet.id)).toEqual(before);
  });

  it("a manual debit of 30.00 lowers the balance but is no ad spend: no runway, nothing spent today (ADR 41)", async () => {
    const outcome = await postAs("retailer.admin", wallet.id, { type: "debit", amount: "30", reference: "PO-30" });
    expect(outcome.status).toBe(302);
    const page = await loadWallet("retailer.admin", wallet.id);
    expect(page.data.wallet).toMatchObject({ balance: "€90.00", debit: "€30.00", todaySpend: "€0.00", spend: "€0.00", funded: "€120.00", runway: null });
    expect(page.data.wallet.spent.share).toBe(0);
    expect(page.data.entries[0]).toMatchObject({ type: "debit", amount: "€30.00", balanceAfter: "€90.00", reversible: true });
  });

  it("settles 30.00 of ad spend: spent versus funded and today's spend; no runway from its first minutes (ADR 44)", async () => {
    await settle(wallet.id, 3_000);
    const page = await loadWallet("retailer.admin", wallet.id);
    expect(page.data.wallet).toMatchObject({ balance: "€60.00", debit: "€60.00", todaySpend: "€30.00", spend: "€30.00", funded: "€120.00" });
    expect(page.data.wallet.spent.share).toBeCloseTo(0.25);
    // Spent a moment ago: projected a full day after the first spend, which the page names.
    const { firstSpendAt } = await fresh(wallet.id);
    expect(page.data.wallet.runway).toBeNull();
    const dayLater = new Date(Date.parse(firstSpendAt!) + 86_400_000);
    expect(page.data.wallet.runwayFrom).toBe(new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Paris" }).format(dayLater));
    const list = (await loadList("retailer.admin")).data.wallets.find((w: { id: string }) => w.id === wallet.id);
    expect(list).toMatchObject({ runway: null, runwayFrom: page.data.wallet.runwayFrom });
  });

  describe("a full day after the first spend (the clock set 25 hours on)", () => {
    beforeAll(() => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 25 * 3_600_000);
    });
    afterAll(() => {
      vi.useRealTimers();
    });

    it("the runway appears: 30.00 spent in its first day, so 60.00 lasts 2 days at 30.00 a day", async () => {
      const page = await loadWallet("retailer.admin", wallet.id);
      expect(page.data.wallet.runway).toMatchObject({ daysToGo: 2, averageDailySpend: "€30.00", dailyRate: "€30.00" });
      expect(page.data.wallet.runwayFrom).toBeNull();
    });

    it("names the rate the days were counted at: a daily budget below the average spend", async () => {
      const current = await fresh(wallet.id);
      await storage().wallets.update(wallet.id, { dailyBudget: 1_000 }, { by: "system" });
      try {
        const page = await loadWallet("retailer.admin", wallet.id);
        // 60.00 at the 10.00 daily budget (below the 30.00 average) lasts 6 days: the sentence says 10.00.
        expect(page.data.wallet.runway).toMatchObject({ daysToGo: 6, dailyRate: "€10.00", averageDailySpend: "€30.00" });
      } finally {
        await storage().wallets.update(wallet.id, { dailyBudget: current.dailyBudget }, { by: "system" });
      }
    });
  });
});

describe("reversing an entry", () => {
  let wallet: Wallet;
  let debitId: string;
  beforeAll(async () => {
    wallet = await newWallet({ label: "Reversals" });
    await storage().ledger.post(makePosting(wallet.id, { amount: 10_000, reference: "INV-1" }), new Date());
    const debit = await storage().ledger.post(makePosting(wallet.id, { type: "debit", amount: 3_000, reference: "PO-9", comment: "wrong wallet" }), new Date());
    if (!debit.ok) throw new Error("debit failed");
    debitId = debit.entry.id;
  });

  it("asks for confirmation first: the loader presents the entry to reverse for managers only", async () => {
    const page = await loadWallet("retailer.admin", wallet.id, `?reverse=${debitId}`);
    expect(page.data.reverse).toMatchObject({ id: debitId, seq: 2, type: "debit", amount: "€30.00" });
    expect((await loadWallet("supplier.admin", wallet.id, `?reverse=${debitId}`)).data.reverse).toBeNull();
    expect((await loadWallet("retailer.admin", wallet.id, "?reverse=nope")).data.reverse).toBeNull();
    // Nothing happened by loading the confirmation.
    expect((await fresh(wallet.id)).entryCount).toBe(2);
  });

  it("posts the opposite entry pointing to the original; the original shows reversed", async () => {
    const outcome = await walletAction("retailer.admin", wallet.id, { intent: "reverse-entry", entryId: debitId, comment: "Posted on the wrong wallet" });
    expect(outcome.status).toBe(302);
    expect(await fresh(wallet.id)).toMatchObject({ balance: 10_000, credit: 13_000, debit: 3_000, entryCount: 3 });
    const page = await loadWallet("retailer.admin", wallet.id);
    const [reversal, original] = page.data.entries;
    expect(reversal).toMatchObject({ seq: 3, type: "credit", amount: "€30.00", reversalOf: { id: debitId, seq: 2 }, reversible: false, reference: "PO-9" });
    expect(original).toMatchObject({ id: debitId, reversed: true, reversible: false });
    // The original stays as it was: entries are never edited or deleted.
    expect(await storage().ledger.getOne(wallet.id, debitId)).toMatchObject({ type: "debit", amount: 3_000, comment: "wrong wallet" });
    expect((await loadWallet("retailer.admin", wallet.id, `?reverse=${debitId}`)).data.reverse).toBeNull();
  });

  it("refuses a second reversal and the reversal of a reversal, changing nothing", async () => {
    const before = await fresh(wallet.id);
    const again = await walletAction("operator", wallet.id, { intent: "reverse-entry", entryId: debitId });
    expect(again.status).toBe(400);
    expect(again.data.result.error[""]).toEqual(["wallets:ledger.alreadyReversed"]);
    const reversalId = (await storage().ledger.list(wallet.id, { limit: 1 })).items[0].id;
    const nested = await walletAction("operator", wallet.id, { intent: "reverse-entry", entryId: reversalId });
    expect(nested.data.result.error[""]).toEqual(["wallets:ledger.notReversible"]);
    expect(await fresh(wallet.id)).toEqual(before);
  });

  it("answers 404 to the reversal of an entry of another wallet", async () => {
    const foreign = await storage().ledger.post(makePosting(otherWallet.id), new Date());
    if (!foreign.ok) throw new Error("post failed");
    const outcome = await walletAction("operator", wallet.id, { intent: "reverse-entry", entryId: foreign.entry.id });
    expect(outcome.status).toBe(404);
    expect((await fresh(otherWallet.id)).entryCount).toBe(1);
  });
});

describe("what counts as spend (ADR 41) and money in each wallet's currency", () => {
  it("credit 400, its reversal, credit 40 in zlotys: nothing spent, no runway, PLN 0.00 spent of PLN 40.00 funded", async () => {
    const wallet = await newWallet({ label: "Typo PLN", currency: "PLN" });
    expect((await postAs("retailer.admin", wallet.id, { amount: "400" })).status).toBe(302);
    const creditId = (await storage().ledger.list(wallet.id, { limit: 1 })).items[0].id;
    expect((await walletAction("retailer.admin", wallet.id, { intent: "reverse-entry", entryId: creditId, comment: "typo" })).status).toBe(302);
    expect((await postAs("retailer.admin", wallet.id, { amount: "40" })).status).toBe(302);
    // The ledger keeps balance = credit - debit as posted.
    expect(await fresh(wallet.id)).toMatchObject({ credit: 44_000, debit: 40_000, balance: 4_000, spend: 0, funded: 4_000, firstSpendAt: null });
    const page = await loadWallet("retailer.admin", wallet.id);
    expect(spaces(page.data.wallet.balance)).toMatch(/PLN 40\.00|40,00 PLN/);
    expect(page.data.wallet).toMatchObject({ runway: null, spent: { share: 0 } });
    expect(spaces(page.data.wallet.spend)).toBe("PLN 0.00");
    expect(spaces(page.data.wallet.funded)).toBe("PLN 40.00");
    expect(spaces(page.data.wallet.todaySpend)).toBe("PLN 0.00");
    // Its statistics are in zlotys, not in the retailer's euros.
    expect(page.data.statistics.currency).toBe("PLN");
  });

  it("the team's wallets tab: each wallet's row in its own currency, totals without money when they mix", async () => {
    const team = await storage().teams.create(makeTeamData({ name: `Beta Seller ${randomUUID().slice(0, 6)}` }), { by: "system" });
    const eur = await newWallet({ label: "Euros", currency: "EUR" }, team.id);
    const pln = await newWallet({ label: "Zlotys", currency: "PLN" }, team.id);
    await storage().ledger.post(makePosting(eur.id, { amount: 10_000 }), new Date());
    await storage().ledger.post(makePosting(pln.id, { amount: 40_000 }), new Date());
    const list = await loadList("retailer.admin", team.id);
    expect(list.data.statistics.currency).toBeNull();
    expect(list.data.statistics.rows.map((r: { name: string; currency: string }) => [r.name, r.currency])).toEqual([["Euros", "EUR"], ["Zlotys", "PLN"]]);
    // The team's totals stay per currency: never €500.00.
    expect((await storage().teams.getOne(team.id))!.totals).toEqual({ EUR: { balance: 10_000, credit: 10_000 }, PLN: { balance: 40_000, credit: 40_000 } });
  });
});

describe("the 'insufficient funds' notification", () => {
  it("tells the team's admins once when a manual debit to zero, then disabling the wallet, stops an active campaign", async () => {
    const team = await storage().teams.create(makeTeamData({ name: `Funds Brand ${randomUUID().slice(0, 6)}` }), { by: "system" });
    const admin = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [team.id]: "ADMIN" } });
    const wallet = await newWallet({ label: "Running dry", status: "active" }, team.id);
    await storage().ledger.post(makePosting(wallet.id, { type: "credit", amount: 5000 }), new Date());
    const campaign = await storage().campaigns.create({ ...makeCampaignData({ team: team.id, status: "active" }), wallet: wallet.id }, { by: "system" });
    const told = async () => (await storage().notifications.list(admin.id, { limit: 50 })).items.filter((n) => n.type === "insufficientFunds");
    expect(await told()).toHaveLength(0);

    const debit = await walletAction("retailer.admin", wallet.id, { intent: "post-entry", idempotencyKey: randomUUID(), type: "debit", amount: "50.00", reference: "REFUND-1" }, team.id);
    expect(debit.status).toBe(302);
    expect((await storage().campaigns.getOne(campaign.id))!.insufficient_funds).toBe(true);
    expect(await told()).toHaveLength(1);

    // Still flagged: disabling the wallet now tells nobody again.
    const current = await fresh(wallet.id);
    const disabled = await walletAction("retailer.admin", wallet.id, { intent: "update-wallet", version: String(current.version), label: current.label, currency: "EUR", status: "disabled" }, team.id);
    expect(disabled.status).toBe(302);
    expect(await told()).toHaveLength(1);
  });
});

describe("editing a wallet", () => {
  it("saves the settings; a stale version is a conflict that keeps the input", async () => {
    const wallet = await newWallet({ label: "Editable" });
    const form = { intent: "update-wallet", version: String(wallet.version), label: "Edited", currency: "EUR", status: "test", dailyBudget: "12.5", tags: "a, b" };
    const saved = await walletAction("retailer.admin", wallet.id, form);
    expect(saved.status).toBe(302);
    expect(await fresh(wallet.id)).toMatchObject({ label: "Edited", status: "test", dailyBudget: 1250, tags: ["a", "b"] });
    const stale = await walletAction("retailer.admin", wallet.id, { ...form, label: "Mine wins?" });
    expect(stale.status).toBe(409);
    expect(stale.data.result.error[""]).toEqual(["errors.conflict"]);
    expect(stale.data.result.initialValue.label).toBe("Mine wins?");
    expect((await fresh(wallet.id)).label).toBe("Edited");
  });

  it("saves settings loaded before a settlement (postings never conflict); a second editor of the same version is refused", async () => {
    const wallet = await newWallet({ label: "Busy wallet", dailyBudget: 10_000 });
    const loaded = String(wallet.version);
    // Ad spend settles (and a manual credit is posted) while two managers edit the daily budget.
    await storage().ledger.post(makePosting(wallet.id, { type: "credit", amount: 5000 }), new Date());
    await storage().ledger.post(makePosting(wallet.id, { type: "debit", amount: 23 }), new Date());
    expect((await fresh(wallet.id)).version).toBeGreaterThan(wallet.version);
    const form = { intent: "update-wallet", version: loaded, label: "Busy wallet", currency: "EUR", status: "active" };
    const first = await walletAction("retailer.admin", wallet.id, { ...form, dailyBudget: "175" });
    expect(first.status).toBe(302);
    expect((await fresh(wallet.id)).dailyBudget).toBe(17_500);
    const second = await walletAction("operator", wallet.id, { ...form, dailyBudget: "90" });
    expect(second.status).toBe(409);
    expect(second.data.result.error[""]).toEqual(["errors.conflict"]);
    expect((await fresh(wallet.id)).dailyBudget).toBe(17_500);
    // A posting after the save does not make the saved page stale either.
    const saved = await fresh(wallet.id);
    await storage().ledger.post(makePosting(wallet.id, { type: "credit", amount: 100 }), new Date());
    expect((await walletAction("retailer.admin", wallet.id, { ...form, version: String(saved.version), dailyBudget: "180" })).status).toBe(302);
    expect((await fresh(wallet.id)).balance).toBe(5077);
  });

  it("keeps the currency of a wallet that holds entries", async () => {
    const wallet = await newWallet({ label: "Currency lock" });
    await storage().ledger.post(makePosting(wallet.id), new Date());
    const current = await fresh(wallet.id);
    const outcome = await walletAction("operator", wallet.id, { intent: "update-wallet", version: String(current.version), label: "Currency lock", currency: "PLN", status: "active" });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.currency).toEqual(["wallets:form.currencyLocked"]);
    expect((await fresh(wallet.id)).currency).toBe("EUR");
  });

  it("archives a wallet, which then refuses a credit and offers no posting form", async () => {
    const wallet = await newWallet({ label: "To archive" });
    const key = (await loadWallet("operator", wallet.id)).data.postKey as string;
    const archived = await walletAction("operator", wallet.id, { intent: "update-wallet", version: String(wallet.version), label: "To archive", currency: "EUR", status: "archived" });
    expect(archived.status).toBe(302);
    const page = await loadWallet("operator", wallet.id);
    expect(page.data.postKey).toBeNull();
    expect(page.data.wallet.archived).toBe(true);
    // A form shown before the wallet was archived is refused.
    const outcome = await walletAction("operator", wallet.id, { intent: "post-entry", idempotencyKey: key, type: "credit", amount: "10", reference: "LATE" });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error[""]).toEqual(["wallets:ledger.walletArchived"]);
    expect(await fresh(wallet.id)).toMatchObject({ balance: 0, entryCount: 0 });
  });
});

describe("the ledger's pages, dates and export", () => {
  let wallet: Wallet;
  // Europe/Paris is UTC+1 in early March 2026.
  const times = [
    "2026-03-01T10:00:00Z", // 1 March, 11:00 in Paris
    "2026-03-01T22:30:00Z", // 1 March, 23:30
    "2026-03-01T23:30:00Z", // 2 March, 00:30
    "2026-03-02T22:59:59Z", // 2 March, 23:59:59
    "2026-03-02T23:00:00Z", // 3 March, 00:00
  ];
  beforeAll(async () => {
    wallet = await newWallet({ label: "Spring / Été 2026" });
    const refs = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+SUM(1,2)", "-2+3", "@cmd", "INV-5"];
    for (const [i, at] of times.entries()) {
      const r = await storage().ledger.post(makePosting(wallet.id, { amount: 10_050, reference: refs[i], comment: i === 0 ? "=1+1" : "ok" }), new Date(at));
      if (!r.ok) throw new Error(r.reason);
    }
  });

  it("filters by whole days in the retailer's time zone", async () => {
    const day2 = await loadWallet("operator", wallet.id, "?from=2026-03-02&to=2026-03-02");
    expect(day2.data.entries.map((e: { seq: number }) => e.seq)).toEqual([4, 3]);
    const fromDay2 = await loadWallet("operator", wallet.id, "?from=2026-03-02");
    expect(fromDay2.data.entries.map((e: { seq: number }) => e.seq)).toEqual([5, 4, 3]);
    const toDay1 = await loadWallet("operator", wallet.id, "?to=2026-03-01");
    expect(toDay1.data.entries.map((e: { seq: number }) => e.seq)).toEqual([2, 1]);
  });

  it("says so when the dates are wrong, and shows every entry", async () => {
    const invalid = await loadWallet("operator", wallet.id, "?from=2026-02-30");
    expect(invalid.data.filter.error).toEqual({ field: "from", reason: "wallets:period.invalidDate" });
    expect(invalid.data.entries).toHaveLength(5);
    const reversed = await loadWallet("operator", wallet.id, "?from=2026-03-03&to=2026-03-01");
    expect(reversed.data.filter.error).toEqual({ field: "to", reason: "wallets:period.reversed" });
  });

  it("exports the chosen period as CSV: an attachment named after the wallet and the dates", async () => {
    const { response, rows, text } = await exportCsv("operator", wallet.id, "?from=2026-03-02&to=2026-03-02");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toContain('attachment; filename="wallet-spring-ete-2026-2026-03-02-2026-03-02.csv"');
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(rows[0]).toEqual(["No.", "Date (Europe/Paris)", "Type", "Credit (EUR)", "Debit (EUR)", "Balance after (EUR)", "Reference", "Comment", "By", "Reversal of no.", "Reversed"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(["3", "4"]);
    expect(rows[1]).toEqual(["3", "2026-03-02 00:30:00", "Credit", "100.50", "", "301.50", "'-2+3", "ok", "finance@retailer.example", "", ""]);
    expect(rows[2][1]).toBe("2026-03-02 23:59:59");
  });

  it("neutralises formula-like text and keeps amounts as plain numbers", async () => {
    const { rows, text } = await exportCsv("operator", wallet.id);
    const byRef = rows.slice(1).map((r) => r[6]);
    expect(byRef).toEqual(["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+SUM(1,2)", "'-2+3", "'@cmd", "INV-5"]);
    expect(rows[1][7]).toBe("'=1+1");
    // Numbers are written bare (no quote, no apostrophe), with two decimals.
    expect(text).toContain(",100.50,,100.50,");
    expect(text).toContain(",100.50,,502.50,");
  });

  it("leaves the comment column out for suppliers", async () => {
    const { rows } = await exportCsv("supplier.viewer", wallet.id);
    expect(rows[0]).not.toContain("Comment");
    expect(rows.flat()).not.toContain("'=1+1");
  });

  it("paginates newest first with a cursor, and exports every page", async () => {
    const big = await newWallet({ label: "Busy" });
    const base = Date.parse("2026-04-01T08:00:00Z");
    for (let i = 0; i < 30; i++) {
      const r = await storage().ledger.post(makePosting(big.id, { amount: 100 + i }), new Date(base + i * 60_000));
      if (!r.ok) throw new Error(r.reason);
    }
    const first = await loadWallet("operator", big.id);
    expect(first.data.entries.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => 30 - i));
    expect(first.data.next).toBeTruthy();
    expect(first.data.paged).toBe(false);
    const second = await loadWallet("operator", big.id, `?after=${encodeURIComponent(first.data.next)}`);
    expect(second.data.entries.map((e: { seq: number }) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(second.data.next).toBeNull();
    expect(second.data.paged).toBe(true);
    const junk = await loadWallet("operator", big.id, "?after=not-a-cursor");
    expect(junk.data.entries[0].seq).toBe(30);
    const { rows } = await exportCsv("operator", big.id);
    expect(rows).toHaveLength(31);
    expect(rows[30][5]).toBe(((30 * 100 + (29 * 30) / 2) / 100).toFixed(2));
  });

  it("refuses an export with a wrong date", async () => {
    const outcome = await call(() =>
      routes.csv.loader({ request: getRequest(`${walletPath(wallet.id)}/export.csv?to=2026-13-01`, { cookie: cookies.operator }), params: { teamId: TEAM, walletId: wallet.id }, context } as never),
    );
    expect(outcome.status).toBe(400);
  });
});

describe("Activity (/health): names, money and times as people read them, filtered by wallet and campaign", () => {
  let health: typeof import("~/routes/health");
  beforeAll(async () => {
    health = await import("~/routes/health");
  });
  const loadActivity = (who: string, query = "") => run(health.loader, getRequest(`/health${query}`, { cookie: cookies[who] }), {});
  type Entry = { id: string; entityId: string; teamId: string | null; byName: string; subject: string; entity: string; atText: string; at: string; teamName: string | null; changes: { field: string; label: string; before: { text: string }; after: { text: string } }[] };

  it("shows a wallet's change with the wallet's and team's names, the actor's name, money in the currency and the time in the reader's zone", async () => {
    const label = `Activity ${randomUUID().slice(0, 6)}`;
    const created = await newWallet({ label, dailyBudget: 5_000 });
    const edited = await walletAction("operator", created.id, {
      intent: "update-wallet",
      version: String(created.version),
      label,
      currency: "EUR",
      status: "active",
      dailyBudget: "75.50",
    });
    expect(edited.status).toBe(302);
    const outcome = await loadActivity("operator", `?wallet=${encodeURIComponent(created.id)}`);
    expect(outcome.status).toBe(200);
    expect(outcome.data.subject).toBe(label);
    const entries = outcome.data.entries as Entry[];
    expect(entries.map((e) => e.entity)).toEqual(["wallet", "wallet"]);
    const [update] = entries;
    expect(update).toMatchObject({ byName: "Olivia Operator", subject: label, teamName: "Acme Brand" });
    const budget = update!.changes.find((c) => c.field === "dailyBudget")!;
    expect(budget).toMatchObject({ label: "Daily budget", before: { text: "€50.00" }, after: { text: "€75.50" } });
    expect(update!.atText).toBe(new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "Europe/Paris" }).format(new Date(update!.at)));
    // No raw ids, cents, JSON or ISO instants anywhere in what the page shows.
    const shown = JSON.stringify(entries.map(({ at: _at, id: _id, entityId: _e, teamId: _t, ...rest }) => rest));
    expect(shown).not.toContain(created.id.slice(0, 12));
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(shown).not.toContain('\\"');
  });

  it("filters by campaign, and shows campaign references by name", async () => {
    const campaign = await storage().campaigns.create(
      { ...makeCampaignData({ team: TEAM, input: { name: `Activity campaign ${randomUUID().slice(0, 6)}` } }), wallet: otherWallet.id },
      { by: "supplier.admin@example.com" },
    );
    const outcome = await loadActivity("operator", `?campaign=${encodeURIComponent(campaign.id)}`);
    expect(outcome.status).toBe(200);
    expect(outcome.data.subject).toBe(campaign.name);
    const entries = outcome.data.entries as Entry[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entity: "campaign", subject: campaign.name, byName: "Sam Supplier" });
    expect(entries[0]!.changes.find((c) => c.field === "wallet")!.after.text).toBe("Other wallet");
    expect(entries[0]!.changes.find((c) => c.field === "team")!.after.text).toBe("Acme Brand");
    // Another campaign's filter does not show it.
    const other = await loadActivity("operator", `?campaign=no-such-campaign`);
    expect(other.data.entries).toEqual([]);
  });

  it("refuses Activity to anyone but operators", async () => {
    for (const who of ["retailer.admin", "supplier.admin"]) {
      const outcome = await loadActivity(who, "?wallet=x");
      expect(outcome.location ?? String(outcome.status)).toMatch(/not-authorized|403/);
    }
  });
});

describe("CSV exports refuse with a status and a readable body (never 'Unexpected Server Error')", () => {
  it("answers another team's wallet export, and a bad period, as plain text with 404 and 400", async () => {
    const asked = (path: string, teamId: string, walletId: string, who = "supplier.admin") =>
      routes.csv.loader({ request: getRequest(path, { cookie: cookies[who] }), params: { teamId, walletId }, context } as never) as Promise<Response>;
    const refused = await asked(`${walletPath(otherWallet.id, otherTeamId)}/export.csv`, otherTeamId, otherWallet.id);
    expect(refused).toBeInstanceOf(Response);
    expect(refused.status).toBe(404);
    expect(refused.headers.get("Content-Type")).toContain("text/plain");
    expect(await refused.text()).toMatch(/not found|doesn't exist|does not exist/i);
    const bad = await asked(`${walletPath(otherWallet.id, otherTeamId)}/export.csv?from=2026-13-01`, otherTeamId, otherWallet.id, "operator");
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toMatch(/wallets:|Unexpected Server Error|\[object Object\]/);
  });

  it("answers a campaign history export outside the user's teams with 404 and a readable body", async () => {
    const csv = await import("~/routes/campaigns.$campaignId.history[.]csv");
    const campaign = await storage().campaigns.create(makeCampaignData({ team: otherTeamId }), { by: "system" });
    const response = (await csv.loader({
      request: getRequest(`/campaigns/${campaign.id}/history.csv`, { cookie: cookies["supplier.admin"] }),
      params: { campaignId: campaign.id },
      context,
    } as never)) as Response;
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toContain("text/plain");
    expect(await response.text()).toMatch(/not found|doesn't exist|does not exist/i);
  });
});
