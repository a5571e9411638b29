import { useTranslation } from "react-i18next";
import { capNoticeKey, type CampaignLiveStatus, type CapNotice } from "~/domain/campaigns/status";

/** A campaign's live status (spec section 4) as a badge, everywhere a campaign is shown. */
export function LiveStatusBadge({ status }: { status: CampaignLiveStatus }) {
  const { t } = useTranslation("campaigns");
  return (
    <span className="badge campaign-badge" data-live={status}>
      {t(`liveStatus.${status}`)}
    </span>
  );
}

/**
 * The caps that stop a campaign today, each saying what it stops until tomorrow ("Search
 * placement cap reached today: not shown on search until tomorrow"), beside its live status;
 * in a list's cell, the short form ("Search: cap reached until tomorrow").
 */
export function CapNotices({ caps, form = "full" }: { caps: readonly CapNotice[] | undefined; form?: "full" | "short" }) {
  const { t } = useTranslation("campaigns");
  if (!caps?.length) return null;
  return (
    <ul className="cap-notices">
      {caps.map((cap) => {
        const key = capNoticeKey(cap, form);
        return <li key={key}>{t(key)}</li>;
      })}
    </ul>
  );
}
