/** Wallet building blocks shared by the Wallets tab and the wallet page. */
import { getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { WALLET_STATUSES } from "~/domain/types";
import { WALLET_CURRENCIES } from "~/forms/wallets";
import { Field } from "~/components/forms";
import { SelectField, type AnyField } from "~/components/select-field";

type WalletFieldName = "label" | "currency" | "status" | "dailyBudget" | "budgetEditing" | "external_id" | "tags";

/** The settings of a wallet, for the create and the edit forms (team managers). */
export function WalletFields({ fields, currencyLocked }: { fields: Record<WalletFieldName, AnyField>; currencyLocked?: boolean }) {
  const { t } = useTranslation("wallets");
  return (
    <>
      <Field label={t("fields.label")} inputProps={{ ...getInputProps(fields.label, { type: "text" }), autoComplete: "off" }} errors={fields.label.errors} />
      <div className="field-row">
        <SelectField field={fields.currency} label={t("fields.currency")}>
          {WALLET_CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <SelectField field={fields.status} label={t("fields.status")}>
          {WALLET_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {currencyLocked ? <p className="field-help">{t("form.currencyLockedHelp")}</p> : null}
      <div className="field-row">
        <Field
          label={t("fields.dailyBudget")}
          inputProps={{ ...getInputProps(fields.dailyBudget, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
          errors={fields.dailyBudget.errors}
          help={t("form.dailyBudgetHelp")}
        />
        <Field
          label={t("fields.external_id")}
          inputProps={{ ...getInputProps(fields.external_id, { type: "text" }), autoComplete: "off" }}
          errors={fields.external_id.errors}
        />
      </div>
      <Field
        label={t("fields.tags")}
        inputProps={{ ...getInputProps(fields.tags, { type: "text" }), autoComplete: "off" }}
        errors={fields.tags.errors}
        help={t("form.tagsHelp")}
      />
      <div className="field checkbox">
        <input {...getInputProps(fields.budgetEditing, { type: "checkbox" })} key={fields.budgetEditing.key} aria-describedby={`${fields.budgetEditing.id}-help`} />
        <label htmlFor={fields.budgetEditing.id}>{t("fields.budgetEditing")}</label>
      </div>
      <p id={`${fields.budgetEditing.id}-help`} className="field-help">
        {t("form.budgetEditingHelp")}
      </p>
    </>
  );
}

/** The stored status, or insufficient funds when an active wallet is empty. */
export function WalletStatusBadge({ status, liveStatus }: { status: string; liveStatus: string }) {
  const { t } = useTranslation("wallets");
  return (
    <span className={`wallet-badge wallet-badge-${liveStatus}`}>
      {liveStatus === status ? t(`status.${status}`) : t(`liveStatus.${liveStatus}`)}
    </span>
  );
}

/** The wallet's daily budget reached today: its campaigns are stopped until tomorrow. */
export function DailyBudgetReached({ reached }: { reached: boolean }) {
  const { t } = useTranslation("wallets");
  return reached ? <span className="cap-notices wallet-cap">{t("dailyBudgetReached")}</span> : null;
}

export function RecentlyUpdatedBadge() {
  const { t } = useTranslation("wallets");
  return <span className="wallet-badge wallet-badge-recent">{t("recentlyUpdated")}</span>;
}

/** Ad spend versus funding (ADR 41): a meter with its numbers in words beside it. */
export function SpentMeter({ share, spend, funded, percent, id }: { share: number; spend: string; funded: string; percent: string; id: string }) {
  const { t } = useTranslation("wallets");
  return (
    <div className="spent-meter">
      <meter id={id} min={0} max={1} value={share} aria-label={t("spent.label")} aria-describedby={`${id}-text`} />
      <span id={`${id}-text`} className="spent-text">
        {t("spent.text", { spend, funded, percent })}
      </span>
    </div>
  );
}

/**
 * A wallet's runway in a list: days to go and the day it should end by; before a full day of ad
 * spend (ADR 44, `pendingFrom` set), that there is not enough spend yet; before any, none.
 */
export function RunwayText({
  runway,
  pendingFrom = null,
}: {
  runway: { daysToGo: number; daysToGoText: string; shouldEndBy: string; averageDailySpend: string } | null;
  pendingFrom?: string | null;
}) {
  const { t } = useTranslation("wallets");
  if (!runway) return <span className="muted">{t(pendingFrom ? "runway.notYet" : "runway.none")}</span>;
  return <span>{t("runway.short", { count: runway.daysToGo, days: runway.daysToGoText, date: runway.shouldEndBy })}</span>;
}
