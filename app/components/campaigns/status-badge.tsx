import { useTranslation } from "react-i18next";
import { capNoticeKey, type CampaignLiveStatus, type CapNotice } from "~/domain/campaigns/status";

/** A translator of the campaigns namespace (a component's `t`, or a list's, prefixed). */
type CampaignsT = (key: string) => string;

/** A campaign's live status (spec section 4) as a badge, everywhere a campaign is shown. */
export function LiveStatusBadge({ status }: { status: CampaignLiveStatus }) {
  const { t } = useTranslation("campaigns");
  return liveStatusBadge(status, t);
}

/**
 * The badge itself, for a table that renders one per row with its own translator (no hook per
 * cell: ADR 25).
 */
export function liveStatusBadge(status: CampaignLiveStatus, t: CampaignsT) {
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
  return capNoticeList(caps, form, t);
}

/** The notices themselves (see liveStatusBadge). */
export function capNoticeList(caps: readonly CapNotice[] | undefined, form: "full" | "short", t: CampaignsT) {
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
