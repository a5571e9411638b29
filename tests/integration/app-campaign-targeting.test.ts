/**
 * The Targeting and the Banners and creative sections of the campaign editor, through their real
 * loaders and actions: the devices rule, capping, placements and slots (slotsOff), dayparting
 * saved and read back (and the quick fills without JS), banners per slot and when they count,
 * uploads judged from their bytes (a video longer than 20 s refused with the spec's message),
 * stale versions, and rights (a supplier viewer gets 403, an outsider 404).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { daypartPresetEntries } from "~/domain/campaigns/targeting";
import { daypartingEntries } from "~/domain/campaigns/dayparting";
import { makeTeamData } from "../factories";
import { buildMp4, buildPng } from "../fixtures/media/build-media";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  targeting: typeof import("~/routes/campaigns.$campaignId.targeting");
  creative: typeof import("~/routes/campaigns.$campaignId.creative");
  files: typeof import("~/routes/files.$");
};
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const media = (name: string) => new Uint8Array(fs.readFileSync(path.resolve(__dirname, "../fixtures/media", name)));
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;
const en = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en-GB/campaignTargeting.json"), "utf8"));
const campaignsEn = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en-GB/campaigns.json"), "utf8"));

let counter = 0;
/** Creates a draft through the creation form, as the given user; returns it. */
async function newCampaign(type: "banner-ads" | "sponsored-products" = "banner-ads", who = "supplier.admin"): Promise<Campaign> {
  return fresh(await createDraftThroughForm(routes.create.action, context, cookies[who], { team: TEAM, type, name: `Targeting test ${++counter} ${Date.now()}` }));
}

const sectionPath = (id: string, section: "targeting" | "creative") => `/campaigns/${id}/${section}`;
const loadTargeting = (who: string, id: string) =>
  call(() => routes.targeting.loader({ request: getRequest(sectionPath(id, "targeting"), { cookie: cookies[who] }), params: { campaignId: id }, context } as never));
const loadCreative = (who: string, id: string) =>
  call(() => routes.creative.loader({ request: getRequest(sectionPath(id, "creative"), { cookie: cookies[who] }), params: { campaignId: id }, context } as never));

type Entries = [string, string][];
function postTargeting(who: string, id: string, entries: Entries) {
  const body = new URLSearchParams(entries);
  const request = new Request(new URL(sectionPath(id, "targeting"), BASE_URL), {
    method: "POST",
    headers: { Cookie: cookies[who]!, "Content-Type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  return call(() => routes.targeting.action({ request, params: { campaignId: id }, context } as never));
}

function targetingForm(c: Campaign, overrides: Partial<Record<"devices" | "placements" | "slots" | "daypart", string[]>> & { capping?: Entries; version?: number } = {}): Entries {
  return [
    ["intent", "update-targeting"],
    ["version", String(overrides.version ?? c.version)],
    ...(overrides.devices ?? ["desktop", "mobile", "tablet", "unknown"]).map((d): [string, string] => ["devices", d]),
    ...(overrides.capping ?? [
      ["cappingEnabled", "on"],
      ["cappingType", "views"],
      ["cappingMax", "5"],
    ]),
    ...(overrides.placements ?? c.placements).map((p): [string, string] => ["placements", p]),
    ...(overrides.slots ?? c.slots).map((s): [string, string] => ["slots", s]),
    ...(overrides.daypart ?? daypartingEntries(null)).map((cell): [string, string] => ["daypart", cell]),
  ];
}

/** A multipart POST to the creative section (what a browser sends with or without JS). */
function postCreative(who: string, id: string, fields: Record<string, string | string[] | File | undefined>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  const request = new Request(new URL(sectionPath(id, "creative"), BASE_URL), { method: "POST", headers: { Cookie: cookies[who]! }, body });
  return call(() => routes.creative.action({ request, params: { campaignId: id }, context } as never));
}
const file = (bytes: Uint8Array, name: string, type: string) => new File([bytes as BlobPart], name, { type });

function creativeFields(c: Campaign, extra: Record<string, string | string[] | File | undefined> = {}) {
  return {
    intent: "update-creative",
    version: String(c.version),
    elements: ["video", "link"],
    aspectRatio: "16:9",
    textLink: "Shop the range",
    hrefLink: "https://shop.example/acme",
    ...extra,
  };
}

const filesOf = (id: string) => {
  const dir = path.join(app.dir, "files", "campaigns", id);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

beforeAll(async () => {
  app = await startApp();
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    targeting: await import("~/routes/campaigns.$campaignId.targeting"),
    creative: await import("~/routes/campaigns.$campaignId.creative"),
    files: await import("~/routes/files.$"),
  };
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

describe("devices", () => {
  it("saves a device filter only when some but not all 4 are chosen, and refuses none", async () => {
    const c = await newCampaign();
    expect(c.devices).toBeNull();

    let outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { devices: ["tablet", "desktop"] }));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(sectionPath(c.id, "targeting"));
    let saved = await fresh(c.id);
    expect(saved.devices).toEqual(["desktop", "tablet"]);
    expect((await loadTargeting("supplier.admin", c.id)).data.defaults.devices).toEqual(["desktop", "tablet"]);

    outcome = await postTargeting("supplier.admin", c.id, targetingForm(saved, { devices: ["desktop", "mobile", "tablet", "unknown"] }));
    expect(outcome.status).toBe(302);
    saved = await fresh(c.id);
    expect(saved.devices).toBeNull();
    expect((await loadTargeting("supplier.admin", c.id)).data.defaults.devices).toEqual(["desktop", "mobile", "tablet", "unknown"]);

    outcome = await postTargeting("supplier.admin", c.id, targetingForm(saved, { devices: [] }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.devices).toEqual(["campaignTargeting:errors.devicesEmpty"]);
    expect(en.errors.devicesEmpty).toBe("Choose at least one device.");
    expect((await fresh(c.id)).version).toBe(saved.version);
  });
});

describe("capping", () => {
  it("saves enabled, type and max, and refuses a max below 1", async () => {
    const c = await newCampaign();
    expect(c.capping).toEqual({ enabled: true, type: "views", max: 5 });
    const outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { capping: [["cappingEnabled", "on"], ["cappingType", "clicks"], ["cappingMax", "3"]] }));
    expect(outcome.status).toBe(302);
    let saved = await fresh(c.id);
    expect(saved.capping).toEqual({ enabled: true, type: "clicks", max: 3 });

    expect((await postTargeting("supplier.admin", c.id, targetingForm(saved, { capping: [["cappingType", "displays"], ["cappingMax", "12"]] }))).status).toBe(302);
    saved = await fresh(c.id);
    expect(saved.capping).toEqual({ enabled: false, type: "displays", max: 12 });
    const view = (await loadTargeting("supplier.admin", c.id)).data;
    expect(view.defaults).toMatchObject({ cappingEnabled: false, cappingType: "displays", cappingMax: "12" });

    const refused = await postTargeting("supplier.admin", c.id, targetingForm(saved, { capping: [["cappingEnabled", "on"], ["cappingType", "views"], ["cappingMax", "0"]] }));
    expect(refused.status).toBe(400);
    expect(refused.data.result.error.cappingMax).toEqual(["campaignTargeting:errors.cappingMax"]);
    expect((await fresh(c.id)).capping.max).toBe(12);
  });
});

describe("placements and slots", () => {
  it("offers the type's placements and slots from the retailer settings and saves the unticked slots as slotsOff", async () => {
    const c = await newCampaign("banner-ads");
    const view = (await loadTargeting("supplier.admin", c.id)).data;
    expect(view.placements).toEqual(["home", "search", "plp"]);
    expect(view.slots.map((s: { slot: string }) => s.slot)).toEqual(["670x980", "1560x260", "345x140", "345x90"]);
    expect(view.defaults.slots).toEqual(["670x980", "1560x260", "345x140", "345x90"]);

    const outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { placements: ["plp", "search"], slots: ["345x90", "670x980"] }));
    expect(outcome.status).toBe(302);
    const saved = await fresh(c.id);
    expect(saved.placements).toEqual(["search", "plp"]);
    expect(saved.slots).toEqual(["670x980", "345x90"]);
    expect(saved.slotsOff).toEqual(["1560x260", "345x140"]);
    expect((await loadTargeting("supplier.admin", c.id)).data.defaults).toMatchObject({ placements: ["search", "plp"], slots: ["670x980", "345x90"] });
  });

  it("refuses slots that serve none of the chosen placements, and slots or placements of another type", async () => {
    const c = await newCampaign("sponsored-products");
    let outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { placements: ["search"], slots: ["slider"] }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.slots).toEqual(["campaignTargeting:errors.noServedSlot"]);
    outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { slots: ["670x980"] }));
    expect(outcome.data.result.error.slots).toEqual(["campaignTargeting:errors.slotNotOfType"]);
    outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { placements: [] }));
    expect(outcome.data.result.error.placements).toEqual(["campaignTargeting:errors.placementsEmpty"]);
    expect((await fresh(c.id)).version).toBe(c.version);
  });
});

describe("dayparting", () => {
  it("saves the grid in the retailer's time zone and reads it back", async () => {
    const c = await newCampaign();
    const view = (await loadTargeting("supplier.admin", c.id)).data;
    expect(view.timeZone).toBe("Europe/Paris");
    expect(view.defaults.daypart).toHaveLength(168);
    expect(view.saved.dayparting).toBeNull();

    const cells = [...daypartPresetEntries("business"), "sat-10", "sat-11"];
    const outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { daypart: cells }));
    expect(outcome.status).toBe(302);
    const saved = await fresh(c.id);
    expect(saved.dayparting?.mon).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(saved.dayparting?.sat).toEqual([10, 11]);
    expect(saved.dayparting?.sun).toEqual([]);
    const back = (await loadTargeting("supplier.admin", c.id)).data;
    expect(back.defaults.daypart).toEqual(cells.filter((cell) => !cell.startsWith("sat")).concat(["sat-10", "sat-11"]));
    expect(back.saved.dayparting.totalHours).toBe(47);

    // Every cell again: no restriction, stored as null.
    expect((await postTargeting("supplier.admin", c.id, targetingForm(saved, { daypart: daypartingEntries(null) }))).status).toBe(302);
    expect((await fresh(c.id)).dayparting).toBeNull();
  });

  it("refuses an empty grid with its message", async () => {
    const c = await newCampaign();
    const outcome = await postTargeting("supplier.admin", c.id, targetingForm(c, { daypart: [] }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.daypart).toEqual(["campaignTargeting:errors.daypartingEmpty"]);
    expect((await fresh(c.id)).dayparting).toBeNull();
  });

  it("fills the grid without saving when a quick fill is posted (no JS), keeping the other fields as typed", async () => {
    const c = await newCampaign();
    const form = targetingForm(c, { devices: ["mobile"], daypart: ["mon-1"], capping: [["cappingType", "clicks"], ["cappingMax", "9"]] });
    const outcome = await postTargeting("supplier.admin", c.id, [...form, ["daypartPreset", "business"]]);
    expect(outcome.status).toBe(200);
    expect(outcome.data.preset).toBe("business");
    const initial = outcome.data.result.initialValue;
    expect(initial.daypart).toEqual(daypartPresetEntries("business"));
    expect(initial.devices).toBe("mobile");
    expect(initial.cappingMax).toBe("9");
    expect(outcome.data.result.error).toBeUndefined();
    const after = await fresh(c.id);
    expect(after.version).toBe(c.version);
    expect(after.devices).toBeNull();

    const cleared = await postTargeting("supplier.admin", c.id, [...form, ["daypartPreset", "none"]]);
    expect(cleared.status).toBe(200);
    expect(cleared.data.result.initialValue.daypart).toBeUndefined();
  });
});

describe("banners per slot", () => {
  it("counts a banner only when the slot is chosen and both the image and the link are present", async () => {
    const c = await newCampaign("banner-ads");
    let view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.takesBanners).toBe(true);
    expect(view.banners.map((b: { slot: string; requiredSize: string }) => [b.slot, b.requiredSize])).toEqual([
      ["670x980", "670x980"],
      ["1560x260", "1560x260"],
      ["345x140", "690x280"],
      ["345x90", "690x180"],
    ]);
    expect(view.countedCount).toBe(0);

    // An image without a link: stored, not counted.
    let outcome = await postCreative("supplier.admin", c.id, {
      intent: "update-banners",
      version: String(c.version),
      "image_670x980": file(media("banner-670x980.png"), "banner.png", "image/png"),
    });
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
    let saved = await fresh(c.id);
    expect(saved.banners["670x980"]?.image).toMatch(/^campaigns\/[^/]+\/banner-670x980-[0-9a-f-]+\.png$/);
    expect(saved.banners["670x980"]?.href_link).toBe("");
    view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.banners[0]).toMatchObject({ slot: "670x980", counted: false, gaps: ["linkMissing"] });
    expect(view.banners[0].imageUrl).toBe(`/files/${saved.banners["670x980"]!.image}`);
    expect(view.countedCount).toBe(0);

    // A link without an image on another slot: not counted either.
    outcome = await postCreative("supplier.admin", c.id, {
      intent: "update-banners",
      version: String(saved.version),
      "link_670x980": "https://shop.example/acme",
      "link_1560x260": "https://shop.example/acme-wide",
    });
    expect(outcome.status).toBe(302);
    saved = await fresh(c.id);
    view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.banners[0]).toMatchObject({ counted: true, gaps: [] });
    expect(view.banners[1]).toMatchObject({ slot: "1560x260", counted: false, gaps: ["imageMissing"] });
    expect(view.countedCount).toBe(1);
    // The image was kept when no new file was chosen.
    expect(saved.banners["670x980"]?.image).toBeTruthy();

    // The slot switched off in Targeting: the banner no longer counts.
    expect((await postTargeting("supplier.admin", c.id, targetingForm(saved, { slots: ["1560x260", "345x140", "345x90"] }))).status).toBe(302);
    view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.banners[0]).toMatchObject({ counted: false, gaps: ["slotOff"] });
    expect(view.countedCount).toBe(0);
  });

  it("refuses an image of the wrong size for its slot, storing nothing", async () => {
    const c = await newCampaign("banner-ads");
    const outcome = await postCreative("supplier.admin", c.id, {
      intent: "update-banners",
      version: String(c.version),
      "image_345x90": file(buildPng(345, 90), "small.png", "image/png"),
      "link_345x90": "https://shop.example",
    });
    expect(outcome.status).toBe(400);
    const [message] = outcome.data.result.error["image_345x90"];
    expect(message).toMatch(/^campaignTargeting:media\.bannerSize::/);
    expect(JSON.parse(message.split("::")[1])).toMatchObject({ width: 690, height: 180, actualWidth: 345, actualHeight: 90 });
    expect(outcome.data.result.error[""]).toEqual(["campaignTargeting:errors.filesNotSaved"]);
    expect((await fresh(c.id)).banners).toEqual({});
    expect(filesOf(c.id)).toEqual([]);
  });

  it("shows stored banners of slots no longer offered with the spec's message, and removes them", async () => {
    const c = await newCampaign("banner-ads");
    await storage().campaigns.update(c.id, { banners: { "300x250": { image: null, href_link: "https://shop.example/old" } } }, { by: "system" });
    const view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.unsupported).toEqual([{ slot: "300x250", imageUrl: null, link: "https://shop.example/old" }]);
    expect(en.banners.unsupported).toBe("This banner type is no longer supported at the moment");
    const saved = await fresh(c.id);
    const outcome = await postCreative("supplier.admin", c.id, { intent: "remove-banner", version: String(saved.version), slot: "300x250" });
    expect(outcome.status).toBe(302);
    expect((await fresh(c.id)).banners).toEqual({});
  });

  it("says banners are not supported on a sponsored-products campaign and refuses them", async () => {
    const c = await newCampaign("sponsored-products");
    const view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.takesBanners).toBe(false);
    expect(view.banners).toEqual([]);
    const outcome = await postCreative("supplier.admin", c.id, { intent: "update-banners", version: String(c.version), "link_670x980": "https://shop.example" });
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error[""]).toEqual(["campaignTargeting:banners.unsupported"]);
  });
});

describe("the creative", () => {
  it("refuses a video longer than 20 s with 'Video is longer than 20s', storing nothing", async () => {
    const c = await newCampaign();
    const outcome = await postCreative("supplier.admin", c.id, creativeFields(c, { video: file(media("video-25s-1280x720.mp4"), "long.mp4", "video/mp4") }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.video).toEqual(["campaigns:creative.videoTooLong"]);
    expect(campaignsEn.creative.videoTooLong).toBe("Video is longer than 20s");
    // The typed values come back; the file does not.
    expect(outcome.data.result.initialValue.textLink).toBe("Shop the range");
    expect(outcome.data.result.initialValue.video).toBeUndefined();
    const after = await fresh(c.id);
    expect(after.creative.video_file).toBeNull();
    expect(after.version).toBe(c.version);
    expect(filesOf(c.id)).toEqual([]);
  });

  it("refuses a long video even when its headers claim no duration", async () => {
    const c = await newCampaign();
    const sneaky = buildMp4({ timescale: 1000, duration: 30_000, width: 1920, height: 1080, samples: 30, hideHeaderDurations: true });
    const outcome = await postCreative("supplier.admin", c.id, creativeFields(c, { video: file(sneaky, "clip.mp4", "") }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.video).toEqual(["campaigns:creative.videoTooLong"]);
  });

  it("saves a short video with its poster, texts and options, serves them to the team, and reads them back", async () => {
    const c = await newCampaign();
    const outcome = await postCreative(
      "supplier.admin",
      c.id,
      creativeFields(c, {
        elements: ["brand", "video", "link"],
        brand: "Acme",
        videoInLoop: "on",
        autoSlide: "on",
        video: file(media("video-2s-1920x1080.mp4"), "clip.mp4", "video/mp4"),
        poster: file(media("image-160x90.jpg"), "poster.jpg", "image/jpeg"),
      }),
    );
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
    const saved = await fresh(c.id);
    expect(saved.creative).toMatchObject({
      elements: ["brand", "video", "link"],
      brand: "Acme",
      video_in_loop: true,
      auto_slide: true,
      aspect_ratio: "16:9",
      text_link: "Shop the range",
      href_link: "https://shop.example/acme",
    });
    expect(saved.creative.video_file).toMatch(/^campaigns\/.+\/video-.+\.mp4$/);
    expect(saved.creative.video_thumb).toMatch(/^campaigns\/.+\/poster-.+\.jpg$/);
    expect(saved.lastUploadedVideo).toBe(saved.creative.video_file);
    const view = (await loadCreative("supplier.admin", c.id)).data;
    expect(view.creative.videoUrl).toBe(`/files/${saved.creative.video_file}`);
    // The brand element lacks its image: 'Missing or Incomplete Ad Format' lists it.
    expect(view.creativeMissing).toEqual(["brand_image"]);

    const served = await call(() => routes.files.loader({ request: getRequest(view.creative.videoUrl, { cookie: cookies["supplier.viewer"] }), params: { "*": saved.creative.video_file }, context } as never));
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("video/mp4");

    // Choosing 9:16 while keeping the 16:9 video is refused.
    const ratio = await postCreative("supplier.admin", c.id, creativeFields(saved, { elements: ["video"], aspectRatio: "9:16" }));
    expect(ratio.status).toBe(400);
    expect(ratio.data.result.error.aspectRatio[0]).toMatch(/^campaignTargeting:errors\.storedVideoRatio/);

    // Removing the video clears it (and its last upload).
    const removed = await postCreative("supplier.admin", c.id, creativeFields(saved, { removeVideo: "on", removePoster: "on" }));
    expect(removed.status).toBe(302);
    const after = await fresh(c.id);
    expect(after.creative.video_file).toBeNull();
    expect(after.creative.video_thumb).toBeNull();
    expect(after.lastUploadedVideo).toBeNull();
  });

  it("refuses a video whose aspect ratio is not the creative's", async () => {
    const c = await newCampaign();
    const outcome = await postCreative("supplier.admin", c.id, creativeFields(c, { aspectRatio: "9:16", video: file(media("video-2s-1920x1080.mp4"), "clip.mp4", "video/mp4") }));
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.video[0]).toMatch(/^campaignTargeting:media\.aspectRatioMismatch/);
  });
});

describe("versions and rights", () => {
  it("refuses a save based on a stale version, keeping the input", async () => {
    const c = await newCampaign();
    expect((await postTargeting("supplier.admin", c.id, targetingForm(c, { devices: ["mobile"] }))).status).toBe(302);
    const stale = await postTargeting("retailer.admin", c.id, targetingForm(c, { devices: ["tablet"] }));
    expect(stale.status).toBe(409);
    expect(stale.data.result.error[""]).toEqual(["errors.conflict"]);
    expect(stale.data.result.initialValue.devices).toBe("tablet");
    expect((await fresh(c.id)).devices).toEqual(["mobile"]);
  });

  it("lets a supplier viewer read both sections but answers 403 to their saves, storing nothing", async () => {
    const c = await newCampaign();
    const targeting = await loadTargeting("supplier.viewer", c.id);
    expect(targeting.status).toBe(200);
    expect(targeting.data.canEdit).toBe(false);
    const creative = await loadCreative("supplier.viewer", c.id);
    expect(creative.status).toBe(200);
    expect(creative.data.canEdit).toBe(false);

    const save = await postTargeting("supplier.viewer", c.id, targetingForm(c, { devices: ["mobile"] }));
    expect(save.status).toBe(403);
    expect(save.thrown).toBe(true);
    const upload = await postCreative("supplier.viewer", c.id, creativeFields(c, { video: file(media("video-2s-1920x1080.mp4"), "clip.mp4", "video/mp4") }));
    expect(upload.status).toBe(403);
    const banner = await postCreative("supplier.viewer", c.id, { intent: "update-banners", version: String(c.version), "link_670x980": "https://shop.example" });
    expect(banner.status).toBe(403);
    const after = await fresh(c.id);
    expect(after.version).toBe(c.version);
    expect(filesOf(c.id)).toEqual([]);
    // A retailer viewer may read but not save either.
    expect((await postTargeting("retailer.viewer", c.id, targetingForm(c))).status).toBe(403);
  });

  it("answers 404 for a campaign of a team the supplier is not in", async () => {
    const other = await storage().teams.create(makeTeamData({ name: `Other brand ${Date.now()}` }), { by: "system" });
    const request = postRequest(`/teams/${other.id}/campaigns/new/banner-ads`, { intent: "create-campaign", name: "Elsewhere", startDay: "2030-01-01", campaignType: "banner-ads" }, { cookie: cookies["retailer.admin"] });
    const created = await call(() => routes.create.action({ request, params: { teamId: other.id, type: "banner-ads" }, context } as never));
    const id = created.location!.split("/").pop()!;
    expect((await loadTargeting("supplier.admin", id)).status).toBe(404);
    expect((await loadCreative("supplier.admin", id)).status).toBe(404);
    expect((await postTargeting("supplier.admin", id, targetingForm(await fresh(id)))).status).toBe(404);
    expect((await loadTargeting("retailer.admin", id)).status).toBe(200);
  });
});
