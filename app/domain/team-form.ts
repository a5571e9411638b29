/**
 * Rules of the team form: lists typed as comma-separated text, tags, the logo's type and size,
 * and the status changes offered. Pure: no I/O, no framework.
 */
import { canChangeTeamStatus } from "~/domain/teams";
import { INTERNAL_BILLING_TAG, type Claims, type TeamStatus } from "~/domain/types";

export const TEAM_NAME_MAX = 100;
export const TEAM_TEXT_MAX = 200;
export const TEAM_ID_FIELD_MAX = 100;
export const MAX_TAGS = 20;
export const TAG_MAX = 40;
export const MAX_BRANDS = 50;
export const BRAND_MAX = 80;

/** Tags offered as checkboxes; any other tag is typed in the free field. */
export const KNOWN_TEAM_TAGS = [INTERNAL_BILLING_TAG] as const;

/** Logos: raster images only (an SVG can carry scripts), up to 1 MB. */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_EXTENSIONS: Record<LogoType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/** Splits comma- or line-separated text into trimmed items, inner spaces collapsed, duplicates (any case) dropped. */
export function parseTextList(text: string | null | undefined): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const raw of (text ?? "").split(/[,;\n\r]+/)) {
    const item = raw.replace(/\s+/g, " ").trim();
    if (!item || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

/** Tags are stored lower-cased, so filtering by one does not depend on how it was typed. */
export function normalizeTag(tag: string): string {
  return tag.replace(/\s+/g, " ").trim().toLowerCase();
}

/** The team's tags from the known-tag checkboxes and the free field, normalised and deduplicated. */
export function collectTags(known: readonly string[], freeText: string | null | undefined): string[] {
  const tags = new Set<string>();
  for (const tag of [...known, ...parseTextList(freeText)]) {
    const normalized = normalizeTag(tag);
    if (normalized) tags.add(normalized);
  }
  return [...tags];
}

export type ListCheck = { ok: true } | { ok: false; reason: "tooMany" | "itemTooLong" };

export function checkList(items: readonly string[], maxItems: number, maxLength: number): ListCheck {
  if (items.length > maxItems) return { ok: false, reason: "tooMany" };
  if (items.some((i) => i.length > maxLength)) return { ok: false, reason: "itemTooLong" };
  return { ok: true };
}

/** The type of an image from its first bytes (never from the name or the browser's claim). */
export function sniffImageType(bytes: Uint8Array): LogoType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (bytes.length >= 8 && starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (bytes.length >= 3 && starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBP
  if (bytes.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

export type LogoCheck =
  | { ok: true; value: { contentType: LogoType; extension: string } }
  | { ok: false; reason: "logo.tooLarge" | "logo.badType" | "logo.empty" };

export function checkLogo(bytes: Uint8Array): LogoCheck {
  if (bytes.length === 0) return { ok: false, reason: "logo.empty" };
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, reason: "logo.tooLarge" };
  const contentType = sniffImageType(bytes);
  if (!contentType) return { ok: false, reason: "logo.badType" };
  return { ok: true, value: { contentType, extension: LOGO_EXTENSIONS[contentType] } };
}

/** A readable, URL-safe team id: the folded name and a random suffix ("acme-brand-k3x9q2"). */
export function teamIdFor(foldedName: string, suffix: string): string {
  const slug = foldedName
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return `${slug || "team"}-${suffix}`;
}

export type StatusChange = "suspend" | "archive" | "reactivate" | "restore";

/** The name of a change, for its button and confirmation texts. */
export function statusChangeName(from: TeamStatus, to: TeamStatus): StatusChange {
  if (to === "suspended") return "suspend";
  if (to === "archived") return "archive";
  return from === "archived" ? "restore" : "reactivate";
}

/** The status changes a user may make on a team in this status, in a stable order. */
export function statusChangesFor(claims: Claims, from: TeamStatus): { to: TeamStatus; change: StatusChange }[] {
  const order: TeamStatus[] = ["active", "suspended", "archived"];
  return order.filter((to) => canChangeTeamStatus(claims, from, to)).map((to) => ({ to, change: statusChangeName(from, to) }));
}
