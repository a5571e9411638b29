/**
 * How an index follows the catalog through the storage port (ADR 20), whichever adapter serves
 * it: rebuilt when it was built from another catalog (or never), else only the products written
 * since its last read. The catalog's state is read before the products, and the next read starts
 * at the oldest upsert still open, so that an upsert running meanwhile is never half missed.
 */
import type { CatalogRepo, CatalogState } from "~/storage/port";
import { CATALOG_OPEN_TIMEOUT_MS } from "~/storage/port";
import type { SearchIndex } from "~/search/fts-index.server";

/** Products read from storage per page. */
export const FOLLOW_PAGE = 500;

/** The first upsert whose products the next read must include: the oldest still open, else the next one. */
export function nextFromSeq(state: Pick<CatalogState, "seq" | "open">, now: number): number {
  const open = state.open.filter((o) => now - Date.parse(o.since) < CATALOG_OPEN_TIMEOUT_MS).map((o) => o.seq);
  return Math.min(state.seq + 1, ...open);
}

async function readChanges(index: SearchIndex, catalog: CatalogRepo, sinceSeq: number | null): Promise<number> {
  let after: string | null = null;
  let count = 0;
  do {
    const page: Awaited<ReturnType<CatalogRepo["listChanged"]>> = await catalog.listChanged({ sinceSeq, limit: FOLLOW_PAGE, after });
    index.upsertProducts(page.items);
    count += page.items.length;
    after = page.next;
  } while (after);
  return count;
}

export interface FollowOutcome {
  /** "rebuilt": from scratch; "updated": the changes read; "unchanged": nothing to read. */
  outcome: "rebuilt" | "updated" | "unchanged";
  /** Products read. */
  read: number;
}

export async function followCatalog(index: SearchIndex, catalog: CatalogRepo, now = Date.now()): Promise<FollowOutcome> {
  const state = await catalog.state();
  let result: FollowOutcome;
  if (index.getMeta("catalogId") !== state.catalogId) {
    index.clearCatalog();
    index.setMeta("catalogId", null);
    result = { outcome: "rebuilt", read: await readChanges(index, catalog, null) };
    index.setMeta("catalogId", state.catalogId);
  } else if (index.getMeta("stateVersion") !== String(state.version)) {
    result = { outcome: "updated", read: await readChanges(index, catalog, Number(index.getMeta("fromSeq") ?? 0)) };
  } else {
    return { outcome: "unchanged", read: 0 };
  }
  index.setMeta("stateVersion", String(state.version));
  index.setMeta("fromSeq", String(nextFromSeq(state, now)));
  index.setMeta("catalogChanged", new Date(now).toISOString());
  return result;
}
