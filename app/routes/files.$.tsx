import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { fileResponse } from "~/http/file-response.server";
import { readFileFor } from "~/services/files.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * Stored files (team logos, campaign banners and creative media), served to signed-in users who
 * may see their team; anything else answers 404, so a file's existence is not revealed. One byte
 * range is honoured (videos are read in parts).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const file = await readFileFor(user, params["*"] ?? "");
  if (!file.ok) throw notFound();
  return fileResponse(request, file.value);
}
