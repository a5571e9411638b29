/**
 * The process's one search index (ADR 20): SEARCH_INDEX_PATH, default $DATA_DIR/search-index.db.
 * Each console instance keeps its own; it is derived data, rebuilt from the catalog when missing.
 */
import path from "node:path";
import { SearchIndex } from "~/search/fts-index.server";

export type SearchEnv = Readonly<Record<string, string | undefined>>;

export function searchIndexPath(env: SearchEnv = process.env): string {
  const file = env.SEARCH_INDEX_PATH?.trim();
  if (file) return file;
  return path.join(env.DATA_DIR || "./data", "search-index.db");
}

const holder = globalThis as typeof globalThis & { __adsConsoleSearchIndex?: SearchIndex; __adsConsoleSearchIndexForTests?: SearchIndex };

/** The index at the configured path (reopened when the path changes, as between test files). */
export function getSearchIndex(): SearchIndex {
  if (holder.__adsConsoleSearchIndexForTests) return holder.__adsConsoleSearchIndexForTests;
  const file = searchIndexPath();
  if (holder.__adsConsoleSearchIndex?.filename !== file) {
    holder.__adsConsoleSearchIndex?.close();
    holder.__adsConsoleSearchIndex = new SearchIndex(file);
  }
  return holder.__adsConsoleSearchIndex;
}

/** Tests and benches use their own index (e.g. in memory); undefined goes back to the file. */
export function setSearchIndexForTests(index: SearchIndex | undefined): void {
  holder.__adsConsoleSearchIndexForTests = index;
}

export function closeSearchIndex(): void {
  holder.__adsConsoleSearchIndex?.close();
  holder.__adsConsoleSearchIndex = undefined;
}
