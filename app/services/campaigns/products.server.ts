/**
 * A campaign's products (issue 4 section 4): the list as the Products section shows it, and each
 * change (add by ids, switch on/off, remove, positions) applied with the domain rules of
 * campaign-products.ts and saved through saveSection (rights, version check, audit and publication
 * in one transaction).
 */
import { checkPartyMix, type Party } from "~/domain/availability";
import { inProductScope, productScopeFor } from "~/domain/brand-scope";
import {
  addOffers,
  exceedsProductWarning,
  hasOffer,
  MAX_PRODUCTS,
  moveOffer,
  orderedOffers,
  placeSlice,
  planAddition,
  PRODUCT_WARNING_THRESHOLD,
  PRODUCTS_PAGE_SIZE,
  productsPage,
  type ProductsPage,
  removeOffers,
  setOfferPositions,
  setOffersOn,
  type AdditionPlan,
  type ProductsChange,
} from "~/domain/campaigns/products";
import type { Campaign } from "~/domain/campaigns/campaign";
import type { Product } from "~/domain/catalog";
import type { User } from "~/domain/types";
import type {
  AddProductsValue,
  BulkProductsValue,
  MoveProductValue,
  RemoveProductValue,
  SavePositionsValue,
  ToggleProductValue,
} from "~/forms/campaigns/products";
import { withValues } from "~/domain/message";
import { editRefusal, saveSection, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { fail, failureMessage, type Failure, type Success } from "~/domain/result";
import { getStorage } from "~/services/storage.server";
import { pruneTargetsOfRemovedProducts } from "~/services/campaigns/keywords.server";

/** The failure titles of spec section 8 (i18n keys). */
export const FAILURE = {
  upsertProduct: "campaignProducts:failure.upsertProduct",
  upsertMassProduct: "campaignProducts:failure.upsertMassProduct",
  removeProduct: "campaignProducts:failure.removeProduct",
  noFetchedCampaign: "campaignProducts:failure.noFetchedCampaign",
} as const;
export type FailureTitle = (typeof FAILURE)[keyof typeof FAILURE];

/** A refused products change: the use case's failure, under its section 8 title, with its message. */
export type ProductsFailure = Failure & { failure: FailureTitle; message: string };
export type ProductsOutcome = (Success<Campaign> & { campaign: Campaign; warnings: string[] }) | ProductsFailure;

function refusedAs(failure: FailureTitle, result: Failure): ProductsFailure {
  return { ...result, failure, message: failureMessage(result) };
}

export type AddOutcome =
  | (Extract<ProductsOutcome, { ok: true }> & { plan: AdditionPlan })
  | (Extract<ProductsOutcome, { ok: false }> & { plan?: AdditionPlan });

// ---------------------------------------------------------------------------------------------
// The list

export interface ProductRow {
  id: string;
  /** 0-based place in the whole list (the page shows a part of it). */
  index: number;
  title: string;
  image_link: string;
  availability: string;
  party: Party | null;
  on: boolean;
  pos: number | null;
}

export interface ProductsView {
  /** The products of the page shown. */
  products: ProductRow[];
  /** Which page of the list, and which of its products, are shown. */
  paging: ProductsPage;
  /** Every product of the campaign. */
  count: number;
  onCount: number;
  /** The party the campaign is bound to (1P, 3P, 1P_3P), or null without products. */
  party: Party | null;
  /** More than 200 products (spec section 9). */
  tooMany: boolean;
  threshold: number;
}

/**
 * One page of the campaign's products, in display order (ADR 48: a campaign may hold thousands,
 * and each row carries its forms); the counts are the whole campaign's.
 */
export function presentProducts(campaign: Campaign, page = 1): ProductsView {
  const ordered = orderedOffers(campaign.offers ?? {});
  const paging = productsPage(ordered.length, page);
  // A stored offer missing fields (one written by a forged request before own keys were checked)
  // still lists, under its id, so that it can be removed.
  const products = ordered.slice(paging.offset, paging.offset + PRODUCTS_PAGE_SIZE).map((o, i) => ({
    id: o.id,
    index: paging.offset + i,
    title: typeof o.title === "string" && o.title ? o.title : o.id,
    image_link: typeof o.image_link === "string" ? o.image_link : "",
    availability: typeof o.availability === "string" ? o.availability : "",
    party: o.party,
    on: o.on,
    pos: o.pos,
  }));
  const mix = checkPartyMix(ordered.map((p) => p.party));
  return {
    products,
    paging,
    count: ordered.length,
    onCount: ordered.filter((p) => p.on).length,
    party: mix.ok ? mix.value : null,
    tooMany: exceedsProductWarning(ordered.length),
    threshold: PRODUCT_WARNING_THRESHOLD,
  };
}

// ---------------------------------------------------------------------------------------------
// Changes

function productWarnings(campaign: Pick<Campaign, "offers">): string[] {
  const count = Object.keys(campaign.offers).length;
  return exceedsProductWarning(count) ? [withValues("campaignProducts:warnings.tooMany", { count, max: PRODUCT_WARNING_THRESHOLD })] : [];
}

function refusedChange(change: Extract<ProductsChange, { ok: false }>, failure: FailureTitle): ProductsOutcome {
  const ids = (change.ids ?? []).join(", ");
  const message =
    change.reason === "campaign.products.mixedParty"
      ? "campaignProducts:errors.mixedParty"
      : change.reason === "campaign.products.notInCampaign"
        ? withValues("campaignProducts:errors.notInCampaign", { ids })
        : change.reason === "campaign.products.tooMany"
          ? withValues("campaignProducts:errors.tooMany", { max: MAX_PRODUCTS, total: change.total ?? 0 })
          : change.reason === "campaign.products.tooLarge"
            ? withValues("campaignProducts:errors.tooLarge", { total: change.total ?? 0 })
            : "campaignProducts:errors.nothingToAdd";
  return refusedAs(failure, fail("invalid", message));
}

async function saveChange(user: User, ctx: CampaignContext, change: ProductsChange, version: number, failure: FailureTitle): Promise<ProductsOutcome> {
  if (!change.ok) return refusedChange(change, failure);
  const next = change.value;
  const result = await saveSection(user, ctx, { offers: next.offers, productIds: next.productIds }, version, productWarnings(next));
  if (result.ok) return { ...result, campaign: result.value, warnings: result.warnings ?? [] };
  return refusedAs(failure, result);
}

/** The one edit rule (rights and status), refused under the change's title. */
export function denied(user: User, ctx: CampaignContext, failure: FailureTitle): ProductsFailure | null {
  const refusal = editRefusal(user, ctx);
  return refusal ? refusedAs(failure, refusal) : null;
}

/**
 * The catalog products of the ids typed: exact ids first, then the upper-case spelling of those
 * not found (catalog ids are upper case: "sku-000123" finds SKU-000123).
 */
export async function findCatalogProducts(ids: readonly string[]): Promise<Map<string, Product>> {
  const found = new Map<string, Product>();
  for (const product of await getStorage().catalog.getMany(ids)) found.set(product.id, product);
  const retry = ids.filter((id) => !found.has(id) && id.toUpperCase() !== id);
  if (retry.length) {
    const upper = new Map((await getStorage().catalog.getMany(retry.map((id) => id.toUpperCase()))).map((p) => [p.id, p]));
    for (const id of retry) {
      const product = upper.get(id.toUpperCase());
      if (product) found.set(id, product);
    }
  }
  return found;
}

/**
 * Adds the catalog products among the ids typed; unknown ones and those already in the campaign
 * are reported in the plan. Refused whole when it would mix 1P and 3P products.
 */
export async function addProducts(user: User, ctx: CampaignContext, value: Pick<AddProductsValue, "ids" | "version">, title?: FailureTitle): Promise<AddOutcome> {
  const failure = title ?? (value.ids.length > 1 ? FAILURE.upsertMassProduct : FAILURE.upsertProduct);
  const refused = denied(user, ctx, failure);
  if (refused) return refused;
  // A supplier sponsors only its team's brands (and, for a marketplace seller, the products
  // attributed to its seller id): other products are unknown to it, as search does not show them.
  const scope = productScopeFor(user.claims.type, [ctx.team]);
  const found = new Map([...(await findCatalogProducts(value.ids))].filter(([, product]) => inProductScope(product, scope)));
  const offers = ctx.campaign.offers ?? {};
  const plan = planAddition(offers, value.ids, found);
  if (!plan.added.length) return { ...refusedAs(failure, fail("invalid", "campaignProducts:errors.nothingToAdd")), plan };
  const byId = new Map([...found.values()].map((p) => [p.id, p]));
  const change = addOffers(
    offers,
    plan.added.map((id) => byId.get(id)!),
  );
  const outcome = await saveChange(user, ctx, change, value.version, failure);
  if (!change.ok && change.reason === "campaign.products.mixedParty" && !outcome.ok) {
    return { ...outcome, fieldErrors: { ids: [withValues("campaignProducts:errors.mixedPartyIds", { ids: (change.ids ?? []).join(", ") })] }, plan };
  }
  return { ...outcome, plan };
}

export async function toggleProduct(user: User, ctx: CampaignContext, value: ToggleProductValue): Promise<ProductsOutcome> {
  return denied(user, ctx, FAILURE.upsertProduct) ?? saveChange(user, ctx, setOffersOn(ctx.campaign.offers ?? {}, [value.productId], value.state === "on"), value.version, FAILURE.upsertProduct);
}

export async function removeProduct(user: User, ctx: CampaignContext, value: RemoveProductValue): Promise<ProductsOutcome> {
  return withAutoTargeting(user, [value.productId], await (denied(user, ctx, FAILURE.removeProduct) ?? saveChange(user, ctx, removeOffers(ctx.campaign.offers ?? {}, [value.productId]), value.version, FAILURE.removeProduct)));
}

export async function moveProduct(user: User, ctx: CampaignContext, value: MoveProductValue): Promise<ProductsOutcome> {
  return denied(user, ctx, FAILURE.upsertProduct) ?? saveChange(user, ctx, moveOffer(ctx.campaign.offers ?? {}, value.productId, value.direction), value.version, FAILURE.upsertProduct);
}

/**
 * Saves the positions typed, or, with `slice` (drag and drop on a page of the list), the page's
 * products in the order sent, the whole list numbered around them (placeSlice).
 */
export async function savePositions(user: User, ctx: CampaignContext, value: SavePositionsValue): Promise<ProductsOutcome> {
  const offers = ctx.campaign.offers ?? {};
  const change =
    value.slice === null
      ? setOfferPositions(offers, value.positions)
      : placeSlice(
          offers,
          value.positions.map((p) => p.id),
          value.slice,
        );
  return denied(user, ctx, FAILURE.upsertMassProduct) ?? saveChange(user, ctx, change, value.version, FAILURE.upsertMassProduct);
}

/** The products a bulk action acts on: those selected (on the page shown), or every product of the campaign. */
export function bulkTargets(ctx: CampaignContext, value: Pick<BulkProductsValue, "scope" | "selected">): string[] {
  return value.scope === "campaign" ? Object.keys(ctx.campaign.offers ?? {}) : value.selected;
}

/**
 * Switches the selected products on or off, or removes them (after the confirmation step); or
 * switches every product of the campaign on or off (after its confirmation step, ADR 48).
 */
export async function bulkProducts(user: User, ctx: CampaignContext, value: BulkProductsValue): Promise<ProductsOutcome> {
  const offers = ctx.campaign.offers ?? {};
  // A removal is of the products selected only (the form refuses one of every product).
  if (value.bulk === "remove") {
    return withAutoTargeting(user, value.selected, await (denied(user, ctx, FAILURE.removeProduct) ?? saveChange(user, ctx, removeOffers(offers, value.selected), value.version, FAILURE.removeProduct)));
  }
  return (
    denied(user, ctx, FAILURE.upsertMassProduct) ??
    saveChange(user, ctx, setOffersOn(offers, bulkTargets(ctx, value), value.bulk === "on"), value.version, FAILURE.upsertMassProduct)
  );
}

/** The products a bulk removal is about to remove, for its confirmation step. */
export function productsToConfirm(ctx: CampaignContext, ids: readonly string[]): { id: string; title: string }[] {
  const offers = ctx.campaign.offers ?? {};
  return ids.filter((id) => hasOffer(offers, id)).map((id) => ({ id, title: offers[id]!.title }));
}

// ---------------------------------------------------------------------------------------------
// Auto targeting (issue 10 section 2): products removed from the campaign leave every keyword
// and category target's offers (app/services/campaigns/keywords.server.ts).

async function withAutoTargeting(user: User, removed: readonly string[], outcome: ProductsOutcome): Promise<ProductsOutcome> {
  if (outcome.ok) await pruneTargetsOfRemovedProducts(user, outcome.campaign, removed);
  return outcome;
}
