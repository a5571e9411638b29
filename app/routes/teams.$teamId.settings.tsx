import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/services/auth.server";
import { requireVisibleTeam } from "~/services/teams.server";

/** The Settings tab of a team: Details and Members. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  await requireVisibleTeam(user, params.teamId);
  return null;
}

export default function TeamSettingsLayoutRoute() {
  const { t } = useTranslation("teams");
  return (
    <>
      <nav aria-label={t("settings.nav")} className="tabs subtabs">
        <NavLink to="." end>
          {t("settings.details")}
        </NavLink>
        <NavLink to="members" prefetch="intent">
          {t("settings.members")}
        </NavLink>
      </nav>
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
