/**
 * The catalog's categories and the shop pages that advertisers target (spec sections 3 and 7:
 * keyword and category hits carry name, level, hierarchies, url, page_type). A product's feed
 * gives its categories as paths, "Grocery > Coffee & tea > Coffee"; every level of a path is a
 * category of its own (Grocery, Grocery > Coffee & tea, …), identified by the slugs of its
 * path, "grocery--coffee-tea--coffee": the ids that campaigns target and the ad server reports
 * events with. Pure.
 */
import { foldText } from "~/domain/search";

export const CATEGORY_PATH_SEPARATOR = ">";
/** Between the slugs of a category id's levels (a slug never holds two dashes in a row). */
export const CATEGORY_ID_SEPARATOR = "--";
/** Deeper levels than this are left out of a path. */
export const MAX_CATEGORY_LEVELS = 8;
/** A keyword is kept to this many characters. */
export const MAX_KEYWORD_LENGTH = 100;

/** The pages a target is shown on: a department's hub (shop) page, a category's list, a product page. */
export const CATEGORY_PAGE_TYPES = ["plp", "hub", "pdp"] as const;
export type CategoryPageType = (typeof CATEGORY_PAGE_TYPES)[number];
export type PageType = CategoryPageType | "search";

export interface CategoryNode {
  id: string;
  /** The category's own name (its path's last segment). */
  name: string;
  /** The names from the top level down to this category. */
  segments: string[];
  /** 1 for a top-level category. */
  level: number;
  parentId: string | null;
}

/** Folded, with every run of other characters than letters and digits turned into one dash. */
export function slug(text: string): string {
  return foldText(text).replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
}

/** The segments of a category path, trimmed, blank ones left out. */
export function categorySegments(path: string): string[] {
  return path
    .split(CATEGORY_PATH_SEPARATOR)
    .map((segment) => segment.replace(/\s+/g, " ").trim())
    .filter((segment) => slug(segment) !== "")
    .slice(0, MAX_CATEGORY_LEVELS);
}

export function categoryIdOf(segments: readonly string[]): string {
  return segments.map(slug).join(CATEGORY_ID_SEPARATOR);
}

/** The category a path names and each of its ancestors, from the top level down; none for a blank path. */
export function categoryNodes(path: string): CategoryNode[] {
  const segments = categorySegments(path);
  return segments.map((name, index) => {
    const own = segments.slice(0, index + 1);
    return { id: categoryIdOf(own), name, segments: own, level: index + 1, parentId: index ? categoryIdOf(segments.slice(0, index)) : null };
  });
}

/** The ids of a category and its ancestors, from the category up to the top level. */
export function categoryLineage(id: string): string[] {
  const slugs = id.split(CATEGORY_ID_SEPARATOR);
  return slugs.map((_, index) => slugs.slice(0, slugs.length - index).join(CATEGORY_ID_SEPARATOR));
}

/** The path as people write it: "Grocery > Coffee & tea > Coffee". */
export function categoryPath(segments: readonly string[]): string {
  return segments.join(` ${CATEGORY_PATH_SEPARATOR} `);
}

/** The key a keyword is known by: folded, inner spaces collapsed, capped; "" when blank. */
export function keywordKey(keyword: string): string {
  return foldText(keyword).slice(0, MAX_KEYWORD_LENGTH).trim();
}

/**
 * The page a category hit is about: the product pages of its products when product categories
 * are asked for (pdp), else a top-level category's hub and any other's product list.
 */
export function categoryPageType(level: number, asked?: CategoryPageType): CategoryPageType {
  if (asked === "pdp") return "pdp";
  return level <= 1 ? "hub" : "plp";
}

function site(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, "");
}

/** The shop's page of a category (its slugs as the path). */
export function categoryUrl(siteUrl: string, id: string): string {
  return `${site(siteUrl)}/c/${id.split(CATEGORY_ID_SEPARATOR).map(encodeURIComponent).join("/")}`;
}

/** The shop's search results page of a keyword. */
export function keywordUrl(siteUrl: string, keyword: string): string {
  return `${site(siteUrl)}/search?q=${encodeURIComponent(keyword)}`;
}
