/**
 * Team forms: one zod schema per form, shared by conform in the browser and by the actions; and
 * the state of the teams list, read from the URL.
 */
import * as z from "zod/mini";
import {
  BRAND_MAX,
  checkList,
  collectTags,
  KNOWN_TEAM_TAGS,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  MAX_BRANDS,
  MAX_TAGS,
  parseTextList,
  TAG_MAX,
  TEAM_ID_FIELD_MAX,
  TEAM_NAME_MAX,
  TEAM_TEXT_MAX,
} from "~/domain/team-form";
import { MAX_BULK_TEAMS } from "~/domain/teams";
import { ALLOWED_TEAM_ACCOUNT_TYPES, INTERNAL_BILLING_TAG, TEAM_STATUSES, type TeamStatus } from "~/domain/types";

/** Longer than any team id (a slug of the name and a suffix). */
const TEAM_ID_MAX = 200;

export const createTeamIntent = "create-team";
export const updateTeamIntent = "update-team";
export const changeStatusIntent = "change-status";
export const restoreTeamIntent = "restore-team";
export const reviewStatusesIntent = "review-statuses";
export const changeStatusesIntent = "change-statuses";

const checkbox = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === "on"),
);

const text = (max: number) => z._default(z.optional(z.string().check(z.trim(), z.maxLength(max, "validation.tooLong"))), "");

const teamFields = {
  name: z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(TEAM_NAME_MAX, "validation.tooLong")),
  account_type: z.enum(ALLOWED_TEAM_ACCOUNT_TYPES, { error: "teams:validation.accountType" }),
  contact: text(TEAM_TEXT_MAX),
  address: text(TEAM_TEXT_MAX),
  zip_code: text(20),
  city: text(TEAM_TEXT_MAX),
  state: text(TEAM_TEXT_MAX),
  country: text(TEAM_TEXT_MAX),
  internalBilling: checkbox,
  /** Other tags, comma separated. */
  tags: text(2000),
  /** Comma separated. */
  associated_brands: text(4000),
  marketplace_seller_id: text(TEAM_ID_FIELD_MAX),
  external_id: text(TEAM_ID_FIELD_MAX),
  logo: z.optional(
    z.file({ error: "teams:validation.logo.badType" }).check(z.maxSize(LOGO_MAX_BYTES, "teams:validation.logo.tooLarge"), z.mime([...LOGO_TYPES], "teams:validation.logo.badType")),
  ),
};

type TeamFieldsValue = { internalBilling: boolean; tags: string; associated_brands: string };

function refineLists(value: TeamFieldsValue, ctx: z.core.$RefinementCtx) {
  const tags = checkList(teamTags(value), MAX_TAGS, TAG_MAX);
  if (!tags.ok) ctx.addIssue({ code: "custom", path: ["tags"], message: `teams:validation.tags.${tags.reason}` });
  const brands = checkList(parseTextList(value.associated_brands), MAX_BRANDS, BRAND_MAX);
  if (!brands.ok) ctx.addIssue({ code: "custom", path: ["associated_brands"], message: `teams:validation.brands.${brands.reason}` });
}

export const CreateTeamSchema = z.object({ intent: z.literal(createTeamIntent), ...teamFields }).check(z.superRefine(refineLists));

export const UpdateTeamSchema = z
  .object({
    intent: z.literal(updateTeamIntent),
    version: z.coerce.number().check(z.int(), z.gte(1)),
    removeLogo: checkbox,
    ...teamFields,
  })
  .check(z.superRefine(refineLists));

export type TeamFormValue = z.infer<typeof CreateTeamSchema> | z.infer<typeof UpdateTeamSchema>;

/** The tags of a submitted form: the known-tag checkboxes plus the free field. */
export function teamTags(value: TeamFieldsValue): string[] {
  return collectTags(value.internalBilling ? [INTERNAL_BILLING_TAG] : [], value.tags);
}

/** The free tags field of a team: its tags other than the known ones. */
export function freeTagsText(tags: readonly string[]): string {
  return tags.filter((t) => !(KNOWN_TEAM_TAGS as readonly string[]).includes(t)).join(", ");
}

export const ChangeStatusSchema = z.object({
  intent: z.literal(changeStatusIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  status: z.enum(TEAM_STATUSES),
  confirmed: z.literal("yes"),
});

const teamId = (message: string) => z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(TEAM_ID_MAX, message));

/** The list's Restore button on an archived team, after its confirmation. */
export const RestoreTeamSchema = z.object({
  intent: z.literal(restoreTeamIntent),
  teamId: teamId("teams:errors.noTeam"),
  confirmed: z.literal("yes", { error: "teams:errors.confirm" }),
});

/** The list's bulk status change: reviewed first (nothing changes), applied once confirmed. */
export const TeamStatusesSchema = z.object({
  intent: z.enum([reviewStatusesIntent, changeStatusesIntent]),
  teamId: z
    .array(teamId("teams:errors.noTeams"), { error: "teams:errors.noTeams" })
    .check(z.minLength(1, "teams:errors.noTeams"), z.maxLength(MAX_BULK_TEAMS, "teams:errors.tooManyTeams")),
  status: z.enum(TEAM_STATUSES, { error: "teams:errors.noStatus" }),
  confirmed: z.optional(z.string()),
});

// ---------------------------------------------------------------------------------------------
// The teams list: its whole state lives in the URL.

export const TEAM_LIST_SORTS = ["name", "created", "balance"] as const;
export type TeamListSortKey = (typeof TEAM_LIST_SORTS)[number];
export const TEAM_PAGE_SIZE = 25;

export interface TeamListQuery {
  q: string;
  /** "" = active and suspended. */
  status: TeamStatus | "";
  accountType: (typeof ALLOWED_TEAM_ACCOUNT_TYPES)[number] | "";
  tag: string;
  sort: TeamListSortKey;
  dir: "asc" | "desc";
  after: string | null;
}

function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T | ""): T | "" {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads the list's state from the URL; unknown values fall back to the defaults. */
export function parseTeamListQuery(params: URLSearchParams, statuses: readonly TeamStatus[]): TeamListQuery {
  const sort = (pick(params.get("sort"), TEAM_LIST_SORTS, "name") || "name") as TeamListSortKey;
  return {
    q: (params.get("q") ?? "").trim().slice(0, 100),
    status: pick(params.get("status"), statuses, ""),
    accountType: pick(params.get("accountType"), ALLOWED_TEAM_ACCOUNT_TYPES, ""),
    tag: (params.get("tag") ?? "").replace(/\s+/g, " ").trim().toLowerCase().slice(0, 40),
    sort,
    dir: params.get("dir") === "desc" ? "desc" : params.get("dir") === "asc" ? "asc" : sort === "name" ? "asc" : "desc",
    after: params.get("after") || null,
  };
}
