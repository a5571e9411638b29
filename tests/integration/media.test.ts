/**
 * Media measurement on real bytes (mp4box for MP4, image-size for pictures), campaign assets
 * stored through the files store, and /files/campaigns/… served only to those who may see the
 * campaign's team.
 */
import fs from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { unstable_parseMultipartFormData as parseMultipartFormData } from "@remix-run/node";
import * as MP4Box from "mp4box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { checkVideo, VIDEO_TOO_LONG } from "~/domain/media";
import { makeTeamData } from "../factories";
import { buildMp4, buildPng, withExifOrientation } from "../fixtures/media/build-media";
import { args, BASE_URL, call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

const FIXTURES = path.resolve(__dirname, "../fixtures/media");
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
const text = (value: string) => new TextEncoder().encode(value);

let app: TestApp;
let media: typeof import("~/services/media.server");
let files: typeof import("~/services/files.server");
let route: typeof import("~/routes/files.$");
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  media = await import("~/services/media.server");
  files = await import("~/services/files.server");
  route = await import("~/routes/files.$");
  for (const email of ["operator@example.com", "retailer.viewer@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

/** A fragmented MP4 written by mp4box's own writer: moov without durations, then one moof per sample. */
function fragmentedMp4(seconds: number, width: number, height: number): Uint8Array {
  const file = MP4Box.createFile();
  const id = file.addTrack({ type: "avc1", width, height, timescale: 1000, avcDecoderConfigRecord: new Uint8Array([1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0]).buffer });
  for (let i = 0; i < seconds; i++) file.addSample(id, new Uint8Array(8), { duration: 1000, is_sync: i === 0 });
  const stream = file.getBuffer();
  return new Uint8Array(stream.buffer, 0, stream.byteLength).slice();
}

describe("measureVideo", () => {
  it("works on the committed fixtures, which are what build-media.ts writes", () => {
    expect(fixture("video-2s-1920x1080.mp4")).toEqual(buildMp4({ timescale: 600, duration: 1200, width: 1920, height: 1080, samples: 10 }));
    expect(fixture("video-25s-1280x720.mp4")).toEqual(buildMp4({ timescale: 90000, duration: 25 * 90000, width: 1280, height: 720, samples: 25 }));
    expect(fixture("banner-670x980.png")).toEqual(buildPng(670, 980));
  });

  it("reads a 2 s MP4's duration and size from its boxes, and the rules accept it", () => {
    const measured = media.measureVideo(fixture("video-2s-1920x1080.mp4"), "video/mp4");
    expect(measured).toEqual({ ok: true, mime: "video/mp4", durationSeconds: 2, width: 1920, height: 1080 });
    if (measured.ok) expect(checkVideo(measured)).toEqual({ ok: true, value: "16:9" });
  });

  it("measures a 25 s MP4 as 25 s, refused with 'Video is longer than 20s'", () => {
    const measured = media.measureVideo(fixture("video-25s-1280x720.mp4"), "video/mp4");
    expect(measured).toEqual({ ok: true, mime: "video/mp4", durationSeconds: 25, width: 1280, height: 720 });
    if (measured.ok) expect(checkVideo(measured)).toEqual({ ok: false, reason: VIDEO_TOO_LONG });
    const en = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en-GB/campaigns.json"), "utf8"));
    expect(en.creative.videoTooLong).toBe("Video is longer than 20s");
  });

  it("reads the timescale of the file, not a fixed one", () => {
    const measured = media.measureVideo(buildMp4({ timescale: 30_000, duration: 30_000 * 21, width: 1280, height: 720, samples: 21 }), "");
    expect(measured).toMatchObject({ ok: true, durationSeconds: 21 });
  });

  it("does not let a file pass by writing 0 as its header durations", () => {
    const bytes = buildMp4({ timescale: 1000, duration: 25_000, width: 1280, height: 720, samples: 10, hideHeaderDurations: true });
    expect(media.measureVideo(bytes, "video/mp4")).toMatchObject({ ok: true, durationSeconds: 25 });
  });

  it("reads a fragmented MP4 (mp4box's writer) to its last fragment", () => {
    expect(media.measureVideo(fragmentedMp4(25, 1080, 1920), "video/mp4")).toEqual({ ok: true, mime: "video/mp4", durationSeconds: 25, width: 1080, height: 1920 });
    expect(media.measureVideo(fragmentedMp4(3, 1080, 1920), "video/mp4")).toMatchObject({ ok: true, durationSeconds: 3 });
  });

  it("turns the size of a video recorded in portrait (90 degree matrix)", () => {
    const bytes = buildMp4({ timescale: 600, duration: 1200, width: 1920, height: 1080, rotation: 90 });
    expect(media.measureVideo(bytes, "video/mp4")).toMatchObject({ ok: true, width: 1080, height: 1920 });
    const upsideDown = buildMp4({ timescale: 600, duration: 1200, width: 1920, height: 1080, rotation: 180 });
    expect(media.measureVideo(upsideDown, "video/mp4")).toMatchObject({ ok: true, width: 1920, height: 1080 });
  });

  it("refuses, at once and without the memory to hold them, sample tables claiming more than the file holds", () => {
    const valid = fixture("video-2s-1920x1080.mp4");
    /** The file with one field of its first `box` rewritten (offset from the box's type). */
    const forged = (box: string, offset: number, value: number) => {
      const bytes = valid.slice();
      const at = Buffer.from(bytes).indexOf(box, 0, "latin1");
      new DataView(bytes.buffer).setUint32(at + offset, value);
      return bytes;
    };
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    for (const bytes of [
      forged("stsz", 12, 0xffffffff), // 4,294,967,295 samples of 16 bytes (the probe's 732-byte crash)
      forged("stsz", 12, 1_000_000), // a million samples in a file of a few hundred bytes
      (() => {
        const b = forged("stsz", 8, 0); // sizes in a table...
        new DataView(b.buffer).setUint32(Buffer.from(b).indexOf("stsz", 0, "latin1") + 12, 50_000); // ...of 50,000 entries it does not have
        return b;
      })(),
      forged("stts", 8, 0x0fffffff), // a time-to-sample table of 268 million entries
      forged("stts", 12, 0xffffffff), // one entry covering 4 billion samples
      forged("stco", 8, 0x40000000), // a billion chunk offsets
    ]) {
      expect(media.measureVideo(bytes, "video/mp4")).toEqual({ ok: false, reason: "media:errors.unreadableVideo" });
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    // The files as written still pass.
    expect(media.measureVideo(valid, "video/mp4")).toMatchObject({ ok: true, durationSeconds: 2 });
  });

  it.each([
    ["text named .mp4", fixture("not-a-video.mp4"), "video/mp4", "media:errors.unreadableVideo"],
    ["text of no declared type", fixture("not-a-video.mp4"), "", "media:errors.unsupportedVideoType"],
    ["an MP4 cut before its moov ends", fixture("video-2s-1920x1080.mp4").subarray(0, 200), "video/mp4", "media:errors.unreadableVideo"],
    ["a WebM file", new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), "video/webm", "media:errors.unsupportedVideoType"],
    ["a QuickTime file", new Uint8Array([0, 0, 0, 20, ...text("ftypqt  "), 0, 0, 2, 0, ...text("qt  ")]), "video/quicktime", "media:errors.unsupportedVideoType"],
    ["a PNG", fixture("banner-670x980.png"), "image/png", "media:errors.unsupportedVideoType"],
    ["an MP4 declared as a PNG", fixture("video-2s-1920x1080.mp4"), "image/png", "media:errors.typeMismatch"],
    ["an MP4 with sound only", buildMp4({ timescale: 600, duration: 1200, width: 0, height: 0, handler: "soun" }), "video/mp4", "media:errors.noVideoTrack"],
    ["an empty file", new Uint8Array(), "video/mp4", "media:errors.empty"],
  ])("refuses %s", (_name, bytes, mime, reason) => {
    expect(media.measureVideo(bytes, mime)).toEqual({ ok: false, reason });
  });
});

describe("measureImage", () => {
  it.each([
    ["banner-670x980.png", "image/png", 670, 980],
    ["image-160x90.jpg", "image/jpeg", 160, 90],
    ["image-90x160.webp", "image/webp", 90, 160],
    ["image-32x18.gif", "image/gif", 32, 18],
  ])("reads the size of %s", (name, mime, width, height) => {
    expect(media.measureImage(fixture(name), mime)).toEqual({ ok: true, mime, width, height });
    // Without a declared type (no JS, unknown extension) the content decides.
    expect(media.measureImage(fixture(name), "application/octet-stream")).toEqual({ ok: true, mime, width, height });
  });

  it("swaps the sides of a JPEG whose EXIF orientation turns it", () => {
    const turned = withExifOrientation(fixture("image-160x90.jpg"), 6);
    expect(media.measureImage(turned, "image/jpeg")).toEqual({ ok: true, mime: "image/jpeg", width: 90, height: 160 });
  });

  it("measures an SVG (which uploads refuse)", () => {
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"></svg>');
    expect(media.measureImage(svg, "image/svg+xml")).toEqual({ ok: true, mime: "image/svg+xml", width: 300, height: 150 });
  });

  it.each([
    ["text named .png", text("not an image at all"), "image/png", "media:errors.unreadableImage"],
    ["text", text("not an image at all"), "text/plain", "media:errors.unsupportedImageType"],
    ["a PNG declared as a JPEG", fixture("banner-670x980.png"), "image/jpeg", "media:errors.typeMismatch"],
    ["a PNG cut after its signature", fixture("banner-670x980.png").subarray(0, 12), "image/png", "media:errors.unreadableImage"],
    ["an MP4", fixture("video-2s-1920x1080.mp4"), "video/mp4", "media:errors.unsupportedImageType"],
  ])("refuses %s", (_name, bytes, mime, reason) => {
    expect(media.measureImage(bytes, mime)).toEqual({ ok: false, reason });
  });
});

describe("campaign assets", () => {
  let campaign: Campaign;
  let otherCampaign: Campaign;
  const storage = () => app.m.storageIndex.getStorage();
  const filesOf = (campaignId: string) => {
    const dir = path.join(app.dir, "files", "campaigns", campaignId);
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  };
  const asFile = (bytes: Uint8Array, name: string, type: string) => new File([bytes as BlobPart], name, { type });
  const fetchFile = (key: string, cookie: string | undefined, headers: Record<string, string> = {}) =>
    call(() => route.loader({ ...args(getRequest(`/files/${key}`, { cookie, headers: { ...headers } })), params: { "*": key } } as never));

  async function newCampaign(teamId: string, name: string): Promise<Campaign> {
    const { newCampaignData } = await import("~/domain/campaigns/campaign");
    const { DEFAULT_RETAILER_SETTINGS } = await import("~/domain/retailer-settings");
    const team = (await storage().teams.getOne(teamId))!;
    const data = newCampaignData(
      { name, campaignType: "banner-ads", team: { id: team.id, name: team.name, account_type: team.account_type } },
      DEFAULT_RETAILER_SETTINGS,
      "test@example.com",
      new Date(),
      "Europe/Paris",
    );
    return storage().campaigns.create(data, { by: "test@example.com" });
  }

  beforeAll(async () => {
    campaign = await newCampaign("acme-brand", `Media ${Date.now()}`);
    const other = await storage().teams.create(makeTeamData({ name: `Media Other ${Date.now()}` }), { by: "system" });
    otherCampaign = await newCampaign(other.id, `Media Other ${Date.now()}`);
  });

  it("stores a banner of its slot's size and serves it with its type", async () => {
    const saved = await files.saveCampaignAsset(campaign.id, "banner", asFile(fixture("banner-670x980.png"), "b.png", "image/png"), { slot: "670x980" });
    expect(saved).toMatchObject({ ok: true, kind: "banner", mime: "image/png", width: 670, height: 980 });
    if (!saved.ok) return;
    expect(saved.key).toMatch(new RegExp(`^campaigns/${campaign.id}/banner-670x980-[0-9a-f-]+\\.png$`));
    expect(saved.url).toBe(`/files/${saved.key}`);
    expect(filesOf(campaign.id)).toEqual([path.basename(saved.key)]);

    const served = await fetchFile(saved.key, cookies.operator);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");

    await files.deleteCampaignAsset(campaign.id, saved.key);
    expect(filesOf(campaign.id)).toEqual([]);
  });

  it("refuses a banner of another size, or for a slot that takes none, storing nothing", async () => {
    const png = asFile(fixture("banner-670x980.png"), "b.png", "image/png");
    expect(await files.saveCampaignAsset(campaign.id, "banner", png, { slot: "1560x260" })).toEqual({
      ok: false,
      reason: "media:errors.bannerSize",
      values: { slot: "1560x260", width: 1560, height: 260, actualWidth: 670, actualHeight: 980 },
    });
    expect(await files.saveCampaignAsset(campaign.id, "banner", png, { slot: "sp" })).toMatchObject({ ok: false, reason: "media:errors.unknownSlot" });
    const small = asFile(buildPng(690, 280), "s.png", "image/png");
    expect(await files.saveCampaignAsset(campaign.id, "banner", small, { slot: "345x140" })).toMatchObject({ ok: true, width: 690, height: 280 });
    expect(filesOf(campaign.id)).toHaveLength(1);
    for (const name of filesOf(campaign.id)) await files.deleteCampaignAsset(campaign.id, `campaigns/${campaign.id}/${name}`);
  });

  it("accepts a 2 s video and refuses a 25 s one with the spec's message", async () => {
    const short = await files.saveCampaignAsset(campaign.id, "video", asFile(fixture("video-2s-1920x1080.mp4"), "ad.mp4", "video/mp4"), { aspectRatio: "16:9" });
    expect(short).toMatchObject({ ok: true, mime: "video/mp4", durationSeconds: 2, width: 1920, height: 1080, aspectRatio: "16:9" });
    expect(short.ok && short.key).toMatch(/\/video-[0-9a-f-]+\.mp4$/);

    const before = filesOf(campaign.id);
    const long = await files.saveCampaignAsset(campaign.id, "video", asFile(fixture("video-25s-1280x720.mp4"), "long.mp4", "video/mp4"));
    expect(long).toEqual({ ok: false, reason: "campaigns:creative.videoTooLong" });
    const junk = await files.saveCampaignAsset(campaign.id, "video", asFile(fixture("not-a-video.mp4"), "junk.mp4", "video/mp4"));
    expect(junk).toEqual({ ok: false, reason: "media:errors.unreadableVideo" });
    const portrait = await files.saveCampaignAsset(campaign.id, "video", asFile(fixture("video-2s-1920x1080.mp4"), "ad.mp4", "video/mp4"), { aspectRatio: "9:16" });
    expect(portrait).toEqual({ ok: false, reason: "media:errors.aspectRatioMismatch", values: { actual: "16:9", expected: "9:16" } });
    expect(filesOf(campaign.id)).toEqual(before);
  });

  it("serves a video in byte ranges, as <video> asks for it", async () => {
    const saved = await files.saveCampaignAsset(campaign.id, "video", asFile(fixture("video-2s-1920x1080.mp4"), "ad.mp4", "video/mp4"));
    if (!saved.ok) throw new Error(saved.reason);
    const size = fixture("video-2s-1920x1080.mp4").byteLength;

    const whole = (await route.loader({ ...args(getRequest(`/files/${saved.key}`, { cookie: cookies.operator })), params: { "*": saved.key } } as never)) as Response;
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("video/mp4");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(fixture("video-2s-1920x1080.mp4"));

    const part = (await route.loader({ ...args(getRequest(`/files/${saved.key}`, { cookie: cookies.operator, headers: { Range: "bytes=4-11" } })), params: { "*": saved.key } } as never)) as Response;
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 4-11/${size}`);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe("ftypisom");

    const outside = await fetchFile(saved.key, cookies.operator, { Range: `bytes=${size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("Content-Range")).toBe(`bytes */${size}`);
  });

  it("checks posters, brand and background images as pictures", async () => {
    const jpeg = asFile(fixture("image-160x90.jpg"), "p.jpg", "image/jpeg");
    expect(await files.saveCampaignAsset(campaign.id, "poster", jpeg, { aspectRatio: "16:9" })).toMatchObject({ ok: true, mime: "image/jpeg", aspectRatio: "16:9" });
    expect(await files.saveCampaignAsset(campaign.id, "poster", jpeg, { aspectRatio: "9:16" })).toMatchObject({ ok: false, reason: "media:errors.aspectRatioMismatch" });
    const gif = asFile(fixture("image-32x18.gif"), "g.gif", "image/gif");
    expect(await files.saveCampaignAsset(campaign.id, "background_image", gif)).toMatchObject({ ok: true, mime: "image/gif" });
    const webp = asFile(fixture("image-90x160.webp"), "w.webp", "image/webp");
    const brand = await files.saveCampaignAsset(campaign.id, "brand_image", webp);
    expect(brand).toMatchObject({ ok: true, mime: "image/webp" });
    expect(brand.ok && brand.key).toMatch(/\/brand_image-[0-9a-f-]+\.webp$/);

    const svg = asFile(text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), "x.svg", "image/svg+xml");
    expect(await files.saveCampaignAsset(campaign.id, "brand_image", svg)).toEqual({ ok: false, reason: "media:errors.unsupportedImageType" });
    const video = asFile(fixture("video-2s-1920x1080.mp4"), "v.mp4", "video/mp4");
    expect(await files.saveCampaignAsset(campaign.id, "background_image", video)).toEqual({ ok: false, reason: "media:errors.unsupportedImageType" });
    const big = asFile(new Uint8Array(5 * 1024 * 1024 + 1), "big.png", "image/png");
    expect(await files.saveCampaignAsset(campaign.id, "brand_image", big)).toEqual({ ok: false, reason: "media:errors.tooLarge", values: { maxMegabytes: 5 } });
  });

  it("serves campaign files only to users who may see the campaign's team", async () => {
    const mine = await files.saveCampaignAsset(campaign.id, "brand_image", asFile(fixture("image-32x18.gif"), "g.gif", "image/gif"));
    const theirs = await files.saveCampaignAsset(otherCampaign.id, "brand_image", asFile(fixture("image-32x18.gif"), "g.gif", "image/gif"));
    if (!mine.ok || !theirs.ok) throw new Error("not saved");

    // acme-brand's supplier viewer sees acme-brand's campaign files, not another team's.
    expect((await fetchFile(mine.key, cookies["supplier.viewer"])).status).toBe(200);
    expect((await fetchFile(theirs.key, cookies["supplier.viewer"])).status).toBe(404);
    // Retailers and operators see every team.
    expect((await fetchFile(theirs.key, cookies["retailer.viewer"])).status).toBe(200);
    expect((await fetchFile(theirs.key, cookies.operator)).status).toBe(200);
    // No session: the sign-in page.
    const anonymous = await fetchFile(mine.key, undefined);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login\?to=/);
    // Unknown campaign, missing file, a key outside the known folders.
    expect((await fetchFile(`campaigns/no-such-campaign/brand_image-x.gif`, cookies.operator)).status).toBe(404);
    expect((await fetchFile(`campaigns/${campaign.id}/nothing.gif`, cookies.operator)).status).toBe(404);
    expect((await fetchFile(`campaigns/../console.db`, cookies.operator)).status).toBe(404);
    expect((await fetchFile(`other/${campaign.id}/x.gif`, cookies.operator)).status).toBe(404);

    // A deleted draft may have been duplicated (the copy shares its files): its files stay readable
    // by those who see its team, from the copy kept in deleted campaigns.
    const doomed = await newCampaign("acme-brand", `Media Doomed ${Date.now()}`);
    const doomedFile = await files.saveCampaignAsset(doomed.id, "brand_image", asFile(fixture("image-32x18.gif"), "g.gif", "image/gif"));
    if (!doomedFile.ok) throw new Error("not saved");
    expect((await fetchFile(doomedFile.key, cookies.operator)).status).toBe(200);
    await storage().campaigns.delete(doomed.id, { by: "test@example.com" }, new Date());
    expect((await fetchFile(doomedFile.key, cookies.operator)).status).toBe(200);
    expect((await fetchFile(doomedFile.key, cookies["supplier.viewer"])).status).toBe(200);
    const theirsDoomed = await newCampaign(otherCampaign.team, `Media Doomed Other ${Date.now()}`);
    const theirsFile = await files.saveCampaignAsset(theirsDoomed.id, "brand_image", asFile(fixture("image-32x18.gif"), "g.gif", "image/gif"));
    if (!theirsFile.ok) throw new Error("not saved");
    await storage().campaigns.delete(theirsDoomed.id, { by: "test@example.com" }, new Date());
    expect((await fetchFile(theirsFile.key, cookies["supplier.viewer"])).status).toBe(404);
  });

  it("deletes only the campaign's own files", async () => {
    const logoKey = "teams/acme-brand/logo-keep.png";
    await files.getFileStore().put(logoKey, fixture("banner-670x980.png"));
    await files.deleteCampaignAsset(campaign.id, logoKey);
    const theirs = await files.saveCampaignAsset(otherCampaign.id, "brand_image", asFile(fixture("image-32x18.gif"), "g.gif", "image/gif"));
    if (!theirs.ok) throw new Error("not saved");
    await files.deleteCampaignAsset(campaign.id, theirs.key);
    expect(await files.getFileStore().get(logoKey)).not.toBeNull();
    expect(await files.getFileStore().get(theirs.key)).not.toBeNull();
  });
});

describe("reading an upload form", () => {
  function multipart(form: FormData): Request {
    return new Request(new URL("/campaigns/x/creative", BASE_URL), { method: "POST", body: form });
  }

  it("keeps each file up to one byte over its limit, and ignores files it does not expect", async () => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("banner", new File([new Uint8Array(100)], "b.png", { type: "image/png" }));
    form.set("stray", new File([new Uint8Array(100)], "s.bin"));
    const read = await parseMultipartFormData(multipart(form), (await import("~/http/multipart.server")).limitedUploadHandler({ banner: 10 }));
    expect(read.get("intent")).toBe("upload");
    expect((read.get("banner") as File).size).toBe(11);
    expect((read.get("banner") as File).type).toBe("image/png");
    expect(read.get("stray")).toBeNull();
  });

  it("reads campaign asset forms with each kind's limit", async () => {
    const form = new FormData();
    form.set("video", new File([fixture("video-2s-1920x1080.mp4") as BlobPart], "ad.mp4", { type: "video/mp4" }));
    form.set("headline", "Hello");
    const read = await (await import("~/http/multipart.server")).readCampaignAssetForm(multipart(form), { video: "video", poster: "poster" });
    expect(read.get("headline")).toBe("Hello");
    const video = read.get("video") as File;
    expect(new Uint8Array(await video.arrayBuffer())).toEqual(fixture("video-2s-1920x1080.mp4"));
    expect(read.get("poster")).toBeNull();

    const plain = new Request(new URL("/x", BASE_URL), { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect((await (await import("~/http/multipart.server")).readCampaignAssetForm(plain, { video: "video" })).get("a")).toBe("1");
  });
});

// ---------------------------------------------------------------------------------------------
// Crafted images: a signature alone, headers announcing huge pictures, files cut short.

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
function pngChunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
/** A PNG whose header announces width x height greyscale pixels, with `rows` rows of data. */
function craftedPng(width: number, height: number, rows = 1): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  // A few kilobytes that would unpack into the announced picture: a decompression bomb.
  const idat = deflateSync(Buffer.alloc(Math.min(rows * (width + 1), 4 * 1024 * 1024)));
  return new Uint8Array(Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", idat), pngChunk("IEND", new Uint8Array())]));
}

describe("crafted images are refused from their headers, before anything decodes them", () => {
  const imageKinds = ["brand_image", "background_image", "poster", "banner"] as const;
  const settings = { bannerSizes: { "670x980": [] }, storedBannerSizes: ["670x980"] };
  const check = (kind: (typeof imageKinds)[number], bytes: Uint8Array, type = "image/png") =>
    files.checkCampaignAsset(kind, bytes, type, { slot: "670x980", settings, aspectRatio: null });

  it("accepts whole images of the sizes each use needs", async () => {
    expect(await check("banner", buildPng(670, 980))).toMatchObject({ ok: true, width: 670, height: 980 });
    expect(await check("brand_image", buildPng(400, 200))).toMatchObject({ ok: true });
    expect(await check("background_image", craftedPng(1920, 1080, 1080))).toMatchObject({ ok: true });
    expect(await check("poster", fixture("image-160x90.jpg"), "image/jpeg")).toMatchObject({ ok: true });
    expect(await check("brand_image", fixture("image-90x160.webp"), "image/webp")).toMatchObject({ ok: true });
    expect(await check("brand_image", fixture("image-32x18.gif"), "image/gif")).toMatchObject({ ok: true });
    expect(media.checkUploadedImage(buildPng(512, 512), "image/png", "logo")).toMatchObject({ ok: true });
  });

  it.each(imageKinds)("%s: the PNG signature alone is not an image", async (kind) => {
    expect(await check(kind, PNG_SIGNATURE)).toEqual({ ok: false, reason: "media:errors.unreadableImage" });
  });

  it.each(imageKinds)("%s: a header claiming 65535 x 65535 pixels is refused", async (kind) => {
    const result = await check(kind, craftedPng(65535, 65535));
    expect(result).toMatchObject({ ok: false, reason: "media:errors.imageTooLarge" });
  });

  it.each(imageKinds)("%s: a 9999 x 9999 decompression bomb (a few kB) is refused", async (kind) => {
    const bomb = craftedPng(9999, 9999, 400);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const result = await check(kind, bomb);
    expect(result.ok).toBe(false);
    if (kind !== "banner") expect(result).toMatchObject({ reason: "media:errors.imageTooLarge" });
  });

  it("each use has its own largest side: a 3000 px brand image is refused, a 3000 px background accepted", async () => {
    expect(await check("brand_image", craftedPng(3000, 1000))).toMatchObject({ ok: false, reason: "media:errors.imageTooLarge", values: { max: 2048 } });
    expect(await check("background_image", craftedPng(3000, 1000))).toMatchObject({ ok: true });
  });

  it.each([
    ["a PNG without its end", () => craftedPng(100, 100).subarray(0, -12), "image/png"],
    ["a PNG without data", () => new Uint8Array(Buffer.concat([PNG_SIGNATURE, Buffer.from(craftedPng(10, 10).subarray(8, 33)), pngChunk("IEND", new Uint8Array())])), "image/png"],
    ["a PNG whose header chunk runs past the end", () => craftedPng(100, 100).subarray(0, 30), "image/png"],
    ["a JPEG cut in half", () => fixture("image-160x90.jpg").subarray(0, Math.floor(fixture("image-160x90.jpg").length / 2)), "image/jpeg"],
    ["a GIF without its trailer", () => fixture("image-32x18.gif").subarray(0, -1), "image/gif"],
    ["a WebP cut short", () => fixture("image-90x160.webp").subarray(0, -10), "image/webp"],
  ] as [string, () => Uint8Array, string][])("%s is not an image", async (_label, bytes, type) => {
    expect(await check("brand_image", bytes(), type)).toEqual({ ok: false, reason: "media:errors.unreadableImage" });
  });

  it("team logos: whole, and at most 1024 px a side", () => {
    expect(media.checkUploadedImage(PNG_SIGNATURE, "image/png", "logo")).toEqual({ ok: false, reason: "media:errors.unreadableImage" });
    expect(media.checkUploadedImage(craftedPng(65535, 65535), "image/png", "logo")).toMatchObject({ ok: false, reason: "media:errors.imageTooLarge" });
    expect(media.checkUploadedImage(craftedPng(9999, 9999, 400), "image/png", "logo")).toMatchObject({ ok: false, reason: "media:errors.imageTooLarge" });
    expect(media.checkUploadedImage(craftedPng(1025, 100), "image/png", "logo")).toMatchObject({ ok: false, values: { max: 1024 } });
  });
});

