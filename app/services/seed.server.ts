/** Demo data, seeded once (idempotent). Demo data only: never set SEED_DEMO_DATA in production. */
import type { Claims, Role, UserData } from "~/domain/types";
import type { NewUser, Storage, TeamInput } from "~/storage/port";
import { seedDemoCatalog } from "~/services/catalog-seed.server";
import { hashPassword } from "~/services/passwords.server";

/** A team as its form gives it, with empty optional fields. */
export function newTeamInput(input: Pick<TeamInput, "name"> & Partial<TeamInput>): TeamInput {
  return {
    status: "active",
    account_type: "brand",
    contact: "",
    address: "",
    zip_code: "",
    city: "",
    state: "",
    country: "",
    logo: null,
    tags: [],
    associated_brands: [],
    marketplace_seller_id: "",
    external_id: "",
    ...input,
  };
}

export const DEMO_PASSWORD = "Demo-password-1";
export const DEMO_TEAM_ID = "acme-brand";

export const DEMO_USERS: { email: string; displayName: string; claims: Claims; teamRole?: Role }[] = [
  { email: "operator@example.com", displayName: "Olivia Operator", claims: { type: "operator", role: "ADMIN" } },
  { email: "retailer.admin@example.com", displayName: "Rachel Retailer", claims: { type: "retailer", role: "ADMIN" } },
  { email: "retailer.viewer@example.com", displayName: "Victor Viewer", claims: { type: "retailer", role: "VIEWER" } },
  { email: "supplier.admin@example.com", displayName: "Sam Supplier", claims: { type: "supplier", role: "ADMIN" }, teamRole: "ADMIN" },
  { email: "supplier.viewer@example.com", displayName: "Susan Supplier", claims: { type: "supplier", role: "VIEWER" }, teamRole: "VIEWER" },
];

export function newUserData(input: {
  email: string;
  displayName: string;
  claims: Claims;
  roleByTeam?: Record<string, Role>;
  passwordHash: string | null;
  status?: UserData["status"];
}): NewUser {
  const [firstname = "", ...rest] = input.displayName.split(" ");
  return {
    email: input.email,
    displayName: input.displayName,
    firstname,
    lastname: rest.join(" "),
    photoURL: null,
    locale: "en-GB",
    timezone: "Europe/Paris",
    status: input.status ?? "active",
    disabled: false,
    lastSignIn: null,
    claims: input.claims,
    roleByTeam: input.roleByTeam ?? {},
    notificationPrefs: { campaignStarts: true, campaignArchived: true, reportGenerated: true, walletsDepleting: true },
    preferences: { theme: "system", menuCollapsed: true, rtl: false },
    passwordHash: input.passwordHash,
    passwordHistory: [],
    sessionEpoch: 0,
    disconnected: false,
    last_auth: null,
    last_auth_method: null,
    auth_providers: [],
    last_refresh_token: null,
  };
}

/** Seeds what is missing; returns how many records it created. */
export async function seedDemoData(storage: Storage): Promise<number> {
  const actor = { by: "system" };
  let created = 0;
  if (!(await storage.teams.getOne(DEMO_TEAM_ID))) {
    await storage.teams.create(newTeamInput({ name: "Acme Brand", contact: "Sam Supplier", city: "Lyon", country: "FR", associated_brands: ["Acme"] }), actor, DEMO_TEAM_ID);
    created++;
  }
  await storage.config.get();
  for (const demo of DEMO_USERS) {
    if (await storage.users.getByEmail(demo.email)) continue;
    const user = await storage.users.create(
      {
        ...newUserData({
          email: demo.email,
          displayName: demo.displayName,
          claims: demo.claims,
          roleByTeam: demo.teamRole ? { [DEMO_TEAM_ID]: demo.teamRole } : {},
          passwordHash: await hashPassword(DEMO_PASSWORD),
        }),
        // The demo operator signs in as the README says, without a second factor (issue 12).
        ...(demo.claims.type === "operator" ? { secondFactorExempt: true } : {}),
      },
      actor,
    );
    // Their welcome, as an accepted invitation gives one (the notification centre is not empty).
    await storage.notifications.create({ userId: user.id, type: "welcome", values: { name: demo.displayName }, link: "/profile" }, new Date(), `welcome:${user.id}`);
    created++;
  }
  created += await seedDemoCatalog(storage);
  return created;
}
