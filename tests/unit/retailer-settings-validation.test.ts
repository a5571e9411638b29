/** The rules of the retailer settings screen: domain validators, then the form schema built on them. */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  checkBannerSize,
  checkBidBound,
  checkBidLimit,
  checkSlotName,
  checkSlotPlacements,
  checkStrategies,
  DEFAULT_RETAILER_SETTINGS as S,
  duplicateIndexes,
  validateRetailerSettings,
  type BidStrategy,
  type Placement,
  type RetailerSettings,
} from "~/domain/retailer-settings";
import {
  formatAmountInput,
  parseBidAmount,
  RetailerSettingsSchema,
  saveRetailerSettingsIntent,
  strategyOptions,
  toFormEntries,
  toFormValue,
} from "~/forms/retailer-settings";

const clone = (): RetailerSettings => structuredClone(S);

describe("checkBidBound: 0.01 to 1000", () => {
  it.each<[number, string | null]>([
    [0, "amount.tooLow"],
    [-5, "amount.tooLow"],
    [1, null],
    [15, null],
    [100_000, null],
    [100_001, "amount.tooHigh"],
    [1.5, "amount.tooLow"],
  ])("%d cents -> %s", (cents, reason) => {
    expect(checkBidBound(cents)).toBe(reason);
  });
});

describe("checkBidLimit", () => {
  it.each<[number | null, number | null, { field: string; reason: string }[]]>([
    [null, null, []],
    [15, 2_000, []],
    [100, 100, []],
    [1, 100_000, []],
    [15, null, [{ field: "max", reason: "bidLimit.incomplete" }]],
    [null, 2_000, [{ field: "min", reason: "bidLimit.incomplete" }]],
    [0, 2_000, [{ field: "min", reason: "amount.tooLow" }]],
    [15, 100_001, [{ field: "max", reason: "amount.tooHigh" }]],
    [0, 100_001, [{ field: "min", reason: "amount.tooLow" }, { field: "max", reason: "amount.tooHigh" }]],
    [2_001, 2_000, [{ field: "min", reason: "bidLimit.minAboveMax" }]],
  ])("min %s max %s -> %j", (min, max, issues) => {
    expect(checkBidLimit(min, max)).toEqual(issues);
  });
});

describe("checkStrategies", () => {
  it.each<[BidStrategy[], BidStrategy[], { field: string; reason: string }[]]>([
    [["CPM", "vCPM", "CPC"], ["CPC"], []],
    [["CPM"], [], []],
    [[], [], [{ field: "strategies", reason: "strategies.empty" }]],
    [["CPM", "vCPM"], ["CPC"], [{ field: "sellerStrategies", reason: "strategies.sellerNotAllowed" }]],
  ])("%j with sellers %j -> %j", (strategies, sellers, issues) => {
    expect(checkStrategies(strategies, sellers)).toEqual(issues);
  });
});

describe("names of slots and banner sizes", () => {
  it.each<[string, string | null]>([
    ["sp", null],
    ["slider", null],
    ["670x980", null],
    ["sd-brand", null],
    ["sd_video_h", null],
    ["", "slot.nameRequired"],
    ["-sp", "slot.nameInvalid"],
    ["__proto__", "slot.nameInvalid"],
    ["with space", "slot.nameInvalid"],
    ["a".repeat(40), null],
    ["a".repeat(41), "slot.nameInvalid"],
  ])("slot %j -> %s", (name, reason) => {
    expect(checkSlotName(name)).toBe(reason);
  });

  it.each<[string, string | null]>([
    ["670x980", null],
    ["1560x260", null],
    ["345x90", null],
    ["670X980", "bannerSize.invalid"],
    ["0x90", "bannerSize.invalid"],
    ["670 x 980", "bannerSize.invalid"],
    ["670", "bannerSize.invalid"],
    ["", "bannerSize.invalid"],
  ])("banner size %j -> %s", (size, reason) => {
    expect(checkBannerSize(size)).toBe(reason);
  });

  it.each<[Placement[], Placement[], string | null]>([
    [["search", "plp"], ["home", "search", "plp"], null],
    [[], ["home"], "noPlacement"],
    [["pdp"], ["home", "search", "plp"], "placementNotOfType"],
  ])("slot placements %j within %j -> %s", (placements, typePlacements, reason) => {
    expect(checkSlotPlacements(placements, typePlacements)).toBe(reason);
  });

  it("finds later duplicates, case-insensitively", () => {
    expect(duplicateIndexes(["sp", "slider", "SP", "x", "sp"])).toEqual([2, 4]);
    expect(duplicateIndexes([])).toEqual([]);
  });
});

describe("validateRetailerSettings", () => {
  it("accepts the spec's defaults", () => {
    expect(validateRetailerSettings(S)).toEqual([]);
  });

  it("reports each broken rule with its path", () => {
    const s = clone();
    s.enabledTypes = [];
    s.types["banner-ads"].strategies = [];
    s.types["sponsored-products"].bidLimits.CPC = { minCents: 3_000, maxCents: 2_000 };
    s.types["sponsored-products"].slots.slider = ["pdp", "home"];
    s.types["sponsored-products"].placements = ["search", "plp", "hub", "home"];
    s.bannerSizes["big"] = ["home"];
    s.storedBannerSizes = ["670x980", "670x980"];
    s.globalMinBidCents = 0;
    expect(validateRetailerSettings(s)).toEqual([
      { path: "enabledTypes", reason: "enabledTypes.empty" },
      { path: "types.sponsored-products.bidLimits.CPC.minCents", reason: "bidLimit.minAboveMax" },
      { path: "types.sponsored-products.slots.slider", reason: "slot.placementNotOfType" },
      { path: "types.banner-ads.strategies", reason: "strategies.empty" },
      { path: "bannerSizes.big", reason: "bannerSize.invalid" },
      { path: "storedBannerSizes.1", reason: "bannerSize.duplicate" },
      { path: "globalMinBidCents", reason: "amount.tooLow" },
    ]);
  });

  it("a null global minimum is allowed", () => {
    expect(validateRetailerSettings({ ...clone(), globalMinBidCents: null })).toEqual([]);
  });
});

describe("amounts typed in the form", () => {
  it.each<[string | undefined, number | null, string | null]>([
    [undefined, null, null],
    ["", null, null],
    ["0.15", 15, null],
    ["0,15", 15, null],
    ["1000", 100_000, null],
    ["1000.01", null, "amount.tooHigh"],
    ["0", null, "amount.tooLow"],
    ["0.001", null, "amount.invalid"],
    ["-1", null, "amount.tooLow"],
    ["abc", null, "amount.invalid"],
  ])("%j -> %s cents, %s", (raw, cents, reason) => {
    const parsed = parseBidAmount(raw);
    expect(parsed.reason).toBe(reason);
    if (!reason) expect(parsed.cents).toBe(cents);
  });

  it("shows cents the locale's way", () => {
    expect(formatAmountInput(15, "en-GB")).toBe("0.15");
    expect(formatAmountInput(15, "fr")).toBe("0,15");
    expect(formatAmountInput(100_000, "fr")).toBe("1000,00");
    expect(formatAmountInput(null, "en-GB")).toBe("");
  });

  it("lists the type's strategies first, in its order (the first is the fallback)", () => {
    expect(strategyOptions(S.types["sponsored-products"])).toEqual(["CPM", "vCPM", "CPC", "FIXED"]);
    expect(strategyOptions({ ...S.types["banner-ads"], strategies: ["vCPM"] })).toEqual(["vCPM", "CPC", "CPM", "FIXED"]);
  });
});

describe("the form schema", () => {
  function formData(settings: RetailerSettings, locale = "en-GB", edit?: (entries: [string, string][]) => [string, string][]) {
    let entries = toFormEntries({ intent: saveRetailerSettingsIntent, version: 3, ...toFormValue(settings, locale) });
    // A browser sends no value for an unticked checkbox: drop the "undefined" ones.
    entries = entries.filter(([, v]) => v !== "undefined");
    if (edit) entries = edit(entries);
    const fd = new FormData();
    for (const [k, v] of entries) fd.append(k, v);
    return fd;
  }
  const set = (name: string, value: string) => (entries: [string, string][]) =>
    entries.map(([k, v]): [string, string] => (k === name ? [k, value] : [k, v]));
  const parse = (fd: FormData) => parseWithZod(fd, { schema: RetailerSettingsSchema });
  const errorsOf = (submission: ReturnType<typeof parse>) => (submission.status === "error" ? submission.error : undefined);

  it.each(["en-GB", "fr"])("gives back the defaults unchanged (%s)", (locale) => {
    const submission = parse(formData(S, locale));
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value).toEqual({ version: 3, settings: S });
  });

  it("turns a limit typed in currency units into cents", () => {
    const submission = parse(formData(S, "en-GB", set("types.sponsored-products.limits.CPC.min", "0.25")));
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value.settings.types["sponsored-products"].bidLimits.CPC).toEqual({ minCents: 25, maxCents: 2_000 });
    }
  });

  it.each<[string, string, string, string]>([
    ["types.sponsored-products.limits.CPC.min", "30", "types.sponsored-products.limits.CPC.min", "retailer:errors.bidLimit.minAboveMax"],
    ["types.sponsored-products.limits.CPC.min", "0", "types.sponsored-products.limits.CPC.min", "retailer:errors.amount.tooLow"],
    ["types.banner-ads.limits.CPM.max", "1000.5", "types.banner-ads.limits.CPM.max", "retailer:errors.amount.tooHigh"],
    ["types.banner-ads.limits.CPM.max", "lots", "types.banner-ads.limits.CPM.max", "retailer:errors.amount.invalid"],
    ["types.banner-ads.limits.CPM.max", "", "types.banner-ads.limits.CPM.max", "retailer:errors.bidLimit.incomplete"],
    ["globalMinBid", "0", "globalMinBid", "retailer:errors.amount.tooLow"],
    ["types.sponsored-products.slots[0].name", "s p", "types.sponsored-products.slots[0].name", "retailer:errors.slot.nameInvalid"],
    ["types.sponsored-products.slots[1].name", "sp", "types.sponsored-products.slots[1].name", "retailer:errors.slot.duplicate"],
    ["bannerSizes[0].name", "big", "bannerSizes[0].name", "retailer:errors.bannerSize.invalid"],
    ["storedBannerSizes", "670x980, huge", "storedBannerSizes", "retailer:errors.bannerSize.invalid"],
  ])("%s = %j -> %s: %s", (name, value, field, message) => {
    const submission = parse(formData(S, "en-GB", set(name, value)));
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)?.[field]).toEqual([message]);
  });

  it("needs an enabled type, a strategy and a placement per type", () => {
    const submission = parse(
      formData(S, "en-GB", (entries) =>
        entries.filter(([k]) => k !== "enabledTypes" && k !== "types.banner-ads.strategies" && k !== "types.sponsored-products.placements"),
      ),
    );
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)?.enabledTypes).toEqual(["retailer:errors.enabledTypes.empty"]);
    expect(errorsOf(submission)?.["types.banner-ads.strategies"]).toEqual(["retailer:errors.strategies.empty"]);
    expect(errorsOf(submission)?.["types.sponsored-products.placements"]).toEqual(["retailer:errors.placements.empty"]);
  });

  it("refuses marketplace seller strategies the type does not allow", () => {
    const submission = parse(formData(S, "en-GB", (entries) => [...entries, ["types.banner-ads.sellerStrategies", "CPC"]]));
    expect(errorsOf(submission)?.["types.banner-ads.sellerStrategies"]).toEqual(["retailer:errors.strategies.sellerNotAllowed"]);
  });

  it("adds a slot from a blank row, drops blank rows and removes a ticked one", () => {
    const submission = parse(
      formData(S, "en-GB", (entries) => [
        ...set("types.sponsored-products.slots[2].name", "carousel")(entries),
        ["types.sponsored-products.slots[2].placements", "home"],
        ["types.sponsored-products.slots[1].remove", "on"],
      ]),
    );
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value.settings.types["sponsored-products"].slots).toEqual({ sp: ["search", "plp", "hub"], carousel: ["home"] });
    }
  });

  it("flags a slot whose placements are not the type's, and a placed row without a name", () => {
    const submission = parse(
      formData(S, "en-GB", (entries) => [
        ...entries,
        ["types.banner-ads.slots[0].placements", "pdp"],
        ["types.banner-ads.slots[5].placements", "home"],
      ]),
    );
    expect(errorsOf(submission)?.["types.banner-ads.slots[0].placements"]).toEqual(["retailer:errors.slot.placementNotOfType"]);
    expect(errorsOf(submission)?.["types.banner-ads.slots[5].name"]).toEqual(["retailer:errors.slot.nameRequired"]);
  });

  it("switches flags and moderation from their checkboxes", () => {
    const submission = parse(
      formData(S, "en-GB", (entries) => [
        ...entries.filter(([k]) => k !== "floorPrices"),
        ["types.banner-ads.moderation", "on"],
        ["lmRetailer", "on"],
      ]),
    );
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value.settings.floorPrices).toBe(false);
      expect(submission.value.settings.lmRetailer).toBe(true);
      expect(submission.value.settings.types["banner-ads"].moderation).toBe(true);
      expect(submission.value.settings.types["sponsored-products"].moderation).toBe(false);
    }
  });

  it("a blank global minimum means none", () => {
    const submission = parse(formData(S, "en-GB", set("globalMinBid", "")));
    expect(submission.status === "success" && submission.value.settings.globalMinBidCents).toBeNull();
  });
});
