/**
 * The category search of a campaign's Categories section (ADR 35): a GET form (`cq`, `ckind`)
 * whose hits the page lists with their Add forms (bid, placement, products); with JavaScript the
 * field is the shared combobox (SearchCombobox, as the product picker): typing searches through
 * /campaigns/{id}/category-search, ↓/↑ choose a category and Enter adds it with the campaign's
 * bid and the default placement (the add-category form's action, as its Add button with nothing
 * set), Escape closes the list. With nothing typed, the categories of the campaign's products.
 */
import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { translate } from "~/components/campaigns/targets-table";
import { SearchCombobox } from "~/components/search-combobox";
import { useHydrated } from "~/components/use-hydrated";
import { addCategoryIntent } from "~/forms/campaigns/keywords";
import type { CategoryOption } from "~/domain/campaigns/category-picker";

type Kind = "category" | "productCategory";

interface AddAnswer {
  form?: string;
  failure?: string;
  message?: string;
}

export function CategorySearch({ campaignId, version, query, kind, here }: { campaignId: string; version: number; query: string; kind: Kind; here: string }) {
  const { t } = useTranslation(["pickers", "campaignKeywords"]);
  const { t: tc } = useTranslation();
  const hydrated = useHydrated();
  const [kindNow, setKindNow] = useState<Kind>(kind);
  const add = useFetcher<AddAnswer>();
  const [announce, setAnnounce] = useState("");
  const lastAdded = useRef<CategoryOption | null>(null);

  // What was added (or why not), said once the addition is answered.
  useEffect(() => {
    if (add.state !== "idle" || !lastAdded.current) return;
    const row = lastAdded.current;
    lastAdded.current = null;
    if (add.data?.failure) setAnnounce(`${tc(add.data.failure)}. ${translate(tc, add.data.message ?? "")}`);
    else setAnnounce(t("pickers:categories.added", { name: row.name }));
  }, [add.state, add.data, t, tc]);

  const addRow = (row: CategoryOption) => {
    lastAdded.current = row;
    add.submit({ intent: addCategoryIntent, version: String(version), kind: kindNow, categoryId: row.id }, { method: "post", action: here, preventScrollReset: true });
  };
  const addError = add.state === "idle" && add.data?.failure ? add.data : null;

  return (
    <>
      <Form method="get" action={here} className="targets-search" role="search" aria-label={t("campaignKeywords:categories.searchLabel")}>
        <div className="field category-search-field">
          <label htmlFor="category-q">{t("campaignKeywords:categories.search")}</label>
          <SearchCombobox<CategoryOption>
            inputId="category-q"
            name="cq"
            defaultValue={query}
            describedBy={hydrated ? "category-q-help" : undefined}
            searchUrl={(q) => `/campaigns/${encodeURIComponent(campaignId)}/category-search?${new URLSearchParams({ q, kind: kindNow })}`}
            reloadKey={kindNow}
            listLabel={t("pickers:categories.listLabel")}
            optionKey={(row) => row.id}
            renderOption={(row) => (
              <>
                <span className="picker-option-title">{row.name}</span>
                <span className="muted picker-option-details">
                  {t("campaignKeywords:categories.floor", { floor: row.floor ?? "—" })}
                  {row.suggested ? ` · ${t("campaignKeywords:categories.suggested", { bid: row.suggested })}` : ""}
                </span>
              </>
            )}
            unavailable={(row) => (row.inCampaign ? t("pickers:inCampaign") : null)}
            onPick={addRow}
            messages={{
              found: (count) => t("pickers:categories.foundCount", { count }),
              suggested: (count) => (count ? t("pickers:categories.suggestedCount", { count }) : t("pickers:categories.noSuggestions")),
              none: (q) => t("pickers:categories.noneFound", { query: q }),
              failure: (title) => tc(title),
            }}
            announce={announce}
            onTyping={() => setAnnounce("")}
          />
          {hydrated ? (
            <p id="category-q-help" className="field-help">
              {t("pickers:categories.helpJs")}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="category-kind">{t("campaignKeywords:categories.kind")}</label>
          <select id="category-kind" name="ckind" defaultValue={kind} onChange={(e) => setKindNow(e.currentTarget.value === "productCategory" ? "productCategory" : "category")}>
            <option value="category">{t("campaignKeywords:categories.kindCategory")}</option>
            <option value="productCategory">{t("campaignKeywords:categories.kindProductCategory")}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t("campaignKeywords:categories.searchSubmit")}
        </button>
      </Form>
      {addError ? <FormAlert title={tc(addError.failure!)} message={translate(tc, addError.message ?? "campaignKeywords:errors.badRequest")} /> : null}
    </>
  );
}
