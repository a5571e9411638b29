import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TeamStatusBadge } from "~/components/team-status-badge";
import { can } from "~/domain/permissions";
import { requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { roleOnTeam, toTeamView } from "~/services/teams-admin.server";

/** A team's pages: the team (or a 404 when it is outside the user's scope), its header and tabs. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, params.teamId);
  return {
    team: toTeamView(team, user),
    role: roleOnTeam(user, team.id),
    canListTeams: can(user, "Team", "read"),
  };
}

export type TeamLayoutLoader = typeof loader;

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

export default function TeamLayoutRoute() {
  const { t } = useTranslation("teams");
  const { team, role, canListTeams } = useLoaderData<typeof loader>();
  return (
    <>
      {canListTeams ? (
        <p className="breadcrumb">
          <Link to="/teams">{t("backToList")}</Link>
        </p>
      ) : null}
      <header className="team-header">
        {team.logoUrl ? (
          <img src={team.logoUrl} alt="" width={56} height={56} className="team-logo" />
        ) : (
          <span className="team-logo team-logo-initials" aria-hidden="true">
            {initials(team.name)}
          </span>
        )}
        <div>
          <h1>{team.name}</h1>
          <p className="team-meta">
            <TeamStatusBadge status={team.status} />
            <span>{t(`accountTypes.${team.account_type}`)}</span>
            {role ? <span>{t("page.yourRole", { role: t(`common:roles.${role}`) })}</span> : null}
          </p>
        </div>
      </header>
      <nav aria-label={t("page.tabs")} className="tabs">
        <NavLink to="campaigns" prefetch="intent">
          {t("campaignList:tab")}
        </NavLink>
        <NavLink to="wallets" prefetch="intent">
          {t("page.tab.wallets")}
        </NavLink>
        <NavLink to="settings" prefetch="intent">
          {t("page.tab.settings")}
        </NavLink>
      </nav>
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
