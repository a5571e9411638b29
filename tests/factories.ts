/** Realistic fixtures for tests. */
import { createHash, randomUUID } from "node:crypto";
import type { Role } from "~/domain/types";
import { newTeamInput } from "~/services/seed.server";
import type { InvitationsRepo, NewUser, PostEntryInput, TeamInput, WalletInput } from "~/storage/port";

let sequence = 0;

export type NewUserData = NewUser;

/** A user as UsersRepo.create takes it: an active retailer editor on one brand team. */
export function makeUserData(overrides: Partial<NewUserData> = {}): NewUserData {
  sequence += 1;
  const firstname = overrides.firstname ?? "Camille";
  const lastname = overrides.lastname ?? `Durand${sequence}`;
  const roleByTeam: Record<string, Role> = overrides.roleByTeam ?? { "team-brand-acme": "EDITOR" };
  return {
    email: `camille.durand${sequence}@retailer.example`,
    displayName: `${firstname} ${lastname}`,
    firstname,
    lastname,
    photoURL: null,
    locale: "fr-FR",
    timezone: "Europe/Paris",
    status: "active",
    disabled: false,
    lastSignIn: null,
    claims: { type: "retailer", role: "EDITOR" },
    roleByTeam,
    notificationPrefs: { campaignStarts: true, campaignArchived: false, reportGenerated: true, walletsDepleting: true },
    preferences: { theme: "system", menuCollapsed: false, rtl: false },
    passwordHash: "$scrypt$N=16384,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo",
    passwordHistory: [],
    sessionEpoch: 0,
    disconnected: true,
    last_auth: null,
    last_auth_method: null,
    auth_providers: [],
    last_refresh_token: null,
    ...overrides,
  };
}

export function makeTeamData(overrides: Partial<TeamInput> = {}): TeamInput {
  sequence += 1;
  return newTeamInput({ name: `Acme Brand ${sequence}`, ...overrides });
}

/** A wallet as WalletsRepo.create takes it: an active euro wallet without daily budget. */
export function makeWalletInput(overrides: Partial<WalletInput> = {}): WalletInput {
  sequence += 1;
  return {
    label: `Wallet ${sequence}`,
    currency: "EUR",
    status: "active",
    dailyBudget: null,
    budgetEditing: false,
    external_id: "",
    tags: [],
    ...overrides,
  };
}

/** A manual ledger posting (a credit of 100.00 by default) with a fresh idempotency key. */
export function makePosting(walletId: string, overrides: Partial<PostEntryInput> = {}): PostEntryInput {
  sequence += 1;
  return {
    walletId,
    type: "credit",
    amount: 10_000,
    reference: `PO-${sequence}`,
    comment: "Prepaid top-up",
    by: "finance@retailer.example",
    idempotencyKey: `form-${sequence}-${randomUUID()}`,
    ...overrides,
  };
}

/** An invitation as InvitationsRepo.create takes it: an editor, valid for 7 days from `now`. */
export function makeInvitationInput(
  teamId: string,
  now: Date,
  overrides: Partial<InvitationInput> = {},
): InvitationInput {
  sequence += 1;
  return {
    teamId,
    email: `invitee${sequence}@brand.example`,
    role: "EDITOR",
    tokenHash: tokenHashOf(`secret-${sequence}-${randomUUID()}`),
    expiresAt: new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000),
    ...overrides,
  };
}

export type InvitationInput = Parameters<InvitationsRepo["create"]>[0];

/** What the e-mailed link's secret is stored as. */
export function tokenHashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
