/**
 * The Categories section's search suggestions (ADR 35): with nothing typed, the categories of the
 * campaign's products it does not target yet, those holding more of its products first, then the
 * more specific, at most ten; nothing without products.
 */
import { describe, expect, it } from "vitest";
import { CATEGORY_PICKER_SIZE, suggestCategories } from "~/domain/campaigns/category-picker";

describe("category suggestions", () => {
  it("suggests nothing for a campaign without products", () => {
    expect(suggestCategories([], new Set())).toEqual([]);
    expect(suggestCategories([{ categories: [] }, {}], new Set())).toEqual([]);
  });

  it("ranks the categories holding more of the campaign's products first, then the deeper ones, each once", () => {
    const found = suggestCategories(
      [
        { categories: ["Grocery > Coffee & tea > Coffee"] },
        { categories: ["Grocery > Coffee & tea > Coffee", "Grocery > Breakfast"] },
        { categories: ["Grocery > Coffee & tea > Tea"] },
      ],
      new Set(),
    );
    expect(found.map((c) => [c.path, c.products])).toEqual([
      ["Grocery > Coffee & tea", 3],
      ["Grocery", 3],
      ["Grocery > Coffee & tea > Coffee", 2],
      ["Grocery > Coffee & tea > Tea", 1],
      ["Grocery > Breakfast", 1],
    ]);
    expect(found[2]!.id).toBe("grocery--coffee-tea--coffee");
  });

  it("leaves out what the campaign already targets", () => {
    const found = suggestCategories([{ categories: ["Grocery > Coffee & tea > Coffee"] }], new Set(["grocery", "grocery--coffee-tea--coffee"]));
    expect(found.map((c) => c.id)).toEqual(["grocery--coffee-tea"]);
  });

  it("stops at the limit", () => {
    const products = Array.from({ length: 6 }, (_, i) => ({ categories: [`Dept${i} > Aisle${i}`] }));
    expect(suggestCategories(products, new Set())).toHaveLength(CATEGORY_PICKER_SIZE);
    expect(suggestCategories(products, new Set(), 3)).toHaveLength(3);
  });
});
