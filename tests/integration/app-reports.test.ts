/**
 * Reports (issue 11 §2) through the real routes, use cases, scheduler and files: creating and
 * editing with the rights of NOTES.md's table (refusals are 403 or 404 and change nothing);
 * recipients checked ('Invalid email', duplicates); a run on the scheduler's fake clock that reads
 * the statistics as its owner (a supplier's report never holds another team, and with
 * METRICS_API_URL the token sent is the owner's), stores the file with an expiry and mails the
 * recipients, over a real SMTP server, a link that downloads it without an account and is refused
 * once tampered with or expired; the aborted run past the row limit with the spec's message; the
 * history; the expiry job removing files; a report whose owner lost their rights stopped once,
 * told once, run no more, and resumed by a save only once the owner may read it again (ADR 49).
 */
import fs from "node:fs";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { http, HttpResponse } from "msw";
import { METRICS_API_URL } from "../../mocks/metrics";
import { makeTeamData } from "../factories";
import { fact } from "./metrics.contract";
import { args, call, decodeRawMail, getRequest, postRequest, signIn, startApp, type AppUser, type TestApp } from "./app-helpers";
import { catchSmtp } from "./smtp-catcher";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let sup: AppUser;
let other: AppUser;
let viewer: AppUser;
let admin: AppUser;
let otherTeamId: string;
const cookies: Record<string, string> = {};
const storage = () => app.m.storageIndex.getStorage();
const reports = () => import("~/services/reports.server");
const editRoute = () => import("~/routes/reports.$reportId._index");

/** The toast flashed by a redirect. */
async function toastOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("toast="))?.split(";")[0];
  if (!cookie) return null;
  return (await app.m.toast.getToast(getRequest("/", { cookie }))).toast;
}

const DAY = "2026-11-24";

function reportForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save-report",
    name: "Weekly figures",
    type: "campaigns",
    period: "custom",
    from: DAY,
    to: DAY,
    timeUnit: "cumulative",
    walletTags: "",
    teamId: "acme-brand",
    recipients: "anna@agency.example\nbruno@agency.example",
    format: "csv",
    frequency: "once",
    runAt: "08:00",
    ...overrides,
  };
}

const save = (who: string, id: string, form: Record<string, string>) =>
  call(async () => (await editRoute()).action({ ...args(postRequest(`/reports/${id}`, form, { cookie: cookies[who] })), params: { reportId: id } } as never));
const edit = (who: string, id: string) => call(async () => (await editRoute()).loader({ ...args(getRequest(`/reports/${id}`, { cookie: cookies[who] })), params: { reportId: id } } as never));
const list = (who: string) => call(async () => (await import("~/routes/reports._index")).loader(args(getRequest("/reports", { cookie: cookies[who] })) as never));
const history = (who: string, id: string) =>
  call(async () => (await import("~/routes/reports.$reportId.history")).loader({ ...args(getRequest(`/reports/${id}/history`, { cookie: cookies[who] })), params: { reportId: id } } as never));
const download = async (link: string) => {
  const url = new URL(link);
  const runId = decodeURIComponent(url.pathname.split("/").pop()!);
  const route = await import("~/routes/report-files.$runId");
  return (await route.loader({ request: new Request(url), params: { runId }, context: {} } as never)) as Response;
};

async function scheduler(now: () => Date) {
  const { createScheduler } = await import("~/services/scheduler.server");
  const { REPORT_JOB, REPORT_EXPIRY_JOB_KIND } = await reports();
  const s = createScheduler({ clock: now, owner: "test-worker" });
  s.register(REPORT_JOB);
  s.register(REPORT_EXPIRY_JOB_KIND);
  return s;
}

async function createdId(who: string, form: Record<string, string>): Promise<string> {
  const outcome = await save(who, "new", form);
  expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  return decodeURIComponent(outcome.location!.split("/").pop()!);
}

beforeAll(async () => {
  app = await startApp();
  const sqliteMetrics = await import("~/metrics/sqlite.server");
  metricsIndex = await import("~/metrics/index.server");
  metrics = new sqliteMetrics.SqliteMetricsStore(path.join(app.dir, "metrics-reports.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  const otherTeam = await storage().teams.create(makeTeamData({ name: "Rival Brand" }), { by: "system" });
  otherTeamId = otherTeam.id;
  sup = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" }, timezone: "Europe/Paris" });
  other = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [otherTeamId]: "ADMIN" } });
  viewer = await app.createUser({ claims: { type: "retailer", role: "VIEWER" } });
  admin = await app.createUser({ claims: { type: "retailer", role: "ADMIN" } });
  for (const [who, u] of Object.entries({ sup, other, viewer, admin })) cookies[who] = await signIn(app.m, u.email, u.password);
  cookies.operator = await signIn(app.m, "operator@example.com", app.demoPassword);
  await metrics.applyBatch(
    "b-reports",
    [
      fact(`${DAY}T10:00:00Z`, { team: "acme-brand", wallet: "w-acme", campaign: "camp-acme-1", displays: 100 }),
      fact(`${DAY}T11:00:00Z`, { team: "acme-brand", wallet: "w-acme", campaign: "camp-acme-2", displays: 50 }),
      fact(`${DAY}T12:00:00Z`, { team: otherTeamId, wallet: "w-rival", campaign: "camp-rival", displays: 999 }),
    ],
    `${DAY}T12:00:00.000Z`,
  );
});

afterAll(async () => {
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("report definitions and rights", () => {
  it("creates a supplier's report on their own team, listed for them with its frequency, never shown to another supplier (404)", async () => {
    const id = await createdId("sup", reportForm({ name: "Acme campaigns" }));
    const report = await storage().reports.getOne(id);
    expect(report).toMatchObject({ ownerId: sup.id, teamId: "acme-brand", recipients: ["anna@agency.example", "bruno@agency.example"], interval: { from: DAY, to: DAY }, walletTags: [] });
    expect((await storage().jobs.getOne(`report-${id}`))?.schedule).toMatchObject({ type: "once" });
    const mine = await list("sup");
    expect(mine.data.rows.map((r: { name: string }) => r.name)).toContain("Acme campaigns");
    expect((await list("other")).data.rows.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await edit("other", id)).status).toBe(404);
    expect((await history("other", id)).status).toBe(404);
    // Another supplier's forged save changes nothing.
    expect((await save("other", id, reportForm({ name: "Hijacked", teamId: otherTeamId }))).status).toBe(404);
    expect((await storage().reports.getOne(id))?.name).toBe("Acme campaigns");
    // The retailer ADMIN sees and may edit everybody's; a retailer VIEWER only their own.
    expect((await list("admin")).data.rows.find((r: { id: string }) => r.id === id)).toMatchObject({ editable: true });
    expect((await edit("viewer", id)).status).toBe(404);
    // The wallet tags filter (sensitive data) is offered to staff only.
    expect((await edit("sup", id)).data.walletTags).toBe(false);
    expect((await edit("admin", id)).data.walletTags).toBe(true);
    expect((await edit("viewer", "new")).data.walletTags).toBe(true);
  });

  it("refuses a supplier's report about a team not theirs (403) or about every team, and a staff member's wallet tags are kept", async () => {
    const before = (await storage().reports.list({})).items.length;
    expect((await save("sup", "new", reportForm({ teamId: otherTeamId }))).status).toBe(403);
    const noTeam = await save("sup", "new", reportForm({ teamId: "" }));
    expect(noTeam.status).toBe(400);
    expect(JSON.stringify(noTeam.data.result.error)).toContain("reports:validation.teamRequired");
    // A supplier's wallet tags are sensitive: not kept.
    const supId = await createdId("sup", reportForm({ walletTags: "internal billing" }));
    expect((await storage().reports.getOne(supId))?.walletTags).toEqual([]);
    const viewerId = await createdId("viewer", reportForm({ teamId: "", walletTags: "vip, internal billing", name: "All teams" }));
    expect((await storage().reports.getOne(viewerId))).toMatchObject({ teamId: null, walletTags: ["vip", "internal billing"] });
    expect((await storage().reports.list({})).items.length).toBe(before + 2);
  });

  it("checks recipients: 'Invalid email' naming the bad ones, duplicates flagged, nothing saved", async () => {
    const before = (await storage().reports.list({})).items.length;
    const outcome = await save("sup", "new", reportForm({ recipients: "ok@agency.example not-an-email ok@AGENCY.example" }));
    expect(outcome.status).toBe(400);
    const errors: string[] = outcome.data.result.error.recipients;
    expect(errors[0]).toBe("validation.emailInvalid");
    expect(errors.join(" ")).toContain("not-an-email");
    expect(errors.some((e) => e.startsWith("reports:validation.duplicates") && e.includes("ok@AGENCY.example"))).toBe(true);
    expect((await storage().reports.list({})).items.length).toBe(before);
    const en = JSON.parse(fs.readFileSync("locales/en-GB/common.json", "utf8"));
    expect(en.validation.emailInvalid).toBe("Invalid email");
  });

  it("refuses forged or malformed saves cleanly (400, nothing saved): dates that do not exist, a period past the statistics' 800 days, too many recipients, an unknown team, type or time", async () => {
    const before = (await storage().reports.list({})).items.length;
    const cases: [Record<string, string>, string, string][] = [
      [{ from: "2026-02-30", to: "2026-13-01" }, "from", "reports:validation.day"],
      [{ from: "2000-01-01", to: "2026-11-24", timeUnit: "daily" }, "to", "reports:validation.intervalTooLong"],
      [{ recipients: Array.from({ length: 51 }, (_, i) => `r${i}@agency.example`).join(" ") }, "recipients", "reports:validation.tooManyRecipients"],
      [{ recipients: "x".repeat(20_001) }, "recipients", "validation.tooLong"],
      [{ type: "users" }, "type", "reports:validation.choose"],
      [{ frequency: "daily", runAt: "25:99" }, "runAt", "reports:validation.time"],
      [{ format: "xlsx" }, "format", ""],
    ];
    for (const [overrides, field, message] of cases) {
      const outcome = await save("sup", "new", reportForm(overrides));
      expect(outcome.status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
      expect(JSON.stringify(outcome.data.result.error[field])).toContain(message);
    }
    // A staff member's report about a team that does not exist.
    const unknownTeam = await save("admin", "new", reportForm({ teamId: "no-such-team" }));
    expect(unknownTeam.status).toBe(400);
    expect(JSON.stringify(unknownTeam.data.result.error)).toContain("reports:validation.team");
    expect((await storage().reports.list({})).items.length).toBe(before);
    const en = JSON.parse(fs.readFileSync("locales/en-GB/reports.json", "utf8"));
    expect(en.validation.intervalTooLong).toBe("A period covers {{max}} days at most");
  });

  it("lets the owner run it now and delete it; another user's attempt is 404 and changes nothing", async () => {
    const id = await createdId("sup", reportForm({ name: "To delete", frequency: "daily" }));
    expect((await save("other", id, { intent: "run-report-now" })).status).toBe(404);
    expect(await storage().jobs.getOne(`report-now-${id}`)).toBeNull();
    const run = await save("sup", id, { intent: "run-report-now" });
    expect(run.status).toBe(302);
    expect(run.location).toBe(`/reports/${id}/history`);
    expect((await storage().jobs.getOne(`report-now-${id}`))?.schedule).toMatchObject({ type: "once" });
    expect((await save("other", id, { intent: "delete-report" })).status).toBe(404);
    expect((await save("sup", id, { intent: "delete-report" })).status).toBe(302);
    expect(await storage().reports.getOne(id)).toBeNull();
    expect(await storage().jobs.getOne(`report-${id}`)).toBeNull();
  });
});

describe("the report forms, attacked", () => {
  const en = JSON.parse(fs.readFileSync("locales/en-GB/reports.json", "utf8"));
  const enCommon = JSON.parse(fs.readFileSync("locales/en-GB/common.json", "utf8"));
  const fr = JSON.parse(fs.readFileSync("locales/fr/reports.json", "utf8"));
  const frCommon = JSON.parse(fs.readFileSync("locales/fr/common.json", "utf8"));
  /** The text of a message key (`ns:a.b`, plain keys in common) in both languages: a clear error, never a raw key. */
  const texts = (message: string) => {
    const [ns, key] = message.includes(":") ? (message.split(":") as [string, string]) : ["common", message];
    const find = (root: Record<string, unknown>) => key.split("|")[0]!.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], root);
    return [find(ns === "reports" ? en : enCommon), find(ns === "reports" ? fr : frCommon)];
  };
  const expectClear = (message: unknown) => {
    expect(typeof message).toBe("string");
    for (const text of texts(message as string)) expect(typeof text, String(message)).toBe("string");
  };
  /** A request as a forged form sends it: any fields, repeated ones too. */
  const post = (who: string, id: string, entries: [string, string][]) =>
    call(async () => {
      const request = new Request(new URL(`/reports/${id}`, "http://console.test"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies[who]! },
        body: new URLSearchParams(entries).toString(),
      });
      return (await editRoute()).action({ ...args(request), params: { reportId: id } } as never);
    });
  let id = "";
  let teammate: AppUser;
  const snapshot = async () => JSON.stringify([await storage().reports.getOne(id), await storage().jobs.getOne(`report-${id}`), await storage().jobs.getOne(`report-now-${id}`)]);

  beforeAll(async () => {
    id = await createdId("sup", reportForm({ name: "Attacked", frequency: "weekly" }));
    teammate = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { "acme-brand": "VIEWER" } });
    cookies.teammate = await signIn(app.m, teammate.email, teammate.password);
  });

  it("answers 404 to another's or an unknown report id for every intent, with the report's message, and changes nothing", async () => {
    const before = await snapshot();
    for (const who of ["teammate", "other", "viewer"]) {
      for (const form of [reportForm({ version: "1", name: "Hijacked" }), { intent: "run-report-now" }, { intent: "delete-report" }]) {
        const outcome = await save(who, id, form);
        expect(outcome.status, `${who} ${form.intent}`).toBe(404);
        expect(outcome.data.error).toBe("reports:notFound");
        expectClear(outcome.data.error);
      }
    }
    for (const forged of ["no-such-report", "../reports", "x".repeat(2000)]) {
      for (const form of [reportForm(), { intent: "run-report-now" }, { intent: "delete-report" }]) expect((await save("admin", forged, form)).status).toBe(404);
    }
    expect(await snapshot()).toBe(before);
    // The team's viewer may still make reports of their own (NOTES.md: read, create and edit own).
    expect((await save("teammate", "new", reportForm({ name: "Teammate's" }))).status).toBe(302);
  });

  it("refuses unknown, missing or misplaced intents with a 400 that changes nothing", async () => {
    const before = await snapshot();
    for (const entries of [[["intent", "drop-table"]], [], [["intent", "run-report-now"], ["intent", "delete-report"]]] as [string, string][][]) {
      const outcome = await post("sup", id, entries);
      expect(outcome.status, JSON.stringify(entries)).toBe(400);
      expectClear(outcome.data.error);
    }
    for (const intent of ["run-report-now", "delete-report"]) {
      const outcome = await post("sup", "new", [["intent", intent]]);
      expect(outcome.status).toBe(400);
      expectClear(outcome.data.error);
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses oversized and malformed fields on the field they concern, keeping what was typed, and saves nothing", async () => {
    const before = await snapshot();
    const current = () => storage().reports.getOne(id).then((r) => String(r!.version));
    const cases: [Record<string, string>, string][] = [
      [{ name: "n".repeat(121) }, "name"],
      [{ name: "   " }, "name"],
      [{ walletTags: "t".repeat(2001) }, "walletTags"],
      [{ teamId: "t".repeat(201) }, "teamId"],
      [{ from: "2026-11-240000" }, "from"],
      [{ period: "lifetime" }, "period"],
      [{ timeUnit: "hourly" }, "timeUnit"],
      [{ frequency: "hourly" }, "frequency"],
      [{ recipients: "" }, "recipients"],
      [{ recipients: " " }, "recipients"],
      [{ recipients: "a@b.example\r\nBcc: victim@evil.example" }, "recipients"],
    ];
    for (const [overrides, field] of cases) {
      const form = reportForm({ ...overrides, version: await current() });
      const outcome = await save("sup", id, form);
      expect(outcome.status, JSON.stringify(overrides).slice(0, 60)).toBe(400);
      const errors: string[] = outcome.data.result.error[field];
      expect(errors?.length, field).toBeGreaterThan(0);
      expectClear(errors[0]!.split("|")[0]);
      // What was typed comes back as typed (the form shows it again).
      const typed = Object.fromEntries(Object.entries({ ...overrides, name: form.name }).filter(([, v]) => v.trim() !== ""));
      expect(outcome.data.result.initialValue).toMatchObject(typed);
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses a forged version, repeated fields and a name with line breaks with a message the page shows, and saves nothing", async () => {
    const before = await snapshot();
    const version = String((await storage().reports.getOne(id))!.version);
    for (const forged of ["abc", "0", "-1", "1.5", "1e400"]) {
      const outcome = await save("sup", id, reportForm({ version: forged, name: "Forged version" }));
      expect(outcome.status, forged).toBe(400);
      // Shown above the form (the version is a hidden field): a message, not a silent refusal.
      expect(outcome.data.result.error[""], forged).toEqual(["errors.unknownIntent"]);
      expect(outcome.data.result.initialValue).toMatchObject({ name: "Forged version" });
    }
    const stale = await save("sup", id, reportForm({ version: String(Number(version) + 5), name: "Stale" }));
    expect(stale.status).toBe(409);
    expect(stale.data.result.error[""]).toEqual(["errors.conflict"]);
    expect(stale.data.result.initialValue).toMatchObject({ name: "Stale" });
    const entries = Object.entries(reportForm({ version, name: "Once" }));
    const twice = await post("sup", id, [...entries, ["name", "Twice"], ["teamId", otherTeamId], ["version", version]]);
    expect(twice.status).toBe(400);
    expect(twice.data.result.error).toMatchObject({ name: ["errors.unknownIntent"], teamId: ["errors.unknownIntent"], version: ["errors.unknownIntent"] });
    const broken = await save("sup", id, reportForm({ version, name: "Line\r\nBcc: victim@evil.example" }));
    expect(broken.status).toBe(400);
    expect(broken.data.result.error.name).toEqual(["reports:validation.oneLine"]);
    expectClear("reports:validation.oneLine");
    expect(await snapshot()).toBe(before);
  });

  it("refuses moving a report to an advertiser not the owner's: 403 for the supplier, a field error for a manager, nothing changed", async () => {
    const before = await snapshot();
    const version = String((await storage().reports.getOne(id))!.version);
    const own = await save("sup", id, reportForm({ version, teamId: otherTeamId }));
    expect(own.status).toBe(403);
    expect(own.data.error).toBe("errors.insufficientPermissions");
    const noTeam = await save("sup", id, reportForm({ version, teamId: "" }));
    expect(noTeam.status).toBe(400);
    expect(noTeam.data.result.error.teamId).toEqual(["reports:validation.teamRequired"]);
    for (const teamId of [otherTeamId, ""]) {
      const managed = await save("admin", id, reportForm({ version, teamId }));
      expect(managed.status).toBe(400);
      expect(managed.data.result.error.teamId).toEqual(["reports:validation.ownerTeam"]);
      expectClear("reports:validation.ownerTeam");
    }
    const unknown = await save("admin", id, reportForm({ version, teamId: "no-such-team" }));
    expect(unknown.status).toBe(400);
    expect(unknown.data.result.error.teamId).toEqual(["reports:validation.team"]);
    expect(await snapshot()).toBe(before);
  });
});

describe("a run", () => {
  const received = catchSmtp(() => app);

  it("mails the recipients a link that downloads the owner's figures without an account, refused once tampered with or expired", async () => {
    const id = await createdId("sup", reportForm({ name: "Acme by campaign", recipients: "reader@agency.example" }));
    let now = new Date(Date.now() + 1_000);
    const s = await scheduler(() => now);
    const ran = await s.tick();
    expect(ran.find((r) => r.jobId === `report-${id}`)).toMatchObject({ outcome: "done" });

    const mail = received.find((m) => m.to.includes("reader@agency.example"));
    expect(mail).toBeDefined();
    const { headers, text } = decodeRawMail(mail!.raw);
    expect(headers.subject).toBe("Report: Acme by campaign");
    // Its expiry names the time zone it is given in (a recipient may be anywhere).
    expect(text).toMatch(/until \d{1,2} \w+ \d{4} at \d{2}:\d{2} (CET|CEST):/);
    const link = /(http:\/\/console\.test\/report-files\/\S+)/.exec(text)?.[1];
    expect(link).toBeDefined();

    // No cookie: the signed link is the right.
    const file = await download(link!);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toMatch(/attachment; filename="Acme-by-campaign-2026-11-24\.csv"/);
    const csv = await file.text();
    expect(csv).toContain("camp-acme-1");
    expect(csv).toContain("camp-acme-2");
    // The supplier's report never holds another team's figures.
    expect(csv).not.toContain("camp-rival");
    expect(csv).not.toContain("999");

    // Tampered: another run id, another expiry, another signature.
    const url = new URL(link!);
    const forged = (mutate: (u: URL) => void) => {
      const u = new URL(url);
      mutate(u);
      return u.toString();
    };
    expect((await download(forged((u) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 86_400_000))))).status).toBe(404);
    expect((await download(forged((u) => u.searchParams.set("signature", (u.searchParams.get("signature")!.startsWith("A") ? "B" : "A") + u.searchParams.get("signature")!.slice(1))))).status).toBe(404);
    expect((await download(forged((u) => (u.pathname = u.pathname + "x")))).status).toBe(404);

    // The history shows the run, done, with its rows and the link.
    const shown = await history("sup", id);
    expect(shown.data.runs[0]).toMatchObject({ status: "done", rows: "2", link });
    expect(shown.data.runs[0].expiry.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // The owner is told (report generated), with the preference on.
    const told = (await storage().notifications.list(sup.id, {})).items.find((n) => n.type === "reportGenerated");
    expect(told).toMatchObject({ values: { report: "Acme by campaign", rows: 2 }, link: `/reports/${id}/history` });

    // Past its expiry the link is refused, and the expiry job removes the file.
    const { downloadReportFile, removeExpiredReportFiles } = await reports();
    const expires = url.searchParams.get("expires")!;
    const later = new Date(Number(expires) + 1);
    expect((await downloadReportFile(decodeURIComponent(url.pathname.split("/").pop()!), expires, url.searchParams.get("signature"), later)).ok).toBe(false);
    now = later;
    await s.tick();
    expect((await removeExpiredReportFiles(later)).ok).toBe(true);
    const run = (await storage().reports.listRuns(id, {})).items[0]!;
    expect(run).toMatchObject({ fileKey: null, expired: true });
    expect(fs.existsSync(path.join(app.dir, "files", "reports", id))).toBe(true);
    expect(fs.readdirSync(path.join(app.dir, "files", "reports", id))).toEqual([]);
    expect((await download(link!)).status).toBe(404);
    expect((await history("sup", id)).data.runs[0]).toMatchObject({ link: null, expired: true });
  });

  it("shows 'In progress' in the list and the history while a run is under way, then its outcome", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    const msw = setupServer(
      http.post(METRICS_API_URL, async () => {
        asked();
        await gate;
        return HttpResponse.json({ summary: {}, team: [] });
      }),
    );
    msw.listen({ onUnhandledRequest: "bypass" });
    process.env.METRICS_API_URL = METRICS_API_URL;
    try {
      const id = await createdId("sup", reportForm({ name: "Slow one", type: "teams", recipients: "slow@agency.example" }));
      const ticking = (await scheduler(() => new Date(Date.now() + 1_000))).tick();
      await reached;
      const during = await history("sup", id);
      expect(during.data.runs).toMatchObject([{ status: "inProgress", link: null, rows: null }]);
      expect((await list("sup")).data.rows.find((r: { id: string }) => r.id === id)).toMatchObject({ lastRun: { status: "inProgress" } });
      const en = JSON.parse(fs.readFileSync("locales/en-GB/reports.json", "utf8"));
      expect(en.statuses.inProgress).toBe("In progress");
      release();
      expect((await ticking).find((r) => r.jobId === `report-${id}`)).toMatchObject({ outcome: "done" });
      expect((await history("sup", id)).data.runs).toMatchObject([{ status: "done", rows: "0" }]);
    } finally {
      release();
      delete process.env.METRICS_API_URL;
      msw.close();
    }
  });

  it("does not make or mail a run again when it is taken over after its first attempt finished (its lease lost before it was recorded)", async () => {
    const id = await createdId("sup", reportForm({ name: "Taken over", recipients: "once@agency.example", frequency: "daily" }));
    const { runReport } = await reports();
    const scheduledFor = new Date("2026-11-25T07:00:00.000Z");
    const ctx = { params: { reportId: id }, scheduledFor, now: new Date(), signal: new AbortController().signal };
    expect(await runReport({ ...ctx, attempt: 1 })).toMatchObject({ ok: true });
    const first = (await storage().reports.listRuns(id, {})).items;
    expect(first).toMatchObject([{ status: "done", rows: 2 }]);
    expect(received.filter((m) => m.to.includes("once@agency.example"))).toHaveLength(1);
    // The worker that took the run over: same run, nothing made or sent again.
    expect(await runReport({ ...ctx, now: new Date(Date.now() + 600_000), attempt: 2 })).toMatchObject({ ok: true });
    const second = (await storage().reports.listRuns(id, {})).items;
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ status: "done", started: first[0]!.started, fileKey: first[0]!.fileKey, expiresAt: first[0]!.expiresAt });
    expect(received.filter((m) => m.to.includes("once@agency.example"))).toHaveLength(1);
    expect((await storage().notifications.list(sup.id, {})).items.filter((n) => n.type === "reportGenerated" && n.values.report === "Taken over")).toHaveLength(1);
    await storage().jobs.remove(`report-${id}`);
  });

  it("aborts a run past the row limit with the spec's message, shown in the history", async () => {
    process.env.REPORT_ROW_LIMIT = "1";
    app.m.env.resetEnvForTests();
    try {
      const id = await createdId("sup", reportForm({ name: "Too big", recipients: "big@agency.example" }));
      const s = await scheduler(() => new Date(Date.now() + 1_000));
      const ran = await s.tick();
      expect(ran.find((r) => r.jobId === `report-${id}`)).toMatchObject({ outcome: "aborted", reason: "reports:aborted" });
      const shown = await history("sup", id);
      expect(shown.data.runs[0]).toMatchObject({ status: "aborted", reason: "reports:aborted", link: null });
      const en = JSON.parse(fs.readFileSync("locales/en-GB/reports.json", "utf8"));
      expect(en.aborted).toBe(
        "The report generation was aborted because the number of rows exceeds the allowed limit. Please reduce the data size by selecting a shorter date range and try again.",
      );
      expect(received.some((m) => m.to.includes("big@agency.example"))).toBe(false);
      expect((await storage().reports.getOne(id))?.lastRun).toMatchObject({ status: "aborted" });
    } finally {
      delete process.env.REPORT_ROW_LIMIT;
      app.m.env.resetEnvForTests();
    }
  });

  it("runs with the owner's rights at run time: an owner who left the team gets a failed run, not the figures", async () => {
    const leaver = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" } });
    const { saveReport } = await reports();
    const saved = await saveReport(leaver, null, {
      name: "Leaver's",
      type: "teams",
      period: "custom",
      interval: { from: DAY, to: DAY },
      timeUnit: "cumulative",
      walletTags: [],
      teamId: "acme-brand",
      recipients: ["leaver@agency.example"],
      format: "csv",
      frequency: "once",
      runAt: "08:00",
    });
    expect(saved.ok).toBe(true);
    const id = saved.ok ? saved.value.id : "";
    await storage().users.update(leaver.id, { roleByTeam: {} }, { by: "system" });
    const ran = await (await scheduler(() => new Date(Date.now() + 1_000))).tick();
    expect(ran.find((r) => r.jobId === `report-${id}`)).toMatchObject({ outcome: "failed", reason: "reports:reasons.ownerRights" });
    expect((await storage().reports.listRuns(id, {})).items[0]).toMatchObject({ status: "failed", fileKey: null });
    expect(received.some((m) => m.to.includes("leaver@agency.example"))).toBe(false);
  });

  describe("a report whose owner lost their rights (ADR 49)", () => {
    const stoppedOf = async (userId: string, name: string) =>
      (await storage().notifications.list(userId, {})).items.filter((n) => n.type === "reportStopped" && n.values.report === name);
    const layout = (who: string, id: string) =>
      call(async () => (await import("~/routes/reports.$reportId")).loader({ ...args(getRequest(`/reports/${id}`, { cookie: cookies[who] })), params: { reportId: id } } as never));
    const activity = () => call(async () => (await import("~/routes/health")).loader(args(getRequest("/health", { cookie: cookies.operator })) as never));
    const mineOf = <R extends { jobId: string }>(ran: R[], id: string) => ran.filter((r) => r.jobId === `report-${id}` || r.jobId === `report-now-${id}`);

    it("stops at the first run that finds the owner off the team, tells the owner and the team's admins once, runs no more, and resumes once saved with the owner's access back", async () => {
      const name = "Leaver's daily";
      const leaver = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" }, timezone: "Europe/Paris" });
      const { saveReport } = await reports();
      const saved = await saveReport(
        (await storage().users.getOne(leaver.id))!,
        null,
        { name, type: "teams", period: "yesterday", interval: null, timeUnit: "cumulative", walletTags: [], teamId: "acme-brand", recipients: ["stopped@agency.example"], format: "csv", frequency: "daily", runAt: "06:00" },
        new Date("2026-11-24T12:00:00.000Z"),
      );
      const id = saved.ok ? saved.value.id : "";
      expect(id).not.toBe("");
      await storage().users.update(leaver.id, { roleByTeam: {} }, { by: "system" });

      // Four daily runs were due (the 25th to the 28th): the first fails and stops it; none follows.
      const ran = mineOf(await (await scheduler(() => new Date("2026-11-28T12:00:00.000Z"))).tick(), id);
      expect(ran.map((r) => [r.scheduledFor.toISOString(), r.outcome, r.reason])).toEqual([["2026-11-25T05:00:00.000Z", "failed", "reports:reasons.ownerRights"]]);
      const stopped = (await storage().reports.getOne(id))!;
      expect(stopped.stopped).toMatchObject({ reason: "reports:reasons.ownerRights", at: "2026-11-28T12:00:00.000Z" });
      expect((await storage().reports.listRuns(id, {})).items.map((r) => r.status)).toEqual(["failed"]);
      expect((await storage().jobs.getOne(`report-${id}`))?.nextRunAt ?? null).toBeNull();
      // Activity shows its job as it is (ADR 54): still daily, stopped since the run with the
      // reason and no next run, that run failed; not a job that ran "once".
      const shown = async () => ((await activity()).data.work.rows as { id: string }[]).find((r) => r.id === `report-${id}`);
      expect(await shown()).toMatchObject({
        schedule: "Every day at 06:00 (Europe/Paris time)",
        nextRun: null,
        state: "failed",
        reason: "The report's owner may no longer read it",
        stopped: { since: { at: "2026-11-28T12:00:00.000Z", text: "28 Nov 2026, 13:00" }, reason: "The report's owner may no longer read it" },
      });
      expect(mineOf(await (await scheduler(() => new Date("2026-11-30T12:00:00.000Z"))).tick(), id)).toEqual([]);
      expect(await shown()).toMatchObject({ nextRun: null, state: "failed", stopped: { reason: "The report's owner may no longer read it" } });

      // Told once: the owner (who can no longer open it: no link) and the team's admin (its members).
      expect((await stoppedOf(leaver.id, name)).map((n) => n.link)).toEqual([null]);
      expect((await stoppedOf(sup.id, name)).map((n) => n.link)).toEqual(["/teams/acme-brand/settings/members"]);
      expect(await stoppedOf(other.id, name)).toEqual([]);
      expect(await stoppedOf(admin.id, name)).toEqual([]);
      const mails = received.filter((m) => decodeRawMail(m.raw).headers.subject === `Report stopped: ${name}`);
      const mailedTo = mails.flatMap((m) => m.to);
      // (The demo team's own admin is told too.) Each once, nobody else.
      expect(mailedTo).toEqual(expect.arrayContaining([leaver.email, sup.email]));
      expect(new Set(mailedTo).size).toBe(mailedTo.length);
      expect(mailedTo).not.toContain(other.email);
      expect(mailedTo).not.toContain(admin.email);
      expect(received.some((m) => m.to.includes("stopped@agency.example"))).toBe(false);

      // Shown stopped, with its reason, in the list and on its pages (a manager's view; the owner's is 404 now).
      const row = (await list("admin")).data.rows.find((r: { id: string }) => r.id === id);
      expect(row).toMatchObject({ nextRun: null, stopped: { reason: "reports:reasons.ownerRights" } });
      expect(row.stopped.since.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect((await layout("admin", id)).data.stopped).toMatchObject({ reason: "reports:reasons.ownerRights" });
      cookies.leaver = await signIn(app.m, leaver.email, leaver.password);
      expect((await layout("leaver", id)).status).toBe(404);
      expect((await edit("admin", id)).data).toMatchObject({ ownerBack: false, editable: true });

      // "Run now" is refused while it is stopped.
      const runNow = await save("admin", id, { intent: "run-report-now" });
      expect(runNow.status).toBe(400);
      expect(runNow.data.error).toBe("reports:stopped.resumeFirst");
      expect(await storage().jobs.getOne(`report-now-${id}`)).toBeNull();
      const form = (overrides: Record<string, string> = {}) =>
        reportForm({
          name,
          type: "teams",
          period: "yesterday",
          from: "",
          to: "",
          recipients: "stopped@agency.example",
          frequency: "daily",
          runAt: "06:00",
          version: String((stoppedNow ?? stopped).version),
          ...overrides,
        });
      let stoppedNow: typeof stopped | null = null;
      // While its owner still may not read it, a manager may still change it (ADR 54): its
      // recipients are fixed and saved, it stays stopped, and the toast and the page say so.
      expect((await edit("admin", id)).data).toMatchObject({ ownerBack: false, movable: false });
      const fixed = await save("admin", id, form({ recipients: "fixed@agency.example" }));
      expect(fixed.status, JSON.stringify(fixed.data)).toBe(302);
      expect(await toastOf(fixed.headers)).toMatchObject({ description: "reports:toast.savedStillStopped", values: { name } });
      stoppedNow = (await storage().reports.getOne(id))!;
      expect(stoppedNow).toMatchObject({ recipients: ["fixed@agency.example"], stopped: { reason: "reports:reasons.ownerRights" } });
      const stillStopped = (await storage().jobs.getOne(`report-${id}`))!;
      expect(stillStopped).toMatchObject({ nextRunAt: null, stopped: { reason: "reports:reasons.ownerRights" }, schedule: { type: "daily", time: "06:00" } });
      expect(mineOf(await (await scheduler(() => new Date("2026-12-02T12:00:00.000Z"))).tick(), id)).toEqual([]);
      expect(received.some((m) => m.to.includes("fixed@agency.example"))).toBe(false);
      // Pointed at figures its owner may not read (a team they are not on): refused on the field, nothing changed.
      const elsewhere = await save("admin", id, form({ teamId: otherTeamId, recipients: "moved@agency.example" }));
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.data.result.error.teamId).toEqual(["reports:validation.ownerTeam"]);
      expect(elsewhere.data.result.initialValue).toMatchObject({ recipients: "moved@agency.example", teamId: otherTeamId });
      expect((await storage().reports.getOne(id))!).toMatchObject({ teamId: "acme-brand", recipients: ["fixed@agency.example"], version: stoppedNow.version });
      // Nobody else may change it: another supplier, a retailer viewer, the team's admin (not theirs): 404.
      for (const who of ["other", "viewer", "sup"]) {
        for (const intent of [form(), { intent: "run-report-now" }, { intent: "delete-report" }]) expect((await save(who, id, intent)).status).toBe(404);
      }
      expect((await storage().reports.getOne(id))!).toMatchObject({ version: stoppedNow.version, recipients: ["fixed@agency.example"] });
      expect((await storage().reports.getOne(id))!.stopped).toBeTruthy();
      await save("admin", id, form());
      stoppedNow = (await storage().reports.getOne(id))!;

      // Access given back: the manager's save resumes it, and its next run is made.
      await storage().users.update(leaver.id, { roleByTeam: { "acme-brand": "ADMIN" } }, { by: "system" });
      expect((await edit("admin", id)).data.ownerBack).toBe(true);
      const resumed = await save("admin", id, form());
      expect(resumed.status, JSON.stringify(resumed.data)).toBe(302);
      expect(await toastOf(resumed.headers)).toMatchObject({ description: "reports:toast.resumed", values: { name } });
      expect((await storage().reports.getOne(id))!.stopped ?? null).toBeNull();
      const job = (await storage().jobs.getOne(`report-${id}`))!;
      expect(job.schedule).toMatchObject({ type: "daily", time: "06:00" });
      expect(job.nextRunAt).not.toBeNull();
      const next = mineOf(await (await scheduler(() => new Date(Date.parse(job.nextRunAt!) + 1_000))).tick(), id);
      expect(next.map((r) => r.outcome)).toEqual(["done"]);
      expect(received.some((m) => m.to.includes("stopped@agency.example"))).toBe(true);
      // Both changes of state are in the audit trail: by the system, then by the manager.
      const states = (await storage().audit.list({ entity: "report", entityId: id })).items.flatMap((e) => e.changes.filter((c) => c.field === "state").map((c) => [e.by, c.before, c.after]));
      expect(states).toEqual(expect.arrayContaining([["system", "active", "stopped"], [admin.email, "stopped", "active"]]));
    });

    it("resumes a stopped report once a manager saves it on an advertiser its owner is on, and the Activity shows its job running again (ADR 54)", async () => {
      const name = "Mover's daily";
      const mover = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN", [otherTeamId]: "VIEWER" }, timezone: "Europe/Paris" });
      const { saveReport, runReport } = await reports();
      const saved = await saveReport((await storage().users.getOne(mover.id))!, null, {
        name,
        type: "teams",
        period: "yesterday",
        interval: null,
        timeUnit: "cumulative",
        walletTags: [],
        teamId: "acme-brand",
        recipients: ["mover@agency.example"],
        format: "csv",
        frequency: "weekly",
        runAt: "07:00",
      });
      const id = saved.ok ? saved.value.id : "";
      await storage().users.update(mover.id, { roleByTeam: { [otherTeamId]: "VIEWER" } }, { by: "system" });
      const at = new Date(Date.parse((await storage().jobs.getOne(`report-${id}`))!.nextRunAt!));
      await runReport({ params: { reportId: id }, scheduledFor: at, now: at, signal: new AbortController().signal });
      const stopped = (await storage().reports.getOne(id))!;
      expect(stopped.stopped).toMatchObject({ reason: "reports:reasons.ownerRights" });
      expect((await storage().jobs.getOne(`report-${id}`))!).toMatchObject({ nextRunAt: null, stopped: { reason: "reports:reasons.ownerRights" } });
      // The page says that saving it on one of its owner's advertisers resumes it.
      expect((await edit("admin", id)).data).toMatchObject({ ownerBack: false, movable: true });
      const form = reportForm({ name, type: "teams", period: "yesterday", from: "", to: "", teamId: otherTeamId, recipients: "mover@agency.example", frequency: "weekly", runAt: "07:00", version: String(stopped.version) });
      const moved = await save("admin", id, form);
      expect(moved.status, JSON.stringify(moved.data)).toBe(302);
      expect(await toastOf(moved.headers)).toMatchObject({ description: "reports:toast.resumed", values: { name } });
      expect((await storage().reports.getOne(id))!).toMatchObject({ teamId: otherTeamId, stopped: null });
      const job = (await storage().jobs.getOne(`report-${id}`))!;
      expect(job.stopped ?? null).toBeNull();
      expect(job).toMatchObject({ schedule: { type: "weekly", time: "07:00", timeZone: "Europe/Paris" } });
      expect(job.nextRunAt).not.toBeNull();
      const row = ((await activity()).data.work.rows as { id: string; stopped: unknown; nextRun: unknown }[]).find((r) => r.id === `report-${id}`)!;
      expect(row.stopped).toBeNull();
      expect(row.nextRun).toMatchObject({ at: job.nextRunAt });
    });

    it("stops a staff report about every team of a disabled owner once, though its scheduled run and 'Run now' find it at the same instant; those who manage users are told, not the disabled owner", async () => {
      const name = "Disabled owner's";
      const owner = await app.createUser({ claims: { type: "retailer", role: "VIEWER" } });
      const { saveReport, runReportNow, runReport } = await reports();
      const fresh = (await storage().users.getOne(owner.id))!;
      const saved = await saveReport(fresh, null, { name, type: "teams", period: "yesterday", interval: null, timeUnit: "cumulative", walletTags: [], teamId: null, recipients: ["staff@agency.example"], format: "csv", frequency: "weekly", runAt: "07:00" });
      const id = saved.ok ? saved.value.id : "";
      expect((await runReportNow(fresh, id)).ok).toBe(true);
      await storage().users.update(owner.id, { disabled: true }, { by: "system" });
      const weekly = (await storage().jobs.getOne(`report-${id}`))!;
      const at = new Date(Date.parse(weekly.nextRunAt!));
      const signal = new AbortController().signal;
      const outcomes = await Promise.all([
        runReport({ params: { reportId: id }, scheduledFor: at, now: at, signal }),
        runReport({ params: { reportId: id, manual: true }, scheduledFor: at, now: at, signal }),
      ]);
      expect(outcomes.every((o) => !!o && !("ok" in o && o.ok))).toBe(true);
      expect((await storage().reports.getOne(id))!.stopped).toMatchObject({ reason: "reports:reasons.ownerRights" });
      expect(await stoppedOf(owner.id, name)).toEqual([]);
      expect((await stoppedOf(admin.id, name)).map((n) => n.link)).toEqual([`/reports/${id}`]);
      expect(await stoppedOf(viewer.id, name)).toEqual([]);
      // Both its jobs are stopped with it (ADR 54): no next run, the reason kept for Activity.
      for (const jobId of [`report-${id}`, `report-now-${id}`]) expect((await storage().jobs.getOne(jobId))!).toMatchObject({ nextRunAt: null, stopped: { reason: "reports:reasons.ownerRights" } });
      expect(mineOf(await (await scheduler(() => new Date(Date.parse(weekly.nextRunAt!) + 8 * 86_400_000))).tick(), id)).toEqual([]);
      expect(received.some((m) => m.to.includes("staff@agency.example"))).toBe(false);
    });
  });

  it("catches up each missed daily run once, at the owner's local time, each with its own day (the retailer's)", async () => {
    const { saveReport } = await reports();
    const owner = (await storage().users.getOne(sup.id))!;
    const saved = await saveReport(
      { ...owner, timezone: "America/New_York" },
      null,
      { name: "Daily catch-up", type: "teams", period: "yesterday", interval: null, timeUnit: "cumulative", walletTags: [], teamId: "acme-brand", recipients: ["daily@agency.example"], format: "csv", frequency: "daily", runAt: "06:00" },
      new Date("2026-11-24T12:00:00.000Z"),
    );
    expect(saved.ok).toBe(true);
    const id = saved.ok ? saved.value.id : "";
    // 06:00 in New York is 11:00 UTC; down from the 24th at noon until the 28th at noon: the 25th, 26th, 27th and 28th.
    const ran = await (await scheduler(() => new Date("2026-11-28T12:00:00.000Z"))).tick();
    const mine = ran.filter((r) => r.jobId === `report-${id}`);
    expect(mine.map((r) => r.scheduledFor.toISOString())).toEqual(["2026-11-25T11:00:00.000Z", "2026-11-26T11:00:00.000Z", "2026-11-27T11:00:00.000Z", "2026-11-28T11:00:00.000Z"]);
    const runs = (await storage().reports.listRuns(id, {})).items;
    // Started and finished on the scheduler's clock, not the machine's.
    for (const run of runs) {
      const took = Date.parse(run.finished!) - Date.parse(run.started);
      expect(took).toBeGreaterThanOrEqual(0);
      expect(took).toBeLessThan(60_000);
    }
    expect(runs[0]!.started.slice(0, 10)).toBe("2026-11-28");
    // Each run's "yesterday" in the retailer's days (Paris), newest first.
    expect(runs.map((r) => r.period.from)).toEqual(["2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24"]);
    expect(runs.map((r) => r.rows)).toEqual([0, 0, 0, 1]);
    expect(received.filter((m) => m.to.includes("daily@agency.example"))).toHaveLength(4);
  });

  it("reads a retailer's own statistics service with an identity token of the owner alone, daily rows per day", async () => {
    const { answerMetrics } = await import("~/services/metrics.server");
    const { parseMetricsRequest, responseToWire, scopeRequest } = await import("~/domain/metrics/contract");
    const { verifyIdentityToken } = await import("~/services/identity-token.server");
    const claims: unknown[] = [];
    // The retailer's service: answers for the teams its caller's token names, like the built-in one.
    const msw = setupServer(
      http.post(METRICS_API_URL, async ({ request }) => {
        const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
        const verified = await verifyIdentityToken(token);
        claims.push(verified);
        const parsed = parseMetricsRequest(await request.json());
        if (!verified || !parsed.ok) return new HttpResponse(null, { status: 401 });
        return HttpResponse.json(responseToWire(await answerMetrics(scopeRequest(parsed.value, verified.teams))) as Record<string, unknown>);
      }),
    );
    msw.listen({ onUnhandledRequest: "bypass" });
    process.env.METRICS_API_URL = METRICS_API_URL;
    try {
      const id = await createdId("sup", reportForm({ name: "Over HTTP", type: "teams", from: "2026-11-23", to: DAY, timeUnit: "daily", recipients: "http@agency.example" }));
      const ran = await (await scheduler(() => new Date(Date.now() + 1_000))).tick();
      expect(ran.find((r) => r.jobId === `report-${id}`)).toMatchObject({ outcome: "done" });
      // One request per day, each with a token naming the supplier and their team only.
      expect(claims).toHaveLength(2);
      for (const c of claims) expect(c).toEqual({ userId: sup.id, accountType: "supplier", teams: ["acme-brand"] });
      const run = (await storage().reports.listRuns(id, {})).items[0]!;
      expect(run).toMatchObject({ status: "done", rows: 1 });
      const csv = new TextDecoder().decode((await (await import("~/services/files.server")).getFileStore().get(run.fileKey!))!.bytes);
      expect(csv).toContain("Day");
      expect(csv).toContain(`${DAY},Acme Brand`);
      expect(csv).not.toContain("Rival");
    } finally {
      delete process.env.METRICS_API_URL;
      msw.close();
    }
  });

  it("keeps a report at its owner's local time when a manager in another time zone edits it, and never runs a 'once' report again on a save", async () => {
    const manager = await app.createUser({ claims: { type: "retailer", role: "ADMIN" }, timezone: "America/New_York" });
    cookies.manager = await signIn(app.m, manager.email, manager.password);
    // A daily report of the supplier (Paris): the manager renames it; it stays at 08:00 in Paris.
    const daily = await createdId("sup", reportForm({ name: "Paris mornings", frequency: "daily", runAt: "08:00" }));
    const before = (await storage().jobs.getOne(`report-${daily}`))!;
    expect(before.schedule).toMatchObject({ type: "daily", time: "08:00", timeZone: "Europe/Paris" });
    const shown = await edit("manager", daily);
    expect(shown.data).toMatchObject({ timeZone: "Europe/Paris", ownersZone: true });
    expect((await save("manager", daily, reportForm({ name: "Paris mornings (renamed)", frequency: "daily", runAt: "08:00", version: "1" }))).status).toBe(302);
    expect(await storage().reports.getOne(daily)).toMatchObject({ name: "Paris mornings (renamed)", timeZone: "Europe/Paris" });
    const after = (await storage().jobs.getOne(`report-${daily}`))!;
    expect(after.schedule).toEqual(before.schedule);
    expect(after.nextRunAt).toBe(before.nextRunAt);
    // Its owner sees their own zone.
    expect((await edit("sup", daily)).data).toMatchObject({ timeZone: "Europe/Paris", ownersZone: false });

    // A "once" report runs when made, and its recipients get one mail...
    const once = await createdId("sup", reportForm({ name: "Just once", recipients: "typo-fixed@agency.example" }));
    const tick = async () => (await scheduler(() => new Date(Date.now() + 1_000))).tick();
    expect((await tick()).find((r) => r.jobId === `report-${once}`)).toMatchObject({ outcome: "done" });
    const mailed = () => received.filter((m) => m.to.includes("typo-fixed@agency.example")).length;
    expect(mailed()).toBe(1);
    // ...not a second when the manager (another zone) or its owner fixes a typo.
    expect((await save("manager", once, reportForm({ name: "Just once!", recipients: "typo-fixed@agency.example", version: String((await storage().reports.getOne(once))!.version) }))).status).toBe(302);
    await storage().users.update(sup.id, { timezone: "Asia/Tokyo" }, { by: "system" });
    try {
      expect((await save("sup", once, reportForm({ name: "Just once!!", recipients: "typo-fixed@agency.example", version: String((await storage().reports.getOne(once))!.version) }))).status).toBe(302);
      expect((await tick()).find((r) => r.jobId === `report-${once}`)).toBeUndefined();
      expect(mailed()).toBe(1);
      expect((await storage().reports.listRuns(once, {})).items).toHaveLength(1);
    } finally {
      await storage().users.update(sup.id, { timezone: "Europe/Paris" }, { by: "system" });
    }
  });

  it("answers a dead download link in the reader's language", async () => {
    const route = await import("~/routes/report-files.$runId");
    const gone = (language: string) =>
      route.loader({ request: new Request("http://console.test/report-files/x?expires=1&signature=x", { headers: { "Accept-Language": language } }), params: { runId: "x" }, context: {} } as never) as Promise<Response>;
    const fr = await gone("fr-FR,fr;q=0.9");
    expect(fr.status).toBe(404);
    expect(await fr.text()).toBe("Ce lien a expiré ou n’est pas valide.");
    expect(await (await gone("en-GB")).text()).toBe("This link has expired or is not valid.");
  });
});
