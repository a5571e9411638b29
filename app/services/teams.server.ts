/** Team access shared by every team page: a team outside the user's scope answers 404. */
import { data } from "@remix-run/node";
import { canSeeTeam } from "~/domain/teams";
import type { Team, User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";

export async function getVisibleTeam(user: User, teamId: string): Promise<Team | null> {
  const team = await getStorage().teams.getOne(teamId);
  return team && canSeeTeam(user, team) ? team : null;
}

/** The team, or a 404 that does not reveal whether it exists. */
export async function requireVisibleTeam(user: User, teamId: string | undefined): Promise<Team> {
  const team = teamId ? await getVisibleTeam(user, teamId) : null;
  if (!team) throw data({ error: "errors.notFound" }, { status: 404 });
  return team;
}
