import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { getFileStore, isValidFileKey } from "~/services/files.server";
import { getVisibleTeam } from "~/services/teams.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * Stored files (team logos), served to signed-in users who may see their team; anything else
 * answers 404, so a file's existence is not revealed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const key = params["*"] ?? "";
  const teamId = /^teams\/([^/]+)\/[^/]+$/.exec(key)?.[1];
  if (!teamId || !isValidFileKey(key)) throw notFound();
  if (!(await getVisibleTeam(user, teamId))) throw notFound();
  const file = await getFileStore().get(key);
  if (!file) throw notFound();
  return new Response(file.bytes, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      // Keys are never reused (a new logo gets a new name), so the browser may keep them.
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Content-Disposition": "inline",
    },
  });
}
