/**
 * Custom views of the campaign lists: a user keeps up to 10, each with a name of its own (names
 * compared folded: case and accents ignored). Storage keeps the user's view names on one document
 * and asks this rule inside the same transaction, so two tabs saving at once cannot pass it.
 */
import { foldText } from "~/domain/search";

export const MAX_CAMPAIGN_VIEWS = 10;

export type ViewRefusal = "campaignList:views.limit" | "campaignList:views.nameTaken";

/** Why a new view named `name` is refused beside the user's views (their folded names), or null. */
export function newViewRefusal(existingFoldedNames: readonly string[], name: string): ViewRefusal | null {
  if (existingFoldedNames.length >= MAX_CAMPAIGN_VIEWS) return "campaignList:views.limit";
  if (existingFoldedNames.includes(foldText(name.trim()))) return "campaignList:views.nameTaken";
  return null;
}
