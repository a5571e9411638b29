/** Realistic fixtures for tests. */
import type { Role, TeamData, UserData } from "~/domain/types";

let sequence = 0;

export type NewUserData = Omit<UserData, "emailLower" | "teamIds" | "created" | "updated">;

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

export function makeTeamData(
  overrides: Partial<Omit<TeamData, "nameLower" | "created" | "updated">> = {},
): Omit<TeamData, "nameLower" | "created" | "updated"> {
  sequence += 1;
  return { name: `Acme Brand ${sequence}`, status: "active", account_type: "brand", ...overrides };
}
