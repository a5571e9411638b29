import { useTranslation } from "react-i18next";
import type { TeamStatus } from "~/domain/types";

/** A team's status as a badge (lists, the team header). */
export function TeamStatusBadge({ status }: { status: TeamStatus }) {
  const { t } = useTranslation("teams");
  return (
    <span className="badge" data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}
