import type { DocumentStore, Storage } from "~/storage/port";
import { createAuditRepo } from "~/storage/repos/audit.server";
import { createLoginThrottleRepo, createPasswordResetRepo } from "~/storage/repos/auth.server";
import { createConfigRepo } from "~/storage/repos/config.server";
import { createTeamsRepo } from "~/storage/repos/teams.server";
import { createUsersRepo } from "~/storage/repos/users.server";
import { createCampaignsRepo } from "~/storage/repos/campaigns.server";
import { createCampaignViewsRepo, createCatalogRepo } from "~/storage/repos/catalog.server";
import { createPublicationRepo } from "~/storage/repos/publication.server";
import { createInvitationsRepo } from "~/storage/repos/invitations.server";
import { createLedgerRepo, createWalletsRepo } from "~/storage/repos/wallets.server";
import { createSessionsRepo } from "~/storage/repos/sessions.server";
import { createSpendRepo } from "~/storage/repos/spend.server";
import { createSigningKeysRepo } from "~/storage/repos/signing-keys.server";
import { createJobsRepo } from "~/storage/repos/jobs.server";
import { createNotificationsRepo } from "~/storage/repos/notifications.server";
import { createSamlRepo } from "~/storage/repos/saml.server";
import { createReportsRepo } from "~/storage/repos/reports.server";
import { createTargetsRepo } from "~/storage/repos/targets.server";
import { createCatalogImportsRepo } from "~/storage/repos/catalog-imports.server";

/** The repositories, the same code over whichever DocumentStore adapter is chosen. */
export function createStorage(documents: DocumentStore): Storage {
  return {
    kind: documents.kind,
    close: () => documents.close(),
    users: createUsersRepo(documents),
    teams: createTeamsRepo(documents),
    wallets: createWalletsRepo(documents),
    ledger: createLedgerRepo(documents),
    invitations: createInvitationsRepo(documents),
    config: createConfigRepo(documents),
    audit: createAuditRepo(documents),
    passwordResets: createPasswordResetRepo(documents),
    loginThrottle: createLoginThrottleRepo(documents),
    campaigns: createCampaignsRepo(documents),
    publication: createPublicationRepo(documents),
    catalog: createCatalogRepo(documents),
    campaignViews: createCampaignViewsRepo(documents),
    sessions: createSessionsRepo(documents),
    spend: createSpendRepo(documents),
    signingKeys: createSigningKeysRepo(documents),
    jobs: createJobsRepo(documents),
    notifications: createNotificationsRepo(documents),
    saml: createSamlRepo(documents),
    reports: createReportsRepo(documents),
    targets: createTargetsRepo(documents),
    catalogImports: createCatalogImportsRepo(documents),
  };
}
