/**
 * Helpers of the lists that a repository serves in one store query per page plus a check on the
 * page (campaigns, catalog): the search key sent to the store, and pages topped up when the check
 * leaves some rows out.
 */
import { foldText, MAX_TOKEN_LENGTH } from "~/domain/search";
import { pageSize } from "~/storage/document-helpers";
import type { Page } from "~/storage/port";

/**
 * The token a search is looked up by: its longest word, folded and capped (the most selective
 * one, so "SKU-000123" looks up "000123", not "sku"); every other word is checked on the page.
 */
export function selectiveSearchKey(query: string): string | null {
  const words = foldText(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  let best: string | null = null;
  for (const word of words) if (!best || word.length > best.length) best = word;
  return best ? best.slice(0, MAX_TOKEN_LENGTH) : null;
}

/** Store reads a page may take when rows are checked on the page (ADR 7's rule). */
export const MAX_FILL_ROUNDS = 9;

/**
 * One page of `limit` rows that pass `keep`: reads the store again for what is still missing,
 * at most MAX_FILL_ROUNDS times, never more rows than still fit, so that `next` stays exact (it
 * is the store's cursor after the last row read). A very sparse filter can still give a short
 * page with a next cursor.
 */
export async function fillPage<T>(
  read: (limit: number, after: string | null) => Promise<Page<T>>,
  keep: ((item: T) => boolean) | null,
  limit: number | undefined,
  after: string | null | undefined,
): Promise<Page<T>> {
  const want = pageSize(limit);
  const items: T[] = [];
  let cursor = after ?? null;
  for (let round = 0; round < MAX_FILL_ROUNDS; round++) {
    const page = await read(want - items.length, cursor);
    items.push(...(keep ? page.items.filter(keep) : page.items));
    cursor = page.next;
    if (!cursor || items.length >= want || !keep) break;
  }
  return { items, next: cursor };
}

/**
 * Whether a string can be a document id on every adapter (Firestore refuses "/", "." and "..",
 * ids of the form __x__ and ids over 1500 bytes).
 */
export function isDocumentId(id: string): boolean {
  return (
    id.length > 0 &&
    !id.includes("/") &&
    id !== "." &&
    id !== ".." &&
    !/^__.*__$/.test(id) &&
    Buffer.byteLength(id, "utf8") <= 1500
  );
}
