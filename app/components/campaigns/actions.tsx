/**
 * The lifecycle action bar of a campaign: one small form per action offered (the actions of
 * app/domain/campaigns/actions.ts, decided on the server). Destructive actions open a confirmation first and reject asks
 * for a reason; both are <details> disclosures, so they work without JavaScript.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CampaignAction } from "~/domain/campaigns/actions";
import { CONFIRMED_ACTIONS, campaignActionIntent } from "~/forms/campaigns/campaigns";
import { useIsPending } from "~/utils/misc";

interface Props {
  campaignId: string;
  version: number;
  actions: CampaignAction[];
  returnTo: string;
  name: string;
}

function Hidden({ action, version, returnTo }: { action: CampaignAction; version: number; returnTo: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={campaignActionIntent} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="returnTo" value={returnTo} />
    </>
  );
}

export function CampaignActionBar({ campaignId, version, actions, returnTo, name }: Props) {
  const { t } = useTranslation("campaigns");
  const formAction = `/campaigns/${campaignId}`;
  const pending = useIsPending({ formAction });
  if (actions.length === 0) return null;
  return (
    <div className="campaign-actions" role="group" aria-label={t("actions.label")}>
      {actions.map((action) => {
        if (action === "reject") {
          return (
            <details key={action} className="campaign-action-confirm">
              <summary className="button">{t("actions.reject")}</summary>
              <Form method="post" action={formAction}>
                <Hidden action={action} version={version} returnTo={returnTo} />
                <div className="field">
                  <label htmlFor="reject-reason">{t("actions.rejectReason")}</label>
                  <textarea id="reject-reason" name="reason" required maxLength={500} rows={3} />
                </div>
                <button type="submit" className="button danger" aria-disabled={pending || undefined}>
                  {t("actions.confirmReject")}
                </button>
              </Form>
            </details>
          );
        }
        if (CONFIRMED_ACTIONS.has(action)) {
          return (
            <details key={action} className="campaign-action-confirm">
              <summary className="button">{t(`actions.${action}`)}</summary>
              <Form method="post" action={formAction}>
                <Hidden action={action} version={version} returnTo={returnTo} />
                <input type="hidden" name="confirmed" value="yes" />
                <p>{t(`actions.confirm.${action}`, { name })}</p>
                <button type="submit" className="button danger" aria-disabled={pending || undefined}>
                  {t(`actions.confirmSubmit.${action}`)}
                </button>
              </Form>
            </details>
          );
        }
        return (
          <Form key={action} method="post" action={formAction} className="inline-form">
            <Hidden action={action} version={version} returnTo={returnTo} />
            <button type="submit" className={action === "enable" || action === "approve" ? "button primary" : "button"} aria-disabled={pending || undefined}>
              {t(`actions.${action}`)}
            </button>
          </Form>
        );
      })}
    </div>
  );
}
