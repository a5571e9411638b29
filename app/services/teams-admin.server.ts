/**
 * Team management use cases (issue 3, section 1): the teams list, create and edit with a logo,
 * status changes. Routes authorize first; these functions scope again what they read and write.
 */
import { isStaleEdit } from "~/domain/edit-version";
import { auditActor } from "~/domain/operators";
import { randomBytes, randomUUID } from "node:crypto";
import { canSeeSensitive, effectiveTeamRole } from "~/domain/permissions";
import { conflict, fail, ok, type Result } from "~/domain/result";
import { foldText } from "~/domain/search";
import { checkLogo, parseTextList, teamIdFor } from "~/domain/team-form";
import { checkUploadedImage } from "~/services/media.server";
import { canChangeTeamStatus, canSeeTeam, listableTeamStatuses, MAX_BULK_TEAMS } from "~/domain/teams";
import type { Role, Team, TeamStatus, User } from "~/domain/types";
import { teamTags, type TeamListQuery, type TeamFormValue, TEAM_PAGE_SIZE } from "~/forms/teams";
import { AlreadyExistsError, ConflictError, type TeamInput } from "~/storage/port";
import { republishTeam } from "~/services/campaigns/campaigns.server";
import { saveUnlessEdited } from "~/services/save-unless-edited.server";
import { fileUrl, getFileStore } from "~/services/files.server";
import { getStorage } from "~/services/storage.server";
import { notifyTeamCreated } from "~/services/notifications.server";
import { getEnv } from "~/services/env.server";
import { currencyForLocale } from "~/domain/money";
import { totalsInOrder } from "~/domain/wallets/team-totals";

// ---------------------------------------------------------------------------------------------
// What the browser may know of a team

/** A team as a page shows it; tags and external_id only for operators and retailers. */
export function toTeamView(team: Team, user: User) {
  const sensitive = canSeeSensitive(user.claims);
  return {
    id: team.id,
    version: team.version,
    name: team.name,
    status: team.status,
    account_type: team.account_type,
    contact: team.contact,
    address: team.address,
    zip_code: team.zip_code,
    city: team.city,
    state: team.state,
    country: team.country,
    logoUrl: fileUrl(team.logo),
    associated_brands: team.associated_brands,
    marketplace_seller_id: team.marketplace_seller_id,
    tags: sensitive ? team.tags : null,
    external_id: sensitive ? team.external_id : null,
    walletCount: team.walletCount,
    totals: teamMoney(team),
    liveCampaigns: team.liveCampaigns,
    created: team.created,
    updated: team.updated,
  };
}
export type TeamView = ReturnType<typeof toTeamView>;

/** The user's role on a team: their claim role, or for a supplier the lower of claim and team role. */
export function roleOnTeam(user: User, teamId: string): Role | null {
  return effectiveTeamRole(user, teamId);
}

/**
 * A team's balance and credit per currency, the retailer's first (each wallet has one currency;
 * amounts of two are never added up), in cents; shown each in its own currency.
 */
function teamMoney(team: Team) {
  return totalsInOrder(team.totals, currencyForLocale(getEnv().RETAILER_CURRENCY_LOCALE));
}

function toTeamRow(team: Team, user: User) {
  return {
    id: team.id,
    name: team.name,
    status: team.status,
    account_type: team.account_type,
    tags: canSeeSensitive(user.claims) ? team.tags : null,
    role: roleOnTeam(user, team.id),
    liveCampaigns: team.liveCampaigns,
    walletCount: team.walletCount,
    totals: teamMoney(team),
  };
}
export type TeamRow = ReturnType<typeof toTeamRow>;

// ---------------------------------------------------------------------------------------------
// Lists

/** Extra store pages fetched to fill a page filtered by search and tag. */
const FILL_ROUNDS = 8;

export type TeamListResult = { ok: true; rows: TeamRow[]; next: string | null } | { ok: false; rows: []; next: null };

/** One page of teams and the cursor of the next. */
export interface TeamListPage {
  rows: TeamRow[];
  next: string | null;
}

/** One page of the /teams list for a team manager; 'Fetch teams' (unavailable) when storage fails. */
export async function listTeams(user: User, query: TeamListQuery): Promise<Result<TeamListPage>> {
  const listable = listableTeamStatuses(user.claims);
  const statuses: TeamStatus[] = query.status && listable.includes(query.status) ? [query.status] : ["active", "suspended"];
  const spec = {
    statuses,
    accountType: query.accountType || undefined,
    tag: query.tag || undefined,
    search: query.q || undefined,
    sort: query.sort,
    direction: query.dir,
    limit: TEAM_PAGE_SIZE,
  };
  const teams = getStorage().teams;
  try {
    let page = await teams.list({ ...spec, after: query.after }).catch((error) => {
      // A cursor that is not ours (edited by hand, or from another sort): the first page.
      if (error instanceof RangeError && query.after) return teams.list(spec);
      throw error;
    });
    // A search and a tag together: the repository checks the tag on the page (ADR 7), so a page
    // may come back short. Ask for the rest, a few times at most, never for more than fits, so
    // the cursor stays exact.
    const items = [...page.items];
    for (let round = 0; spec.search && spec.tag && page.next && items.length < TEAM_PAGE_SIZE && round < FILL_ROUNDS; round++) {
      page = await teams.list({ ...spec, limit: TEAM_PAGE_SIZE - items.length, after: page.next });
      items.push(...page.items);
    }
    const rows = items.filter((t) => canSeeTeam(user, t)).map((t) => toTeamRow(t, user));
    return ok({ rows, next: page.next });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "Fetch teams", error: error instanceof Error ? error.message : String(error) }));
    return fail("unavailable", "teams:errors.fetchTeams");
  }
}

/**
 * The dashboard's teams: the teams listing a supplier, or (retailers, operators) the active and
 * suspended teams, by name.
 */
export async function listDashboardTeams(user: User, after: string | null): Promise<TeamListResult> {
  try {
    if (user.claims.type === "supplier") {
      const teams = user.teamIds.length ? await getStorage().teams.getMany(user.teamIds) : [];
      const rows = teams
        .filter((t) => canSeeTeam(user, t))
        .sort((a, b) => a.nameLower.localeCompare(b.nameLower))
        .map((t) => toTeamRow(t, user));
      return { ok: true, rows, next: null };
    }
    const page = await listTeams(user, { q: "", status: "", accountType: "", tag: "", sort: "name", dir: "asc", after });
    return page.ok ? { ok: true, ...page.value } : { ok: false, rows: [], next: null };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "Fetch teams", error: error instanceof Error ? error.message : String(error) }));
    return { ok: false, rows: [], next: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Create and edit

/** The saved team, or why not (the reason is the message's key, on its field when it has one). */
export type SaveTeamResult = Result<Team>;

function teamInputFrom(value: TeamFormValue): Omit<TeamInput, "status" | "logo"> {
  return {
    name: value.name,
    account_type: value.account_type,
    contact: value.contact,
    address: value.address,
    zip_code: value.zip_code,
    city: value.city,
    state: value.state,
    country: value.country,
    tags: teamTags(value),
    associated_brands: parseTextList(value.associated_brands),
    marketplace_seller_id: value.marketplace_seller_id,
    external_id: value.external_id,
  };
}

type PreparedLogo = { ok: true; bytes: Uint8Array; extension: string } | { ok: false; reason: string };

async function prepareLogo(file: File): Promise<PreparedLogo> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = checkLogo(bytes);
  if (!checked.ok) return { ok: false, reason: `teams:validation.${checked.reason}` };
  // Whole, and no more pixels than a logo needs (app/domain/media.ts), read from the headers.
  const image = checkUploadedImage(bytes, checked.value.contentType, "logo");
  if (!image.ok) return { ok: false, reason: image.reason === "media:errors.imageTooLarge" ? "common:errors.logoTooManyPixels" : "common:errors.logoUnreadable" };
  return { ok: true, bytes, extension: checked.value.extension };
}

function logoKey(teamId: string, extension: string): string {
  return `teams/${teamId}/logo-${randomUUID()}.${extension}`;
}

const alreadyExists = () => fail("invalid", "teams:validation.alreadyExists", { field: "name" });

/** Creates an active team; the name must be unique (case- and accent-insensitive). */
export async function createTeam(user: User, value: TeamFormValue): Promise<SaveTeamResult> {
  let logo: PreparedLogo | null = null;
  if (value.logo) {
    logo = await prepareLogo(value.logo);
    if (!logo.ok) return fail("invalid", logo.reason, { field: "logo" });
  }
  const id = teamIdFor(foldText(value.name), randomBytes(4).readUInt32BE().toString(36).padStart(6, "0").slice(0, 6));
  const key = logo?.ok ? logoKey(id, logo.extension) : null;
  const files = getFileStore();
  if (key && logo?.ok) await files.put(key, logo.bytes);
  try {
    const team = await getStorage().teams.create({ ...teamInputFrom(value), status: "active", logo: key }, auditActor(user), id);
    await notifyTeamCreated(team, { actorId: user.id });
    return ok(team);
  } catch (error) {
    if (key) await files.delete(key);
    if (error instanceof AlreadyExistsError) return alreadyExists();
    throw error;
  }
}

/** Saves the details of a team the caller has already found visible; a stale version is a conflict. */
export async function updateTeam(
  user: User,
  team: Team,
  value: TeamFormValue & { version: number; removeLogo: boolean },
): Promise<SaveTeamResult> {
  let logo: PreparedLogo | null = null;
  if (value.logo) {
    logo = await prepareLogo(value.logo);
    if (!logo.ok) return fail("invalid", logo.reason, { field: "logo" });
  }
  // Balance totals and campaign counters raise the version too: only another edit makes this one
  // stale (ADR 42). Checked before a new logo is stored, then on each read by saveUnlessEdited.
  if (isStaleEdit(value.version, team)) return conflict();
  const files = getFileStore();
  const newKey = logo?.ok ? logoKey(team.id, logo.extension) : null;
  const nextLogo = newKey ?? (value.removeLogo ? null : team.logo);
  if (newKey && logo?.ok) await files.put(newKey, logo.bytes);
  try {
    const saved = await saveUnlessEdited({
      formVersion: value.version,
      read: team,
      reread: () => getStorage().teams.getOne(team.id),
      save: async (current) => {
        const saved = await getStorage().teams.update(team.id, { ...teamInputFrom(value), logo: nextLogo }, auditActor(user), { expectVersion: current.version });
        if (team.logo && team.logo !== nextLogo) await files.delete(team.logo);
        return ok(saved);
      },
    });
    if (!saved.ok && newKey) await files.delete(newKey);
    return saved;
  } catch (error) {
    if (newKey) await files.delete(newKey);
    if (error instanceof AlreadyExistsError) return alreadyExists();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Status changes

export type StatusChangeResult = Result<Team>;

/** Changes the status of one team (the caller has found it visible and confirmed the change). */
export async function changeTeamStatus(user: User, team: Team, to: TeamStatus, version: number): Promise<StatusChangeResult> {
  if (!canChangeTeamStatus(user.claims, team.status, to)) return fail("forbidden", "teams:errors.statusNotAllowed");
  // Balance totals and campaign counters raise the version too: only another edit makes this one stale (ADR 42).
  return saveUnlessEdited({
    formVersion: version,
    read: team,
    reread: () => getStorage().teams.getOne(team.id),
    save: async (current) => {
      const saved = await getStorage().teams.update(team.id, { status: to }, auditActor(user), { expectVersion: current.version });
      // A suspended or archived team's campaigns leave the ad server; restored, they come back.
      await republishTeam(saved);
      return ok(saved);
    },
  });
}

export interface StatusReview {
  status: TeamStatus;
  /** Visible teams asked for, with whether the change applies to each. */
  teams: { id: string; name: string; status: TeamStatus; applies: boolean }[];
}

/** What a change of status of several teams would do; teams the user may not see are left out. */
export async function reviewStatusChange(user: User, teamIds: readonly string[], to: TeamStatus): Promise<StatusReview> {
  const ids = [...new Set(teamIds)].slice(0, MAX_BULK_TEAMS);
  const teams = ids.length ? await getStorage().teams.getMany(ids) : [];
  return {
    status: to,
    teams: teams
      .filter((t) => canSeeTeam(user, t))
      .sort((a, b) => a.nameLower.localeCompare(b.nameLower))
      .map((t) => ({ id: t.id, name: t.name, status: t.status, applies: canChangeTeamStatus(user.claims, t.status, to) })),
  };
}

/** Applies a reviewed change; returns how many teams changed. */
export async function changeStatuses(user: User, teamIds: readonly string[], to: TeamStatus): Promise<number> {
  const review = await reviewStatusChange(user, teamIds, to);
  let changed = 0;
  for (const item of review.teams.filter((t) => t.applies)) {
    try {
      const saved = await getStorage().teams.update(item.id, { status: to }, auditActor(user));
      await republishTeam(saved);
      changed += 1;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  return changed;
}
