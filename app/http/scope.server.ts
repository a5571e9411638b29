/**
 * The records a route works on, scoped to the signed-in user: a use case's not-found becomes the
 * 404 that the route's error boundary shows (it does not reveal whether the record exists).
 */
import type { Team, User, Wallet } from "~/domain/types";
import { orThrow } from "~/http/reply.server";
import { findVisibleTeam } from "~/services/teams.server";
import { findTeamWallet } from "~/services/wallets.server";

export async function requireVisibleTeam(user: User, teamId: string | undefined): Promise<Team> {
  return orThrow(await findVisibleTeam(user, teamId));
}

export async function requireTeamWallet(team: Team, walletId: string | undefined): Promise<Wallet> {
  return orThrow(await findTeamWallet(team, walletId));
}
