import type { LoaderFunctionArgs } from "@remix-run/node";
import { getRequestLocale } from "~/http/i18n.server";
import { getFixedT } from "~/services/i18n.server";
import { downloadReportFile } from "~/services/reports.server";

/**
 * A report's file behind the signed link its recipients were e-mailed: no account needed, the
 * signature over the run and its expiry is the right. A tampered, expired or removed link answers
 * 404 (nothing is revealed), in the reader's language (a recipient may have no account: their
 * browser's).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const file = await downloadReportFile(params.runId ?? "", url.searchParams.get("expires"), url.searchParams.get("signature"));
  if (!file.ok) {
    const t = await getFixedT(await getRequestLocale(request));
    return new Response(t(file.reason), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return new Response(file.value.bytes, {
    headers: {
      "Content-Type": file.value.contentType,
      "Content-Disposition": `attachment; filename="${file.value.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
