import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { can } from "~/domain/permissions";
import { requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";

/** The Settings tab of a team: Details and Members. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, params.teamId);
  // Members is offered only to those who may manage them (the page itself refuses the others).
  return { canManageMembers: can(user, "TeamPage", "manage-members", { teamId: team.id }) };
}

export default function TeamSettingsLayoutRoute() {
  const { t } = useTranslation("teams");
  const { canManageMembers } = useLoaderData<typeof loader>();
  return (
    <>
      <nav aria-label={t("settings.nav")} className="tabs subtabs">
        <NavLink to="." end>
          {t("settings.details")}
        </NavLink>
        {canManageMembers ? (
          <NavLink to="members" prefetch="intent">
            {t("settings.members")}
          </NavLink>
        ) : null}
      </nav>
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
