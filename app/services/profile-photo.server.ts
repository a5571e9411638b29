/**
 * A user's profile photo (spec section 3's photoURL, issue 11 §4): a PNG, JPEG or WebP image of at
 * most 1 MB and 1024 × 1024 pixels, checked from its bytes (app/domain/team-form.ts's image check
 * and app/services/media.server.ts's header measurement, as team logos are), stored in the files
 * service under "users/{userId}/photo-{uuid}.{ext}" and shown in the top bar. No HTTP.
 */
import { randomUUID } from "node:crypto";
import { auditActor } from "~/domain/operators";
import { fail, ok, type Result } from "~/domain/result";
import { checkLogo } from "~/domain/team-form";
import type { User } from "~/domain/types";
import { fileUrl, getFileStore } from "~/services/files.server";
import { checkUploadedImage } from "~/services/media.server";
import { getStorage } from "~/services/storage.server";

/** The key of a photo URL this console stored (null for anything else). */
export function photoKeyOf(photoURL: string | null): string | null {
  return photoURL?.startsWith("/files/users/") ? photoURL.slice("/files/".length) : null;
}

/** Sets (a file) or removes (null) the user's own photo. */
export async function setProfilePhoto(user: User, file: File | null): Promise<Result<User>> {
  const files = getFileStore();
  let url: string | null = null;
  if (file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const checked = checkLogo(bytes);
    if (!checked.ok) return fail("invalid", `profile:photo.${checked.reason.replace("logo.", "")}`, { field: "photo" });
    const image = checkUploadedImage(bytes, checked.value.contentType, "logo");
    if (!image.ok) return fail("invalid", image.reason === "media:errors.imageTooLarge" ? "profile:photo.tooManyPixels" : "profile:photo.unreadable", { field: "photo" });
    const key = `users/${user.id}/photo-${randomUUID()}.${checked.value.extension}`;
    await files.put(key, bytes);
    url = fileUrl(key);
  }
  const previous = photoKeyOf(user.photoURL);
  const saved = await getStorage().users.update(user.id, { photoURL: url }, auditActor(user));
  if (previous) await files.delete(previous);
  return ok(saved);
}
