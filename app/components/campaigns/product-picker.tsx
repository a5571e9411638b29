/**
 * The product picker of a campaign's Products section (issue 10 section 2).
 *
 * Without JavaScript: a GET search form (`q`) whose results (or, with nothing typed, the
 * suggestions) the page lists, each with an "Add" button (a POST form, intent add-products).
 * With JavaScript: the same field becomes a combobox (ARIA 1.2 pattern): typing searches after a
 * pause through the picker's resource route; ↓/↑ move through the options, Enter adds the active
 * one, Escape closes the list; a live region says how many products were found and what was
 * added. Adding goes through the same action as the Add buttons.
 */
import { Form, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import type { PickerRow } from "~/domain/campaigns/product-picker";
import { splitMessage } from "~/domain/message";
import { formatMoney } from "~/domain/money";
import { addProductsIntent } from "~/forms/campaigns/products";
import { useRootData } from "~/root";
import { SearchCombobox } from "~/components/search-combobox";
import { useHydrated } from "~/components/use-hydrated";

export interface PickerData {
  query: string;
  suggested: boolean;
  rows: PickerRow[];
}

interface AddAnswer {
  form?: string;
  failure?: string | null;
  result?: { error?: Record<string, string[] | null> | null };
}

/** The URL values the page keeps (the statistics' period) besides the query. */
function keptParams(search: string): [string, string][] {
  return [...new URLSearchParams(search)].filter(([name]) => name !== "q" && name !== "moved" && name !== "dir");
}

export function ProductPicker({
  campaignId,
  version,
  picker,
  productIds,
  availabilityLabel,
  partyLabel,
  action,
}: {
  campaignId: string;
  version: number;
  picker: PickerData | null;
  /** Products already in the campaign (as loaded). */
  productIds: readonly string[];
  availabilityLabel: (a: string) => string;
  partyLabel: (p: PickerRow["party"]) => string;
  /** The page's own address (its page, period and search, ADR 48): an answer rendered without JavaScript is of that page. */
  action: string;
}) {
  const { t, i18n } = useTranslation(["campaignProductPicker", "campaignProducts"]);
  const root = useRootData();
  const currency = root?.money.currency ?? "EUR";
  const hydrated = useHydrated();
  const location = useLocation();
  const here = `/campaigns/${encodeURIComponent(campaignId)}/products`;
  const inputId = useId();
  const helpId = `${inputId}-help`;
  const add = useFetcher<AddAnswer>();
  const [announce, setAnnounce] = useState("");
  const lastAdded = useRef<PickerRow | null>(null);
  const inCampaign = useMemo(() => new Set(productIds), [productIds]);
  const kept = keptParams(location.search);
  const back = location.search;

  // What was added (or why not), said once the addition is answered.
  useEffect(() => {
    if (add.state !== "idle" || !lastAdded.current) return;
    const row = lastAdded.current;
    lastAdded.current = null;
    if (add.data?.failure) setAnnounce(`${t(add.data.failure)}. ${translate(t, firstError(add.data) ?? "")}`);
    else setAnnounce(t("picker.added", { title: row.title }));
  }, [add.state, add.data, t]);

  const addRow = (row: PickerRow) => {
    lastAdded.current = row;
    add.submit({ intent: addProductsIntent, version: String(version), ids: row.id, back }, { method: "post", action, preventScrollReset: true });
  };

  const addError = add.state === "idle" && add.data?.failure ? add.data : null;

  const status = (row: PickerRow) =>
    row.inCampaign || inCampaign.has(row.id) ? t("picker.inCampaign") : row.clashes ? t("picker.clashes") : null;

  const details = (row: PickerRow) =>
    [row.id, row.brand, availabilityLabel(row.availability), row.party ? partyLabel(row.party) : null, row.price !== null ? formatMoney(row.price, currency, i18n.language) : null]
      .filter(Boolean)
      .join(" · ");

  const serverRows = picker?.rows ?? [];
  return (
    <section className="product-picker" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>{t("picker.title")}</h3>
      <Form method="get" action={here} role="search" className="picker-form" preventScrollReset>
        {kept.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor={inputId}>{t("picker.label")}</label>
        <SearchCombobox<PickerRow>
          inputId={inputId}
          name="q"
          defaultValue={picker && !picker.suggested ? picker.query : ""}
          describedBy={helpId}
          searchUrl={(query) => `/campaigns/${encodeURIComponent(campaignId)}/product-search?${new URLSearchParams({ q: query })}`}
          listLabel={t("picker.listLabel")}
          optionKey={(row) => row.id}
          renderOption={(row) => (
            <>
              <span className="picker-option-title">{row.title}</span>
              <span className="muted picker-option-details">{details(row)}</span>
            </>
          )}
          unavailable={status}
          onPick={addRow}
          messages={{
            found: (count) => t("picker.foundCount", { count }),
            suggested: (count) => (count ? t("picker.suggestedCount", { count }) : t("picker.noSuggestions")),
            none: (query) => t("picker.noneFound", { query }),
            failure: (title) => t(title),
          }}
          announce={announce}
          onTyping={() => setAnnounce("")}
        >
          <button type="submit" className="button">
            {t("picker.submit")}
          </button>
        </SearchCombobox>
        <p id={helpId} className="field-help">
          {t(hydrated ? "picker.helpJs" : "picker.help")}
        </p>
      </Form>
      {addError ? <FormAlert title={t(addError.failure!)} message={translate(t, firstError(addError) ?? "campaignProducts:errors.nothingToAdd")} /> : null}

      {picker ? (
        <>
          <h4 className="picker-results-title">{picker.suggested ? t("picker.suggestions") : t("picker.results", { query: picker.query })}</h4>
          {serverRows.length === 0 ? (
            <p className="muted">{picker.suggested ? t("picker.noSuggestions") : t("picker.noneFound", { query: picker.query })}</p>
          ) : (
            <ul className="picker-results">
              {serverRows.map((row) => {
                const note = status(row);
                return (
                  <li key={row.id} className="picker-result">
                    <span className="picker-result-text">
                      <strong>{row.title}</strong>
                      <br />
                      <span className="muted">{details(row)}</span>
                    </span>
                    {note ? (
                      <span className="badge picker-result-note">{note}</span>
                    ) : (
                      <Form method="post" action={action} preventScrollReset>
                        <input type="hidden" name="intent" value={addProductsIntent} />
                        <input type="hidden" name="version" value={version} />
                        <input type="hidden" name="ids" value={row.id} />
                        <input type="hidden" name="back" value={back} />
                        <button type="submit" className="button products-small">
                          {t("picker.add")}
                          <span className="visually-hidden"> {row.title}</span>
                        </button>
                      </Form>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      ) : null}
    </section>
  );
}

function firstError(answer: AddAnswer): string | null {
  const errors = answer.result?.error ?? {};
  return errors[""]?.[0] ?? Object.values(errors).flat().find((e): e is string => !!e) ?? null;
}

function translate(t: (key: string, options?: Record<string, unknown>) => string, message: string): string {
  const { key, values } = splitMessage(message);
  return t(key, values);
}
