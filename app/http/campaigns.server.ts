/**
 * The campaign editor's HTTP side: the Post/Redirect/Get after a section save, with 'Changes
 * Saved' and the save's first warning as the toast's description.
 */
import { splitMessage } from "~/domain/message";
import type { SuccessReply } from "./reply.server";

/** The success reply of a section save (for `reply`'s onSuccess). */
export function savedReply(to: string, warnings: readonly string[]): SuccessReply {
  const warning = warnings[0] ? splitMessage(warnings[0]) : null;
  return {
    to,
    toast: { type: "success", title: "toast.changesSaved", description: warning?.key, values: warning?.values as Record<string, string> | undefined },
  };
}
