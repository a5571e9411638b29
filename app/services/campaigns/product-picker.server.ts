/**
 * The Products section's reading and import helpers (issue 10 section 2): the picker's search and
 * suggestions (through the one search client, fetchSearch, with the user's identity), the
 * products' statistics for a period (the products variant of /metrics, through fetchMetrics),
 * and the CSV import of SKUs (one save: all the known products, or nothing).
 */
import { scopeOfTeams } from "~/domain/brand-scope";
import { parseSkuCsv } from "~/domain/campaigns/product-csv";
import { decodeTextFile } from "~/domain/text-file";
import { PICKER_QUERY_MAX, PICKER_SIZE, pickerRows, SUGGESTION_POOL, suggestProducts, type PickerRow } from "~/domain/campaigns/product-picker";
import { MAX_GROUP_ROWS } from "~/domain/metrics/contract";
import { derive, type Derived } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { fail, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import type { ImportProductsValue } from "~/forms/campaigns/product-import";
import type { CampaignContext } from "~/services/campaigns/campaigns.server";
import { addProducts, denied, FAILURE, type AddOutcome, type ProductsFailure } from "~/services/campaigns/products.server";
import { fetchMetrics, rowsByKey } from "~/services/metrics.server";
import { fetchSearch } from "~/services/search.server";
import { withValues } from "~/domain/message";

/** Spec section 8: the title of a failed read of the Products section. */
export const FETCH_PRODUCTS_FAILURE = "campaignProductPicker:failure.fetch";

const PICKER_FIELDS = ["title", "image_link", "availability", "price", "party", "brand"];

export interface PickerResult {
  query: string;
  /** True: no query, the rows are suggestions. */
  suggested: boolean;
  rows: PickerRow[];
}

/**
 * The products matching what was typed (or, for an empty query, the suggestions), among those the
 * user may sponsor for this campaign: the search service scopes a supplier to the campaign's team.
 */
export async function searchCampaignProducts(user: User, ctx: CampaignContext, rawQuery: string): Promise<Result<PickerResult>> {
  const query = rawQuery.trim().slice(0, PICKER_QUERY_MAX);
  const offers = ctx.campaign.offers ?? {};
  if (!query) {
    const pool = await fetchSearch(user, "product", { size: SUGGESTION_POOL, team: ctx.team.id, fields: [...PICKER_FIELDS, "metrics"] }, FETCH_PRODUCTS_FAILURE);
    if (!pool.ok) return pool;
    return ok({ query, suggested: true, rows: suggestProducts(pool.value.hits, offers, scopeOfTeams([ctx.team])) });
  }
  const found = await fetchSearch(user, "product", { query, size: PICKER_SIZE, team: ctx.team.id, fields: PICKER_FIELDS }, FETCH_PRODUCTS_FAILURE);
  if (!found.ok) return found;
  return ok({ query, suggested: false, rows: pickerRows(found.value.hits, offers) });
}

/**
 * Each product's figures of the period (only products with figures are present): of the products
 * given (the page shown, ADR 48), or of every product of the campaign.
 */
export async function productFigures(user: User, ctx: CampaignContext, period: Period, productIds?: readonly string[]): Promise<Result<Record<string, Derived>>> {
  // The contract's filter values are at most 200 characters; a longer id is read unfiltered.
  const only = productIds && productIds.every((id) => id.length <= 200) ? { product: [...productIds] } : {};
  const response = await fetchMetrics(
    user,
    { dateFrom: period.from, dateTo: period.to, filters: { terms: { campaign: [ctx.campaign.id], ...only } }, groups: { terms: ["product"], size: MAX_GROUP_ROWS } },
    FETCH_PRODUCTS_FAILURE,
  );
  if (!response.ok) return response;
  const out: Record<string, Derived> = {};
  for (const [id, measures] of rowsByKey(response.value, "product")) out[id] = derive(measures);
  return ok(out);
}

export interface ImportReport {
  /** The file's identifier column, as written. */
  column: string;
  imported: number;
  present: string[];
  unknown: string[];
  /** Line numbers of the lines without a value. */
  bad: number[];
}

export type ImportOutcome = { ok: true; report: ImportReport; warnings: string[]; /** The campaign's products after the import. */ total: number } | (ProductsFailure & { report: ImportReport | null });

/**
 * Imports the SKUs of a CSV file: the known ones are added in one save (rights, version, the
 * 1P/3P rule: all of them or none); unknown identifiers and lines without a value are reported.
 */
export async function importProducts(user: User, ctx: CampaignContext, value: ImportProductsValue): Promise<ImportOutcome> {
  const title = FAILURE.upsertMassProduct;
  const refused = denied(user, ctx, title);
  if (refused) return { ...refused, report: null };
  // UTF-8, or UTF-16 with its mark (a spreadsheet's "Unicode text"); other bytes are refused (ADR 47).
  const decoded = decodeTextFile(new Uint8Array(await value.file.arrayBuffer()));
  const csv = decoded.ok ? parseSkuCsv(decoded.text) : decoded;
  if (!csv.ok) {
    const message = withValues(`campaignProductPicker:import.errors.${csv.reason}`, {});
    return { ...fail("invalid", message), failure: title, message, report: null };
  }
  const base = { column: csv.column, bad: csv.bad };
  if (!csv.ids.length) {
    const message = "campaignProductPicker:import.errors.noValues";
    return { ...fail("invalid", message), failure: title, message, report: { ...base, imported: 0, present: [], unknown: [] } };
  }
  const outcome: AddOutcome = await addProducts(user, ctx, { ids: csv.ids, version: value.version }, title);
  const plan = outcome.plan ?? { added: [], present: [], unknown: [] };
  const report: ImportReport = { ...base, imported: outcome.ok ? plan.added.length : 0, present: plan.present, unknown: plan.unknown };
  if (!outcome.ok) {
    const message = outcome.fieldErrors?.ids?.[0] ?? outcome.message;
    return { ...outcome, message, report };
  }
  return { ok: true, report, warnings: outcome.warnings, total: Object.keys(outcome.campaign.offers).length };
}
