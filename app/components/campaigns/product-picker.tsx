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
import { cn } from "~/utils/misc";

/** The pause after a keystroke before searching. */
const DEBOUNCE_MS = 250;

export interface PickerData {
  query: string;
  suggested: boolean;
  rows: PickerRow[];
}

interface SearchAnswer extends PickerData {
  failure: string | null;
}

interface AddAnswer {
  form?: string;
  failure?: string | null;
  result?: { error?: Record<string, string[] | null> | null };
}

function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
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
}: {
  campaignId: string;
  version: number;
  picker: PickerData | null;
  /** Products already in the campaign (as loaded). */
  productIds: readonly string[];
  availabilityLabel: (a: string) => string;
  partyLabel: (p: PickerRow["party"]) => string;
}) {
  const { t, i18n } = useTranslation(["campaignProductPicker", "campaignProducts"]);
  const root = useRootData();
  const currency = root?.money.currency ?? "EUR";
  const hydrated = useHydrated();
  const location = useLocation();
  const here = `/campaigns/${encodeURIComponent(campaignId)}/products`;
  const inputId = useId();
  const listboxId = `${inputId}-listbox`;
  const helpId = `${inputId}-help`;
  const search = useFetcher<SearchAnswer>();
  const add = useFetcher<AddAnswer>();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announce, setAnnounce] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastAdded = useRef<PickerRow | null>(null);
  const inCampaign = useMemo(() => new Set(productIds), [productIds]);
  const kept = keptParams(location.search);
  const back = location.search;

  const options: PickerRow[] = search.data?.rows ?? [];
  const searching = search.state !== "idle";

  const load = (query: string) => {
    search.load(`/campaigns/${encodeURIComponent(campaignId)}/product-search?${new URLSearchParams({ q: query })}`);
  };

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  // What the search found, said once it answers (derived from the answer shown).
  const found = search.data && search.state === "idle" ? search.data : null;
  const searchMessage = !found
    ? ""
    : found.failure
      ? t(found.failure)
      : found.suggested
        ? t("picker.suggestedCount", { count: found.rows.length })
        : found.rows.length
          ? t("picker.foundCount", { count: found.rows.length })
          : t("picker.noneFound", { query: found.query });

  // What was added (or why not), said once the addition is answered.
  useEffect(() => {
    if (add.state !== "idle" || !lastAdded.current) return;
    const row = lastAdded.current;
    lastAdded.current = null;
    if (add.data?.failure) setAnnounce(`${t(add.data.failure)}. ${translate(t, firstError(add.data) ?? "")}`);
    else setAnnounce(t("picker.added", { title: row.title }));
  }, [add.state, add.data, t]);

  const addRow = (row: PickerRow) => {
    if (row.inCampaign || inCampaign.has(row.id) || row.clashes) return;
    lastAdded.current = row;
    add.submit({ intent: addProductsIntent, version: String(version), ids: row.id, back }, { method: "post", action: here, preventScrollReset: true });
  };

  const onChange = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    setActive(-1);
    setOpen(true);
    setAnnounce("");
    timer.current = setTimeout(() => load(value), DEBOUNCE_MS);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open || !search.data) {
        setOpen(true);
        if (!search.data) load(event.currentTarget.value);
        return;
      }
      if (!options.length) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i < 0 ? (step > 0 ? 0 : options.length - 1) : (i + step + options.length) % options.length));
    } else if (event.key === "Enter") {
      if (open && active >= 0 && options[active]) {
        event.preventDefault();
        addRow(options[active]!);
      }
      // Else the search form is submitted: the page lists the results.
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  const expanded = hydrated && open && !!search.data;
  const activeId = expanded && active >= 0 && options[active] ? `${listboxId}-${active}` : undefined;
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
        <div className="picker-box">
          <input
            id={inputId}
            name="q"
            type="search"
            defaultValue={picker && !picker.suggested ? picker.query : ""}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            aria-describedby={helpId}
            {...(hydrated
              ? {
                  role: "combobox",
                  "aria-expanded": expanded,
                  "aria-controls": listboxId,
                  "aria-autocomplete": "list" as const,
                  "aria-activedescendant": activeId,
                  onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.value),
                  onKeyDown,
                  onFocus: (e: React.FocusEvent<HTMLInputElement>) => {
                    if (!search.data) load(e.currentTarget.value);
                  },
                  onBlur: () => setTimeout(() => setOpen(false), 150),
                }
              : {})}
          />
          <button type="submit" className="button">
            {t("picker.submit")}
          </button>
          {hydrated ? (
            <ul id={listboxId} role="listbox" aria-label={t("picker.listLabel")} className="picker-listbox" hidden={!expanded} aria-busy={searching || undefined}>
              {options.map((row, index) => {
                const note = status(row);
                return (
                  <li
                    key={row.id}
                    id={`${listboxId}-${index}`}
                    role="option"
                    aria-selected={index === active}
                    aria-disabled={note ? true : undefined}
                    className={cn("picker-option", index === active && "picker-option-active", note && "picker-option-disabled")}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => addRow(row)}
                  >
                    <span className="picker-option-title">{row.title}</span>
                    <span className="muted picker-option-details">
                      {details(row)}
                      {note ? ` · ${note}` : ""}
                    </span>
                  </li>
                );
              })}
              {search.data && !options.length ? (
                <li role="option" aria-disabled="true" aria-selected="false" className="picker-option picker-option-disabled">
                  {search.data.failure ? t(search.data.failure) : t("picker.noneFound", { query: search.data.query })}
                </li>
              ) : null}
            </ul>
          ) : null}
        </div>
        <p id={helpId} className="field-help">
          {t(hydrated ? "picker.helpJs" : "picker.help")}
        </p>
      </Form>
      <p className="visually-hidden" aria-live="polite" role="status">
        {announce || searchMessage}
      </p>
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
                      <Form method="post" action={here} preventScrollReset>
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
