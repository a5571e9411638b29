/** The profile photo's forms: upload one (multipart), or remove it. */
import * as z from "zod/mini";
import { LOGO_MAX_BYTES } from "~/domain/team-form";

export const updatePhotoIntent = "update-photo";
export const removePhotoIntent = "remove-photo";

export const PhotoSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal(updatePhotoIntent),
    // Type and pixels are checked from the bytes by the use case; the size here too, so the form says it first.
    photo: z.file({ error: "profile:photo.missing" }).check(z.maxSize(LOGO_MAX_BYTES, "profile:photo.tooLarge")),
  }),
  z.object({ intent: z.literal(removePhotoIntent) }),
]);
