import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { periodInstants } from "~/domain/wallets/ledger-period";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { requireTeamWallet, requireVisibleTeam } from "~/http/scope.server";
import { exportLedgerCsv, viewContext } from "~/services/wallets.server";

/** The ledger of the chosen period as a CSV download (every page, not only the one shown). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerRefusals(await getRequestLocale(request), () => exportLedger(request, params));
}

async function exportLedger(request: Request, params: LoaderFunctionArgs["params"]): Promise<Response> {
  const user = await requireUser(request, "Wallet");
  const team = await requireVisibleTeam(user, params.teamId);
  const wallet = await requireTeamWallet(team, params.walletId);
  const ctx = viewContext(user, await getRequestLocale(request));
  const search = new URL(request.url).searchParams;
  const days = { from: search.get("from") || undefined, to: search.get("to") || undefined };
  const period = periodInstants(days, ctx.retailerTimeZone);
  if (!period.ok) throw data({ error: `wallets:${period.reason}` }, { status: 400 });
  const { fileName, body } = await exportLedgerCsv(wallet, { days, instants: period.value }, ctx);
  return csvResponse(fileName, body);
}
