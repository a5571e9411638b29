/** Realistic fixtures for tests. */
import { createHash, randomUUID } from "node:crypto";
import { newCampaignData, type CampaignData, type NewCampaignInput } from "~/domain/campaigns/campaign";
import type { ProductInput } from "~/domain/catalog";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import type { Role } from "~/domain/types";
import { newTeamInput } from "~/services/seed.server";
import type { InvitationsRepo, NewUser, PostEntryInput, PublishedCampaign, TeamInput, WalletInput } from "~/storage/port";

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

/** The instant campaign factories are built at unless told (a Monday morning in Paris). */
export const CAMPAIGN_NOW = new Date("2025-06-02T07:30:00.000Z");
export const RETAILER_TIME_ZONE = "Europe/Paris";

/**
 * A campaign as CampaignsRepo.create takes it: a new draft of newCampaignData (the form's
 * defaults) for the team "team-brand-acme", starting on 2025-06-02 in Paris, with `overrides`
 * laid over it (a new name also gets its derived keys from the repository).
 */
export function makeCampaignData(
  overrides: Partial<CampaignData> & { input?: Partial<NewCampaignInput>; now?: Date; by?: string } = {},
): CampaignData {
  sequence += 1;
  const { input, now = CAMPAIGN_NOW, by = "editor@brand.example", ...fields } = overrides;
  const data = newCampaignData(
    {
      name: `Summer coffee ${sequence}`,
      startDay: "2025-06-02",
      team: { id: fields.team ?? "team-brand-acme", name: "Acme Brand", account_type: "brand" },
      ...input,
    },
    DEFAULT_RETAILER_SETTINGS,
    by,
    now,
    RETAILER_TIME_ZONE,
  );
  return { ...data, ...fields };
}

/** A catalog product as CatalogRepo.upsertMany takes it: an in-stock 1P coffee. */
export function makeProductInput(overrides: Partial<ProductInput & { id: string }> = {}): ProductInput & { id: string } {
  sequence += 1;
  const id = overrides.id ?? `SKU-T${String(sequence).padStart(6, "0")}`;
  return {
    id,
    title: `Acme Ground Coffee Classic 250 g ${sequence}`,
    image_link: `/images/products/${id}.svg`,
    link: `https://shop.example.com/p/${id}`,
    availability: "in stock",
    party: "1P",
    brand: "Acme",
    price: 499,
    stroke_price: null,
    categories: ["Grocery > Coffee"],
    ...overrides,
  };
}

/** What the campaign service would publish for an active campaign with these products. */
export function makePublishedCampaign(
  campaignId: string,
  productIds: string[],
  overrides: Partial<PublishedCampaign> = {},
): PublishedCampaign {
  return {
    campaignId,
    team: "team-brand-acme",
    wallet: "wallet-acme-main",
    campaignType: "sponsored-products",
    bidStrategy: "CPC",
    bid: 45,
    placementBids: { search: 60 },
    slots: { sp: ["search", "plp", "hub"], slider: ["pdp", "home"] },
    placements: ["search", "plp", "pdp", "hub", "home"],
    targeting: { devices: null, dayparting: null, capping: { enabled: true, type: "views", max: 5 }, timeZone: RETAILER_TIME_ZONE },
    creative: null,
    banners: {},
    productIds,
    pacing: { pacingTotal: 50_000, pacingDaily: null },
    startDate: "2025-06-01T22:00:00.000Z",
    endDate: null,
    published: "2025-06-02T08:00:00.000Z",
    ...overrides,
  };
}
