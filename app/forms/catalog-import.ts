/** The catalog import form (operators): one CSV or JSON feed file. */
import * as z from "zod/mini";
import { FEED_MAX_BYTES } from "~/domain/catalog-feed";

export const importCatalogIntent = "import-catalog";

export const CatalogImportSchema = z.object({
  intent: z.literal(importCatalogIntent),
  feed: z.file({ error: "catalog:import.errors.fileRequired" }).check(z.maxSize(FEED_MAX_BYTES, "catalog:import.errors.fileTooLarge")),
});
export type CatalogImportForm = z.infer<typeof CatalogImportSchema>;
