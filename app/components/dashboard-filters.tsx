/**
 * The dashboard's filters: their fields (inside the period's GET form, so they live in the URL
 * and work without JavaScript), the line naming the active ones with "Clear filters", and the
 * note saying which filters of the address were left out. Placements, campaign types and devices
 * are named as the campaign's Targeting and Statistics tabs name them.
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DASHBOARD_FILTERS, type DashboardFilters, type DroppedFilter } from "~/domain/metrics/dashboard-filters";
import { labelDefault, placementLabelKey } from "~/domain/placement-labels";

export interface FilterOptions {
  teams: { id: string; name: string }[];
  moreTeams: boolean;
  wallets: { id: string; label: string; teamName: string }[];
  placements: readonly string[];
  types: readonly string[];
  devices: readonly string[];
}

/** The words of a placement, campaign type or device value. */
export function useFilterValueLabel() {
  const { t } = useTranslation();
  return {
    placement: (value: string) => t(placementLabelKey(value), labelDefault(value)),
    type: (value: string) => t(`campaigns:types.${value}`),
    device: (value: string) => t(`campaignTargeting:devices.${value}`),
  };
}

/** The filter fields: each a select whose first choice is "all". */
export function DashboardFilterFields({ filters, options }: { filters: DashboardFilters; options: FilterOptions }) {
  const { t } = useTranslation("metrics");
  const label = useFilterValueLabel();
  const walletTeams = [...new Set(options.wallets.map((w) => w.teamName))];
  const walletHelp = options.wallets.length === 0 ? (filters.team ? "filters.noWallets" : "filters.walletHelp") : null;
  return (
    <fieldset className="dashboard-filters">
      <legend>{t("filters.legend")}</legend>
      <div className="field">
        <label htmlFor="filter-team">{t("filters.team")}</label>
        <select id="filter-team" name="team" defaultValue={filters.team ?? ""} aria-describedby={options.moreTeams ? "filter-team-help" : undefined}>
          <option value="">{t("filters.allTeams")}</option>
          {options.teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
        {options.moreTeams ? (
          <p id="filter-team-help" className="field-help">
            {t("filters.moreTeams")}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="filter-wallet">{t("filters.wallet")}</label>
        <select id="filter-wallet" name="wallet" defaultValue={filters.wallet ?? ""} aria-describedby={walletHelp ? "filter-wallet-help" : undefined}>
          <option value="">{t("filters.allWallets")}</option>
          {walletTeams.length > 1
            ? walletTeams.map((teamName) => (
                <optgroup key={teamName} label={teamName}>
                  {options.wallets
                    .filter((w) => w.teamName === teamName)
                    .map((w) => (
                      <option key={w.id} value={w.id}>
                        {w.label}
                      </option>
                    ))}
                </optgroup>
              ))
            : options.wallets.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.label}
                </option>
              ))}
        </select>
        {walletHelp ? (
          <p id="filter-wallet-help" className="field-help">
            {t(walletHelp)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="filter-placement">{t("filters.placement")}</label>
        <select id="filter-placement" name="placement" defaultValue={filters.placement ?? ""}>
          <option value="">{t("filters.allPlacements")}</option>
          {options.placements.map((value) => (
            <option key={value} value={value}>
              {label.placement(value)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-type">{t("filters.type")}</label>
        <select id="filter-type" name="type" defaultValue={filters.type ?? ""}>
          <option value="">{t("filters.allTypes")}</option>
          {options.types.map((value) => (
            <option key={value} value={value}>
              {label.type(value)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-device">{t("filters.device")}</label>
        <select id="filter-device" name="device" defaultValue={filters.device ?? ""}>
          <option value="">{t("filters.allDevices")}</option>
          {options.devices.map((value) => (
            <option key={value} value={value}>
              {label.device(value)}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}

/** The active filters, named, and the link clearing them (the period and the tab kept). */
export function ActiveFilters({ filters, names, clearHref }: { filters: DashboardFilters; names: { team: string | null; wallet: string | null }; clearHref: string }) {
  const { t } = useTranslation("metrics");
  const label = useFilterValueLabel();
  const value = (name: (typeof DASHBOARD_FILTERS)[number]): string | null => {
    const v = filters[name];
    if (!v) return null;
    if (name === "team") return names.team ?? v;
    if (name === "wallet") return names.wallet ?? v;
    return label[name](v);
  };
  const active = DASHBOARD_FILTERS.map((name) => [name, value(name)] as const).filter(([, v]) => v !== null);
  if (active.length === 0) return null;
  return (
    <div className="active-filters">
      <span id="active-filters-title">{t("filters.active")}</span>
      <ul aria-labelledby="active-filters-title">
        {active.map(([name, v]) => (
          <li key={name}>{t("filters.activeItem", { name: t(`filters.${name}`), value: v })}</li>
        ))}
      </ul>
      <Link to={clearHref}>{t("filters.clear")}</Link>
    </div>
  );
}

/** Says which filters of the address were left out, and why. */
export function DroppedFilters({ dropped }: { dropped: DroppedFilter[] }) {
  const { t } = useTranslation("metrics");
  if (dropped.length === 0) return null;
  return (
    <div className="notice dropped-filters" role="status">
      <ul>
        {dropped.map((d) => (
          <li key={`${d.filter}-${d.reason}`}>{t(d.reason === "notOfTeam" ? "filters.dropped.walletNotOfTeam" : `filters.dropped.${d.filter}`)}</li>
        ))}
      </ul>
    </div>
  );
}
