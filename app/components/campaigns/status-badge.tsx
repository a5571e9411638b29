import { useTranslation } from "react-i18next";
import type { CampaignLiveStatus } from "~/domain/campaigns/status";

/** A campaign's live status (spec section 4) as a badge, everywhere a campaign is shown. */
export function LiveStatusBadge({ status }: { status: CampaignLiveStatus }) {
  const { t } = useTranslation("campaigns");
  return (
    <span className="badge campaign-badge" data-live={status}>
      {t(`liveStatus.${status}`)}
    </span>
  );
}
