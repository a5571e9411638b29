/**
 * The profile photo (issue 11 §4) through the real /profile action and /files route: an image is
 * checked from its bytes (type, size, pixels), stored in the files service and shown to its user
 * and to those who may read users, never to another supplier (404); a replaced photo's file is
 * removed; a removed photo is gone; the top bar (root loader) carries it.
 */
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { args, BASE_URL, call, getRequest, signIn, startApp, type AppUser, type TestApp } from "./app-helpers";

let app: TestApp;
let ann: AppUser;
let bob: AppUser;
const cookies: Record<string, string> = {};

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
/** A whole greyscale PNG of width x height. */
function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.alloc(Math.min(height * (width + 1), 4 * 1024 * 1024)));
  return new Uint8Array(Buffer.concat([PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array())]));
}

function postPhoto(who: string, form: Record<string, string | File>) {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.append(key, value);
  const request = new Request(new URL("/profile", BASE_URL), { method: "POST", body, headers: { Cookie: cookies[who]! } });
  return call(async () => (await import("~/routes/profile")).action(args(request) as never));
}
const file = (who: string, url: string) => call(async () => (await import("~/routes/files.$")).loader({ ...args(getRequest(url, { cookie: cookies[who] })), params: { "*": url.slice("/files/".length) } } as never));
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
  ann = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" } });
  bob = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" } });
  cookies.ann = await signIn(app.m, ann.email, ann.password);
  cookies.bob = await signIn(app.m, bob.email, bob.password);
  cookies.admin = await signIn(app.m, "retailer.admin@example.com", app.demoPassword);
});
afterAll(async () => app?.stop());

describe("the profile photo", () => {
  it("stores a checked image, shows it to its user and user managers only, replaces and removes it", async () => {
    const saved = await postPhoto("ann", { intent: "update-photo", photo: new File([png(64, 64)], "me.png", { type: "image/png" }) });
    expect(saved.status).toBe(302);
    const url = (await storage().users.getOne(ann.id))!.photoURL!;
    expect(url).toMatch(new RegExp(`^/files/users/${ann.id}/photo-[0-9a-f-]+\\.png$`));
    expect((await file("ann", url)).status).toBe(200);
    expect((await file("admin", url)).status).toBe(200);
    // Another supplier, even of the same team, does not see it.
    expect((await file("bob", url)).status).toBe(404);
    const root = await call(async () => (await import("~/root")).loader(args(getRequest("/", { cookie: cookies.ann })) as never));
    expect(root.data.user.photoURL).toBe(url);

    const replaced = await postPhoto("ann", { intent: "update-photo", photo: new File([png(32, 32)], "me2.png", { type: "image/png" }) });
    expect(replaced.status).toBe(302);
    const next = (await storage().users.getOne(ann.id))!.photoURL!;
    expect(next).not.toBe(url);
    expect((await file("ann", url)).status).toBe(404);

    expect((await postPhoto("ann", { intent: "remove-photo" })).status).toBe(302);
    expect((await storage().users.getOne(ann.id))!.photoURL).toBeNull();
    expect((await file("ann", next)).status).toBe(404);
  });

  it("refuses what is not a PNG, JPEG or WebP image, a photo over 1024 pixels, and an empty choice; nothing changes", async () => {
    const refused = async (photo: File | null, reason: string) => {
      const outcome = await postPhoto("bob", photo ? { intent: "update-photo", photo } : { intent: "update-photo" });
      expect(outcome.status).toBe(400);
      expect(JSON.stringify(outcome.data)).toContain(reason);
      expect((await storage().users.getOne(bob.id))!.photoURL).toBeNull();
    };
    await refused(new File([new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")], "x.svg", { type: "image/svg+xml" }), "profile:photo.badType");
    await refused(new File([png(2000, 10)], "wide.png", { type: "image/png" }), "profile:photo.tooManyPixels");
    await refused(new File([new Uint8Array(1024 * 1024 + 10)], "big.png", { type: "image/png" }), "profile:photo.tooLarge");
    await refused(null, "profile:photo.missing");
  });
});

describe("the profile's time zone", () => {
  it("offers the saved zone even where the runtime's list lacks it (UTC, Asia/Kolkata), so a save keeps it", async () => {
    const profile = await import("~/routes/profile");
    for (const zone of ["UTC", "Asia/Kolkata"]) {
      await storage().users.update(ann.id, { timezone: zone }, { by: "system" });
      const page = await call(() => profile.loader(args(getRequest("/profile", { cookie: cookies.ann })) as never));
      // The select is drawn from these: without the saved zone it would show (and save) the first.
      expect(page.data.timezones).toContain(zone);
      expect(page.data.profile.timezone).toBe(zone);
      const form = new FormData();
      for (const [key, value] of Object.entries({ intent: "update-profile", version: String(page.data.profile.version), displayName: "Ann Renamed", locale: "en-GB", timezone: zone })) form.append(key, value);
      const saved = await call(() => profile.action(args(new Request(new URL("/profile", BASE_URL), { method: "POST", body: form, headers: { Cookie: cookies.ann! } })) as never));
      expect(saved.status).toBe(302);
      expect((await storage().users.getOne(ann.id))!.timezone).toBe(zone);
    }
  });

  it("saves a zone typed in another case as the list spells it, so the select shows it once", async () => {
    const profile = await import("~/routes/profile");
    for (const [typed, saved] of [["europe/paris", "Europe/Paris"], ["AMERICA/NEW_YORK", "America/New_York"], ["utc", "UTC"]] as const) {
      const page = await call(() => profile.loader(args(getRequest("/profile", { cookie: cookies.ann })) as never));
      const form = new FormData();
      for (const [key, value] of Object.entries({ intent: "update-profile", version: String(page.data.profile.version), displayName: "Ann Renamed", locale: "en-GB", timezone: typed })) form.append(key, value);
      const outcome = await call(() => profile.action(args(new Request(new URL("/profile", BASE_URL), { method: "POST", body: form, headers: { Cookie: cookies.ann! } })) as never));
      expect(outcome.status).toBe(302);
      expect((await storage().users.getOne(ann.id))!.timezone).toBe(saved);
      const after = await call(() => profile.loader(args(getRequest("/profile", { cookie: cookies.ann })) as never));
      expect(after.data.timezones.filter((zone: string) => zone.toLowerCase() === typed.toLowerCase())).toEqual([saved]);
    }
  });
});
