/**
 * The report forms (issue 11 §2): one zod schema per form, shared by conform in the browser and
 * by the actions. Recipients are typed separated by spaces or new lines; each must be a valid
 * e-mail ('Invalid email', the offending ones named) and none may be listed twice.
 */
import * as z from "zod/mini";
import { MAX_PERIOD_DAYS } from "~/domain/metrics/contract";
import { dayCount, isDay } from "~/domain/metrics/periods";
import { isLocalTime } from "~/domain/schedule";
import {
  FREQUENCIES,
  MAX_RECIPIENTS,
  MAX_WALLET_TAGS,
  parseRecipients,
  parseTags,
  REPORT_FORMATS,
  REPORT_NAME_MAX,
  REPORT_PERIODS,
  REPORT_TYPES,
  TIME_UNITS,
  WALLET_TAG_MAX,
} from "~/domain/reports";
import { withValues } from "~/domain/message";

export const saveReportIntent = "save-report";
export const runReportNowIntent = "run-report-now";
export const deleteReportIntent = "delete-report";

const VERSION_RE = /^[1-9]\d{0,14}$/;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** The stored version a save is based on, from the form's hidden field (checked by the schema). */
export const versionOf = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A field sent twice (only a forged request does) is not a text: said as a form that could not be handled. */
const notText = (issue: { input?: unknown }) => (issue.input === undefined ? "validation.required" : "errors.unknownIntent");

const text = (max: number) => z._default(z.optional(z.string({ error: notText }).check(z.trim(), z.maxLength(max, "validation.tooLong"))), "");

export const ReportSchema = z
  .object({
    intent: z.literal(saveReportIntent),
    /** The version the form was read at (hidden): a forged one is refused above the form (checked below). */
    version: z.optional(z.string({ error: "errors.unknownIntent" })),
    name: z.string({ error: notText }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(REPORT_NAME_MAX, "validation.tooLong")),
    type: z.enum(REPORT_TYPES, { error: "reports:validation.choose" }),
    period: z.enum(REPORT_PERIODS as [string, ...string[]], { error: "reports:validation.choose" }),
    from: text(10),
    to: text(10),
    timeUnit: z.enum(TIME_UNITS, { error: "reports:validation.choose" }),
    walletTags: text(2000),
    /** "" : every team (staff only). */
    teamId: text(200),
    recipients: z.string({ error: notText }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(20_000, "validation.tooLong")),
    format: z._default(z.optional(z.enum(REPORT_FORMATS)), "csv"),
    frequency: z.enum(FREQUENCIES, { error: "reports:validation.choose" }),
    runAt: z._default(z.optional(z.string().check(z.trim())), "08:00"),
  })
  .check(
    z.superRefine((value, ctx) => {
      // A hidden field only a forged request gets wrong: said above the form, what was typed kept.
      if (value.version !== undefined && !VERSION_RE.test(value.version)) ctx.addIssue({ code: "custom", path: [], message: "errors.unknownIntent" });
      // One line (it is a mail's subject and a file's name): no line breaks or other control characters.
      if (CONTROL_RE.test(value.name)) ctx.addIssue({ code: "custom", path: ["name"], message: "reports:validation.oneLine" });
      const parsed = parseRecipients(value.recipients);
      const errors: string[] = [];
      if (parsed.invalid.length) errors.push("validation.emailInvalid", withValues("reports:validation.invalidOnes", { emails: parsed.invalid.join(", ") }));
      if (parsed.duplicates.length) errors.push(withValues("reports:validation.duplicates", { emails: parsed.duplicates.join(", ") }));
      if (parsed.emails.length > MAX_RECIPIENTS) errors.push(withValues("reports:validation.tooManyRecipients", { max: MAX_RECIPIENTS }));
      for (const message of errors) ctx.addIssue({ code: "custom", path: ["recipients"], message });
      if (value.period === "custom") {
        if (!isDay(value.from)) ctx.addIssue({ code: "custom", path: ["from"], message: "reports:validation.day" });
        if (!isDay(value.to)) ctx.addIssue({ code: "custom", path: ["to"], message: "reports:validation.day" });
        if (isDay(value.from) && isDay(value.to) && value.from > value.to) ctx.addIssue({ code: "custom", path: ["to"], message: "reports:validation.interval" });
        // The statistics contract's longest period (a daily report reads it a day at a time).
        else if (isDay(value.from) && isDay(value.to) && dayCount({ from: value.from, to: value.to }) > MAX_PERIOD_DAYS) {
          ctx.addIssue({ code: "custom", path: ["to"], message: withValues("reports:validation.intervalTooLong", { max: MAX_PERIOD_DAYS }) });
        }
      }
      if (value.frequency !== "once" && !isLocalTime(value.runAt)) ctx.addIssue({ code: "custom", path: ["runAt"], message: "reports:validation.time" });
      const tags = parseTags(value.walletTags);
      if (tags.length > MAX_WALLET_TAGS || tags.some((t) => t.length > WALLET_TAG_MAX)) ctx.addIssue({ code: "custom", path: ["walletTags"], message: withValues("reports:validation.tags", { max: MAX_WALLET_TAGS }) });
    }),
  );
export type ReportForm = z.infer<typeof ReportSchema>;

export const ReportActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(runReportNowIntent) }),
  z.object({ intent: z.literal(deleteReportIntent) }),
]);
