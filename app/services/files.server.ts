/**
 * The files the console keeps (team logos, campaign banners and creative media, later report
 * files), stored outside the database: a small interface, and its embedded implementation, a
 * folder under DATA_DIR/files. A Cloud Storage bucket (firebase-admin) can stand behind the same
 * interface for deployments on several machines.
 *
 * Keys are relative paths such as "teams/acme-brand/logo-1f3c….png" or
 * "campaigns/{campaignId}/video-1f3c….mp4": folders of letters, digits, "-" and "_", one file
 * name, no "..", so a key can never leave the folder.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AspectRatio } from "~/domain/campaigns/campaign";
import {
  checkAspectRatio,
  checkBannerSize,
  checkImageDimensions,
  checkUploadSize,
  checkVideo,
  IMAGE_TYPES,
  maxBytesFor,
  MEDIA_EXTENSIONS,
  mediaClassOf,
  type BannerSettings,
  type CampaignAssetKind,
  type MediaFailure,
  type MediaType,
} from "~/domain/media";
import { can } from "~/domain/permissions";
import { notFound, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { getEnv } from "~/services/env.server";
import { measureImage, measureVideo } from "~/services/media.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { getVisibleTeam } from "~/services/teams.server";

export interface StoredFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

export interface FileStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

// Folders may hold upper case: campaign ids of a Firestore database (auto ids) are mixed case.
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*\/[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z0-9]{1,5}$/;
const MAX_KEY_LENGTH = 300;

export function isValidFileKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key) && !key.split("/").includes("..");
}

/** Files are served with the type of their extension; the extension was chosen from their content. */
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

export function createLocalFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    if (!isValidFileKey(key)) throw new RangeError(`Invalid file key: ${key}`);
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new RangeError(`Invalid file key: ${key}`);
    return full;
  };
  return {
    async put(key, bytes) {
      const full = resolve(key);
      await fs.mkdir(path.dirname(full), { recursive: true });
      // Written aside then renamed: a reader never sees half a file.
      const temp = `${full}.${randomUUID()}.tmp`;
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, full);
    },
    async get(key) {
      if (!isValidFileKey(key)) return null;
      try {
        const bytes = await fs.readFile(resolve(key));
        return { bytes: new Uint8Array(bytes), contentType: contentTypeOf(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      if (!isValidFileKey(key)) return;
      await fs.rm(resolve(key), { force: true });
    },
  };
}

let store: { root: string; files: FileStore } | undefined;

/** The files store of this process: DATA_DIR/files. */
export function getFileStore(): FileStore {
  const root = path.resolve(getEnv().DATA_DIR, "files");
  if (!store || store.root !== root) store = { root, files: createLocalFileStore(root) };
  return store.files;
}

/** The URL the console serves a stored file at (files.$.tsx checks who may read it). */
export function fileUrl(key: string | null): string | null {
  return key ? `/files/${key}` : null;
}

// ---------------------------------------------------------------------------------------------
// Who a file belongs to (files.$.tsx authorises on it)

export type FileOwner = { type: "team"; teamId: string } | { type: "campaign"; campaignId: string } | { type: "user"; userId: string };

/** "teams/{teamId}/{file}", "campaigns/{campaignId}/{file}" or "users/{userId}/{file}" (a profile photo); null for any other key. */
export function fileOwnerOf(key: string): FileOwner | null {
  if (!isValidFileKey(key)) return null;
  const match = /^(teams|campaigns|users)\/([^/]+)\/[^/]+$/.exec(key);
  if (!match) return null;
  if (match[1] === "users") return { type: "user", userId: match[2]! };
  return match[1] === "teams" ? { type: "team", teamId: match[2]! } : { type: "campaign", campaignId: match[2]! };
}

/**
 * Team files: the team must be visible. Campaign files: the campaign's team, and reading
 * campaigns in it. A duplicate shares its source's files, and a deleted draft may have been a
 * source: its copy in deleted campaigns still names the team that owns the files.
 */
async function mayRead(user: User, owner: FileOwner): Promise<boolean> {
  // A profile photo: its user, and those who may read users.
  if (owner.type === "user") return user.id === owner.userId || can(user, "User", "read");
  if (owner.type === "team") return Boolean(await getVisibleTeam(user, owner.teamId));
  const campaigns = getStorage().campaigns;
  const campaign = (await campaigns.getOne(owner.campaignId)) ?? (await campaigns.getDeleted(owner.campaignId));
  if (!campaign || !(await getVisibleTeam(user, campaign.team))) return false;
  return can(user, "Campaign", "read", { teamId: campaign.team });
}

/** A stored file for a user who may see its team; else not-found, so its existence is not revealed. */
export async function readFileFor(user: User, key: string): Promise<Result<StoredFile>> {
  const owner = fileOwnerOf(key);
  if (!owner || !(await mayRead(user, owner))) return notFound();
  const file = await getFileStore().get(key);
  return file ? ok(file) : notFound();
}

// ---------------------------------------------------------------------------------------------
// Campaign assets: banners per slot and the creative's brand image, background image, video and
// poster (issue 4 §4). Checked from their bytes by app/domain/media.ts, then stored under
// "campaigns/{campaignId}/{kind}-{uuid}.{ext}" (a banner's name also carries its slot).

export interface CampaignAssetOptions {
  /** Banners: the slot (WxH) the image is for; its stored size is required (app/domain/media.ts). */
  slot?: string;
  /** Videos and posters: the creative's aspect ratio, when it is already chosen. */
  aspectRatio?: AspectRatio | null;
  /** Banner sizes; the retailer settings in force when not given. */
  settings?: BannerSettings;
}

export interface StoredCampaignAsset {
  /** The key in the files store: what the campaign document keeps (banners[slot].image, creative.*). */
  key: string;
  /** Where the console serves it (only to those who may see the campaign's team). */
  url: string;
  kind: CampaignAssetKind;
  mime: MediaType;
  byteLength: number;
  width: number;
  height: number;
  /** Videos only. */
  durationSeconds?: number;
  /** Videos and posters. */
  aspectRatio?: AspectRatio;
}

export type SaveCampaignAssetResult = ({ ok: true } & StoredCampaignAsset) | MediaFailure;

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function campaignAssetKey(campaignId: string, kind: CampaignAssetKind, mime: MediaType, slot?: string): string {
  if (!SEGMENT.test(campaignId)) throw new RangeError(`Campaign id not usable in a file key: ${campaignId}`);
  const name = kind === "banner" && slot ? `banner-${slot.replace(/[^A-Za-z0-9]/g, "")}` : kind;
  return `campaigns/${campaignId}/${name}-${randomUUID()}.${MEDIA_EXTENSIONS[mime]}`;
}

type CheckedAsset = { ok: true; mime: MediaType; width: number; height: number; durationSeconds?: number; aspectRatio?: AspectRatio } | MediaFailure;

/** Measures the bytes and applies the kind's rules; nothing is stored. */
export async function checkCampaignAsset(
  kind: CampaignAssetKind,
  bytes: Uint8Array,
  declaredType: string,
  options: CampaignAssetOptions = {},
): Promise<CheckedAsset> {
  const size = checkUploadSize(kind, bytes.byteLength);
  if (!size.ok) return size;
  if (mediaClassOf(kind) === "video") {
    const video = measureVideo(bytes, declaredType);
    if (!video.ok) return video;
    const rules = checkVideo(video, options.aspectRatio);
    if (!rules.ok) return rules;
    return { ok: true, mime: video.mime, width: video.width, height: video.height, durationSeconds: video.durationSeconds, aspectRatio: rules.value };
  }
  const image = measureImage(bytes, declaredType);
  if (!image.ok) return image;
  if (!(IMAGE_TYPES as readonly string[]).includes(image.mime)) return { ok: false, reason: "media:errors.unsupportedImageType" };
  const mime = image.mime as MediaType;
  const dimensions = checkImageDimensions(image.width, image.height, kind as Exclude<CampaignAssetKind, "video">);
  if (!dimensions.ok) return dimensions;
  if (kind === "banner") {
    const banner = checkBannerSize(options.slot ?? "", image.width, image.height, options.settings ?? (await getRetailerSettings()));
    if (!banner.ok) return banner;
  }
  if (kind === "poster") {
    const ratio = checkAspectRatio(image.width, image.height, options.aspectRatio);
    if (!ratio.ok) return ratio;
    return { ok: true, mime, width: image.width, height: image.height, aspectRatio: ratio.value };
  }
  return { ok: true, mime, width: image.width, height: image.height };
}

/**
 * Checks an uploaded campaign asset from its bytes (type, size, and per kind: the banner's size
 * for its slot, the video's duration and aspect ratio, the poster's ratio) and stores it under a
 * new key. A refused file stores nothing. The caller (the campaign service) has checked the
 * user's rights on the campaign, saves the key on it, and deletes the key again if that fails.
 */
export async function saveCampaignAsset(
  campaignId: string,
  kind: CampaignAssetKind,
  file: File,
  options: CampaignAssetOptions = {},
): Promise<SaveCampaignAssetResult> {
  // The upload handler keeps one byte over the limit: "too large" without reading any further.
  if (file.size > maxBytesFor(kind)) return checkUploadSize(kind, file.size) as MediaFailure;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = await checkCampaignAsset(kind, bytes, file.type, options);
  if (!checked.ok) return checked;
  const { ok: _ok, ...measured } = checked;
  const key = campaignAssetKey(campaignId, kind, checked.mime, kind === "banner" ? options.slot : undefined);
  await getFileStore().put(key, bytes);
  return { ok: true, key, url: `/files/${key}`, kind, byteLength: bytes.byteLength, ...measured };
}

/** Deletes a campaign asset (a replaced or removed one); keys of other owners are left alone. */
export async function deleteCampaignAsset(campaignId: string, key: string | null | undefined): Promise<void> {
  if (!key) return;
  const owner = fileOwnerOf(key);
  if (owner?.type !== "campaign" || owner.campaignId !== campaignId) return;
  await getFileStore().delete(key);
}
