/**
 * The spec's campaign deep links (spec section 2; a bookmarked deep link must keep working). React Router cannot match a
 * partial segment, so the route matching the whole segment recognises the prefix and redirects to
 * the nested canonical page:
 *   /campaigns/team-{id}          -> /teams/{id}/campaigns
 *   /campaigns/new-{id}[/{type}]  -> /teams/{id}/campaigns/new/{type} (route name campaign-new)
 *   /campaigns/quick-{id}         -> /teams/{id}/campaigns/quick (the quick builder)
 * Campaign ids are UUIDs, so these prefixes never collide with one.
 */
import { DEFAULT_CAMPAIGN_TYPE } from "~/domain/retailer-settings";

export function campaignPrefixRedirect(segment: string, rest?: string | null): string | null {
  const match = /^(team|new|quick)-(.+)$/.exec(segment);
  if (!match) return null;
  const teamId = encodeURIComponent(match[2]!);
  switch (match[1]) {
    case "team":
      return `/teams/${teamId}/campaigns`;
    case "new":
      return `/teams/${teamId}/campaigns/new/${encodeURIComponent(rest || DEFAULT_CAMPAIGN_TYPE)}`;
    default:
      return `/teams/${teamId}/campaigns/quick`;
  }
}

/** The canonical creation URL for a team and campaign type. */
export function campaignNewPath(teamId: string, type: string): string {
  return `/teams/${encodeURIComponent(teamId)}/campaigns/new/${encodeURIComponent(type)}`;
}
