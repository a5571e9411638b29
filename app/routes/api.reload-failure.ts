import { data, type ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { getCurrentUser } from "~/http/auth.server";
import { logReloadFailure } from "~/services/config.server";

const ReloadFailureSchema = z.object({ from: z.coerce.number().int(), to: z.coerce.number().int() });

/** A client still on an old version after its one reload reports it here; it is logged. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await getCurrentUser(request);
  if (!user) return data({ ok: false }, { status: 401 });
  const parsed = ReloadFailureSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false }, { status: 400 });
  console.warn(JSON.stringify({ level: "warn", msg: "Version reload failed", requestId: context?.requestId, userId: user.id, ...parsed.data }));
  await logReloadFailure(user, parsed.data);
  return { ok: true };
}
