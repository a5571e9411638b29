import type { DocumentStore, Storage } from "../port";
import { createAuditRepo } from "./audit.server";
import { createLoginThrottleRepo, createPasswordResetRepo } from "./auth.server";
import { createConfigRepo } from "./config.server";
import { createTeamsRepo } from "./teams.server";
import { createUsersRepo } from "./users.server";
import { createCampaignsRepo } from "./campaigns.server";
import { createCampaignViewsRepo, createCatalogRepo } from "./catalog.server";
import { createPublicationRepo } from "./publication.server";
import { createInvitationsRepo } from "./invitations.server";
import { createLedgerRepo, createWalletsRepo } from "./wallets.server";

/** The repositories, the same code over whichever DocumentStore adapter is chosen. */
export function createStorage(documents: DocumentStore): Storage {
  return {
    documents,
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
  };
}
