/** The notification centre's two forms: mark one read, mark all read. */
import * as z from "zod/mini";

export const markReadIntent = "mark-notification-read";
export const markAllReadIntent = "mark-all-notifications-read";

export const NotificationsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(markReadIntent), id: z.string().check(z.minLength(1), z.maxLength(200)), after: z.optional(z.string().check(z.maxLength(2000))) }),
  /** `through`: the newest notification the page showed (one that arrived since stays unread). */
  z.object({ intent: z.literal(markAllReadIntent), through: z.optional(z.coerce.number().check(z.int(), z.gte(0))) }),
]);
export type NotificationsForm = z.infer<typeof NotificationsSchema>;
