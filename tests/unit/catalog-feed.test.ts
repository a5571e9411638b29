import { describe, expect, it } from "vitest";
import {
  columnOf,
  FEED_MAX_ROWS,
  FEED_REASONS,
  feedFormatOf,
  normaliseAvailability,
  normaliseParty,
  parseCatalogFeed,
  parseFeedPrice,
  ROW_REASONS,
  type FeedParse,
} from "~/domain/catalog-feed";
import { displayableImage, sponsorsOf, catalogQuery } from "~/domain/catalog-view";

function parsed(result: FeedParse) {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.value;
}

const HEADER = "id,title,availability,party,brand,price,stroke_price,image_link,link,categories,seller_id";

describe("parseFeedPrice: currency units to exact cents", () => {
  it.each([
    ["12.99", 1299],
    ["12,99", 1299],
    ["12.9", 1290],
    ["5", 500],
    ["0.15", 15],
    [" 6.49 EUR", 649],
    ["€5", 500],
    ["5 zł", 500],
    ["1 299.00", 129900],
    ["1,299.00", 129900],
    ["1.299,00", 129900],
    ["0.1", 10],
  ])("%s is %d cents", (text, cents) => {
    expect(parseFeedPrice(text)).toBe(cents);
  });

  it.each(["", "0", "0.00", "-5", "12.999", "abc", "1,2,3", "1,299,00", "12..5", "1e5x"])("%j is no price", (text) => {
    expect(parseFeedPrice(text)).toBeNull();
  });
});

describe("feed spellings", () => {
  it("reads availabilities as the spec writes them", () => {
    expect(normaliseAvailability("in_stock")).toBe("in stock");
    expect(normaliseAvailability("In-Stock")).toBe("in stock");
    expect(normaliseAvailability(" OUT OF STOCK ")).toBe("out of stock");
    expect(normaliseAvailability("missing_category")).toBe("missing category");
    expect(normaliseAvailability("available")).toBeNull();
  });

  it("reads parties", () => {
    expect(normaliseParty("1p")).toBe("1P");
    expect(normaliseParty("3P")).toBe("3P");
    expect(normaliseParty("1P-3P")).toBe("1P_3P");
    expect(normaliseParty("1P/3P")).toBe("1P_3P");
    expect(normaliseParty("2P")).toBeNull();
  });

  it("names columns whatever their case, spaces and dashes", () => {
    expect(columnOf("Stroke Price")).toBe("stroke_price");
    expect(columnOf("IMAGE-LINK")).toBe("image_link");
    expect(columnOf("\uFEFFid")).toBe("id");
    expect(columnOf("colour")).toBeNull();
  });

  it("tells the format by the name, else the first character", () => {
    expect(feedFormatOf("feed.JSON", "id,title")).toBe("json");
    expect(feedFormatOf("feed.csv", "[")).toBe("csv");
    expect(feedFormatOf("feed", '  [{"id":1}]')).toBe("json");
    expect(feedFormatOf("feed", "id,title")).toBe("csv");
  });
});

describe("parseCatalogFeed: CSV", () => {
  it("reads good rows into products (prices in cents, categories split, seller kept) and ignores unknown columns", () => {
    const csv = [
      `${HEADER},colour`,
      'SKU-1,"Organic Coffee, 500 g",in_stock,1p,Acme,6.49,7.99,/images/products/SKU-1.svg,https://shop.example.com/p/1,Grocery > Coffee & tea > Coffee|Grocery > Organic,,red',
      "SKU-2,Shampoo 250 ml,preorder,3P,Belle Peau,4,,,,,seller-9,blue",
    ].join("\n");
    const feed = parsed(parseCatalogFeed("feed.csv", csv));
    expect(feed.format).toBe("csv");
    expect(feed.rows).toBe(2);
    expect(feed.bad).toEqual([]);
    expect(feed.ignoredColumns).toEqual(["colour"]);
    expect(feed.products).toEqual([
      {
        id: "SKU-1",
        title: "Organic Coffee, 500 g",
        availability: "in stock",
        party: "1P",
        brand: "Acme",
        price: 649,
        stroke_price: 799,
        image_link: "/images/products/SKU-1.svg",
        link: "https://shop.example.com/p/1",
        categories: ["Grocery > Coffee & tea > Coffee", "Grocery > Organic"],
      },
      { id: "SKU-2", title: "Shampoo 250 ml", availability: "preorder", party: "3P", brand: "Belle Peau", price: 400, stroke_price: null, image_link: "", link: "", categories: [], seller_id: "seller-9" },
    ]);
  });

  it("reports each bad row with its file line and every reason; a repeated id is bad, the first kept", () => {
    const csv = [
      "id;title;availability;party;brand;price",
      "SKU-1;Good;in stock;1P;Acme;1.00",
      "",
      ";No id;in stock;1P;Acme;1.00",
      'SKU-3;"A title over',
      'two lines";sold out;2P;;free',
      "SKU-1;Again;in stock;1P;Acme;2.00",
      "a/b;Slash;in stock;1P;Acme;1.00",
    ].join("\r\n");
    const feed = parsed(parseCatalogFeed("feed.csv", csv));
    expect(feed.rows).toBe(5);
    expect(feed.products.map((p) => [p.id, p.title])).toEqual([["SKU-1", "Good"]]);
    expect(feed.bad).toEqual([
      { line: 4, id: null, reasons: [ROW_REASONS.idMissing] },
      { line: 5, id: "SKU-3", reasons: [ROW_REASONS.availabilityInvalid, ROW_REASONS.partyInvalid, ROW_REASONS.brandMissing, ROW_REASONS.priceInvalid] },
      { line: 7, id: "SKU-1", reasons: [ROW_REASONS.idDuplicate] },
      { line: 8, id: null, reasons: [ROW_REASONS.idInvalid] },
    ]);
  });

  it("refuses bad links and stroke prices and over-long titles", () => {
    const csv = [HEADER, `SKU-1,${"x".repeat(501)},in stock,1P,Acme,1,-2,javascript:alert(1),ftp://x,,`].join("\n");
    const feed = parsed(parseCatalogFeed("f.csv", csv));
    expect(feed.bad[0]!.reasons).toEqual([ROW_REASONS.titleTooLong, ROW_REASONS.strokePriceInvalid, ROW_REASONS.imageLinkInvalid, ROW_REASONS.linkInvalid]);
  });

  it("refuses a whole file that misses required columns, holds no product, or cannot be read", () => {
    expect(parseCatalogFeed("f.csv", "id,title,brand\nSKU-1,T,B")).toEqual({ ok: false, reason: FEED_REASONS.missingColumns, values: { columns: "availability, party, price" } });
    expect(parseCatalogFeed("f.csv", `${HEADER}\n`)).toEqual({ ok: false, reason: FEED_REASONS.empty });
    expect(parseCatalogFeed("f.csv", "  \n")).toEqual({ ok: false, reason: FEED_REASONS.empty });
    expect(parseCatalogFeed("f.csv", `${HEADER}\nSKU-1,"never closed,in stock,1P,Acme,1`)).toEqual({ ok: false, reason: FEED_REASONS.unreadable });
  });

  it(`refuses more than ${FEED_MAX_ROWS} products whole`, () => {
    const lines = [HEADER];
    for (let i = 0; i <= FEED_MAX_ROWS; i++) lines.push(`S${i},T,in stock,1P,B,1`);
    expect(parseCatalogFeed("f.csv", lines.join("\n"))).toEqual({ ok: false, reason: FEED_REASONS.tooManyRows, values: { max: FEED_MAX_ROWS } });
  });
});

describe("parseCatalogFeed: JSON", () => {
  it("reads a list, or an object's products, numbers as prices and lists as categories", () => {
    const products = [
      { id: "SKU-1", title: "Coffee", availability: "in stock", party: "1P", brand: "Acme", price: 6.49, stroke_price: null, categories: ["Grocery > Coffee & tea"], extra: 1 },
      { ID: "SKU-2", Title: "Tea", Availability: "In-Stock", Party: "1P_3P", Brand: "Acme", Price: "2,50", Categories: "Grocery|Tea" },
    ];
    for (const body of [products, { products }]) {
      const feed = parsed(parseCatalogFeed("feed.json", JSON.stringify(body)));
      expect(feed.format).toBe("json");
      expect(feed.bad).toEqual([]);
      expect(feed.ignoredColumns).toEqual(["extra"]);
      expect(feed.products.map((p) => [p.id, p.price, p.stroke_price, p.party, p.categories])).toEqual([
        ["SKU-1", 649, null, "1P", ["Grocery > Coffee & tea"]],
        ["SKU-2", 250, null, "1P_3P", ["Grocery", "Tea"]],
      ]);
    }
  });

  it("reports bad items by their place in the list", () => {
    const feed = parsed(parseCatalogFeed("feed.json", JSON.stringify([{ id: "A", title: "T", availability: "in stock", party: "1P", brand: "B", price: 1 }, "text", { id: 5, title: ["x"], availability: "in stock", party: "1P", brand: "B", price: 0 }])));
    expect(feed.products.map((p) => p.id)).toEqual(["A"]);
    expect(feed.bad).toEqual([
      { line: 2, id: null, reasons: [ROW_REASONS.notAnObject] },
      { line: 3, id: "5", reasons: [ROW_REASONS.titleMissing, ROW_REASONS.priceInvalid] },
    ]);
  });

  it("refuses what is not JSON, or not a list of products", () => {
    expect(parseCatalogFeed("feed.json", "{not json")).toEqual({ ok: false, reason: FEED_REASONS.notJson });
    expect(parseCatalogFeed("feed.json", '{"items": []}')).toEqual({ ok: false, reason: FEED_REASONS.notAList });
    expect(parseCatalogFeed("feed.json", "[]")).toEqual({ ok: false, reason: FEED_REASONS.empty });
  });
});

describe("the catalog screen's rules", () => {
  it("shows this site's and data: images only", () => {
    expect(displayableImage("/images/products/SKU-1.svg")).toBe(true);
    expect(displayableImage("data:image/png;base64,AAAA")).toBe(true);
    expect(displayableImage("//evil.example/x.png")).toBe(false);
    expect(displayableImage("https://cdn.example.com/x.png")).toBe(false);
  });

  it("lists the campaigns the reader may see, by name, at most a few, and counts the rest", () => {
    const visible = new Map([
      ["c1", { id: "c1", name: "Zeta" }],
      ["c2", { id: "c2", name: "alpha" }],
      ["c3", { id: "c3", name: "Beta" }],
    ]);
    expect(sponsorsOf(["c1", "c2", "hidden", "c3"], visible, 2)).toEqual({ campaigns: [{ id: "c2", name: "alpha" }, { id: "c3", name: "Beta" }], more: 1 });
    expect(sponsorsOf(["hidden"], visible, 5)).toEqual({ campaigns: [], more: 0 });
  });

  it("keeps the filters in the URL, with the cursor", () => {
    expect(catalogQuery({ q: "coffee beans", availability: "in stock", party: "", brand: "Acme" }, "25")).toBe("?q=coffee+beans&availability=in+stock&brand=Acme&after=25");
    expect(catalogQuery({ q: "", availability: "", party: "", brand: "" })).toBe("");
  });
});
