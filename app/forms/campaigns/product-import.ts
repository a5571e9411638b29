/**
 * The CSV import of a campaign's products (issue 10 section 2): one schema shared by the browser
 * (conform) and the action. Messages are i18n keys of the campaignProductPicker namespace.
 */
import * as z from "zod/mini";
import { SKU_CSV_MAX_BYTES } from "~/domain/campaigns/product-csv";

export const importProductsIntent = "import-products";

export const ImportProductsSchema = z.object({
  intent: z.literal(importProductsIntent),
  version: z.coerce.number({ error: "campaignProducts:errors.badRequest" }).check(z.int(), z.gte(1, "campaignProducts:errors.badRequest")),
  file: z.file({ error: "campaignProductPicker:import.errors.noFile" }).check(
    z.minSize(1, "campaignProductPicker:import.errors.noFile"),
    z.maxSize(SKU_CSV_MAX_BYTES, "campaignProductPicker:import.errors.tooLarge"),
  ),
});
export type ImportProductsValue = z.infer<typeof ImportProductsSchema>;
