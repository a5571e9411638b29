import { describe, expect, it } from "vitest";
import { MAX_CAMPAIGN_VIEWS, newViewRefusal } from "~/domain/campaigns/views";
import { foldText } from "~/domain/search";

describe("custom views: up to 10 per user, names their own", () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => foldText(`View ${i}`));

  it("accepts a new name below the limit", () => {
    expect(newViewRefusal(names(MAX_CAMPAIGN_VIEWS - 1), "Summer")).toBeNull();
  });

  it("refuses the eleventh view", () => {
    expect(newViewRefusal(names(10), "Summer")).toBe("campaignList:views.limit");
  });

  it("refuses a name the user already has, case and accents ignored", () => {
    expect(newViewRefusal([foldText("Été actif")], "  ETE ACTIF ")).toBe("campaignList:views.nameTaken");
  });
});
