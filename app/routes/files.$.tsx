import type { LoaderFunctionArgs } from "@remix-run/node";
import { can } from "~/domain/permissions";
import type { User } from "~/domain/types";
import { requireUser } from "~/http/auth.server";
import { fileOwnerOf, getFileStore, parseByteRange, type FileOwner } from "~/services/files.server";
import { getStorage } from "~/services/storage.server";
import { getVisibleTeam } from "~/services/teams.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** Team files: the team must be visible. Campaign files: the campaign's team, and reading campaigns in it. */
async function mayRead(user: User, owner: FileOwner): Promise<boolean> {
  if (owner.type === "team") return Boolean(await getVisibleTeam(user, owner.teamId));
  // A duplicate shares its source's files, and a deleted draft may have been a source: its copy in
  // deleted campaigns still names the team that owns the files.
  const campaign = (await getStorage().campaigns.getOne(owner.campaignId)) ?? (await getStorage().campaigns.getDeleted(owner.campaignId));
  if (!campaign || !(await getVisibleTeam(user, campaign.team))) return false;
  return can(user, "Campaign", "read", { teamId: campaign.team });
}

/**
 * Stored files (team logos, campaign banners and creative media), served to signed-in users who
 * may see their team; anything else answers 404, so a file's existence is not revealed. One byte
 * range is honoured (videos are read in parts).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const key = params["*"] ?? "";
  const owner = fileOwnerOf(key);
  if (!owner || !(await mayRead(user, owner))) throw notFound();
  const file = await getFileStore().get(key);
  if (!file) throw notFound();
  const size = file.bytes.byteLength;
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    // Keys are never reused (a new upload gets a new name), so the browser may keep them.
    "Cache-Control": "private, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Content-Disposition": "inline",
  });
  const range = parseByteRange(request.headers.get("Range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    headers.delete("Content-Type");
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    const part = file.bytes.subarray(range.start, range.end + 1);
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("Content-Length", String(part.byteLength));
    return new Response(part, { status: 206, headers });
  }
  headers.set("Content-Length", String(size));
  return new Response(file.bytes, { headers });
}
