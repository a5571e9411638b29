/**
 * Activity (/health) and a campaign's History in the reader's language: every field and every
 * key inside a recorded value has a translated label in en-GB and French (never a field name
 * made readable), internal user fields (password hashes, session epoch, second factor) are not
 * listed, team ids are shown as team names and stored words (a user's status) as the console
 * shows them elsewhere.
 */
import { presentAuditEntry, type AuditNames } from "~/domain/audit-view";
import type { AuditEntry } from "~/domain/types";
import { auditFieldLabelled, auditWords } from "~/services/audit.server";
import { getFixedT } from "~/services/i18n.server";

/** Fields and keys inside their values, as the demo and the console record them, per entity. */
const RECORDED: Record<string, string[]> = {
  campaign: [
    "banners", "bid", "bidStrategy", "campaignType", "capping", "capping.enabled", "capping.max", "capping.type", "created", "creative",
    "creative.aspect_ratio", "creative.auto_slide", "creative.background_image", "creative.brand", "creative.brand_image", "creative.elements",
    "creative.headline", "creative.href_link", "creative.text_link", "creative.video_file", "creative.video_in_loop", "creative.video_thumb",
    "dayparting", "devices", "endDate", "insufficient_funds", "lastUploadedVideo", "name", "offers", "offers.availability", "offers.image_link",
    "offers.on", "offers.party", "offers.pos", "offers.title", "pacingDaily", "pacingDevices", "pacingTotal", "placementBids", "placements",
    "productIds", "quick", "review", "selectedWallet", "selectedWallet.balance", "selectedWallet.credit", "selectedWallet.label",
    "selectedWallet.status", "slots", "slotsOff", "sourceId", "spend", "startDate", "status", "team", "teamInfo", "teamInfo.account_type",
    "teamInfo.name", "wallet",
  ],
  team: [
    "account_type", "address", "associated_brands", "balance", "city", "contact", "country", "created", "credit", "external_id", "liveCampaigns",
    "logo", "marketplace_seller_id", "name", "pending_review_campaigns", "state", "status", "tags", "totals", "walletCount", "zip_code",
  ],
  user: [
    "auth_providers", "claims", "claims.role", "claims.type", "created", "disabled", "disconnected", "displayName", "email", "firstname",
    "lastSignIn", "last_auth", "last_auth_method", "lastname", "locale", "notificationPrefs", "notificationPrefs.campaignArchived",
    "notificationPrefs.campaignStarts", "notificationPrefs.reportGenerated", "notificationPrefs.walletsDepleting", "photoURL", "preferences",
    "preferences.menuCollapsed", "preferences.rtl", "preferences.theme", "roleByTeam", "status", "teamIds", "timezone",
  ],
  wallet: [
    "balance", "balanceUpdated", "budgetEditing", "created", "credit", "currency", "dailyBudget", "debit", "entryCount", "external_id",
    "firstDebitAt", "firstSpendAt", "funded", "label", "spend", "status", "tags", "teamId", "todaySpend", "todaySpend.amount", "todaySpend.day",
  ],
};

const names: AuditNames = { teams: new Map([["acme-brand", "Acme Brand"]]), campaigns: new Map(), wallets: new Map(), users: new Map(), products: new Map() };

function userCreated(): AuditEntry {
  const after: Record<string, unknown> = {
    email: "sam@example.com", status: "active", teamIds: ["acme-brand"], roleByTeam: { "acme-brand": "ADMIN" },
    preferences: { theme: "dark" },
    passwordHash: "[redacted]", passwordHistory: "[redacted]", sessionEpoch: 0, secondFactorExempt: false, totpSecret: "[redacted]",
    recoveryCodeHashes: "[redacted]", totpLastStep: 12, last_refresh_token: "abc", emailLower: "sam@example.com", searchTokens: ["sam"],
  };
  return {
    id: "a1", version: 1, at: "2026-11-23T10:00:00.000Z", by: "system", action: "create", entity: "user", entityId: "u1", teamId: null,
    changes: Object.entries(after).map(([field, value]) => ({ field, before: null, after: value })),
  } as AuditEntry;
}

describe("Activity's words", () => {
  for (const locale of ["en-GB", "fr"]) {
    it(`labels every recorded field and key in ${locale}`, async () => {
      const t = await getFixedT(locale);
      const missing = Object.entries(RECORDED).flatMap(([entity, fields]) =>
        fields.filter((path) => {
          const [field, key] = path.split(".") as [string, string | undefined];
          return !auditFieldLabelled(t, entity, field, key);
        }).map((path) => `${entity}:${path}`),
      );
      expect(missing).toEqual([]);
    });

    it(`hides a user's internal fields and shows teams by name and the status as elsewhere, ${locale}`, async () => {
      const t = await getFixedT(locale);
      const view = presentAuditEntry(userCreated(), { locale, currency: "EUR", timeZone: "Europe/Paris" }, names, auditWords(t));
      expect(view.changes.map((c) => c.field).sort()).toEqual(["email", "preferences", "roleByTeam", "status", "teamIds"]);
      const shown = Object.fromEntries(view.changes.map((c) => [c.field, c.after.text]));
      expect(shown.teamIds).toBe("Acme Brand");
      expect(shown.status).toBe(t("users:statuses.active"));
      expect(shown.status).not.toBe("active");
      expect(shown.preferences).toContain(t("common:themes.dark"));
      expect(shown.preferences).not.toContain("dark");
    });
  }
});
