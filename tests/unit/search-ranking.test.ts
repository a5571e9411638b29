/**
 * The pure side of full-text search (app/domain/search.ts): the words a query is looked up by
 * (folded: accents and case do not matter), the FTS5 queries they make (every word a prefix, no
 * syntax injected), and the score that ranks a few candidates the same way the index does.
 */
import { describe, expect, it } from "vitest";
import { allWordsQuery, MAX_QUERY_WORD_LENGTH, MAX_QUERY_WORDS, prefixMatchQuery, prefixScore, queryWords } from "~/domain/search";

describe("queryWords: folded words of a search box value", () => {
  it.each<[string, string[]]>([
    ["Coffee", ["coffee"]],
    ["  CAFÉ   Crème ", ["cafe", "creme"]],
    ["L'Oréal", ["l", "oreal"]],
    ["SKU-000123", ["sku", "000123"]],
    ["4K Smart-TV", ["4k", "smart", "tv"]],
    ["tea tea TEA", ["tea"]],
    ["Łódź", ["łodz"]],
    ["ﬁne", ["fine"]],
    ["", []],
    ['"quoted" OR NEAR(x) * ^col:', ["quoted", "or", "near", "x", "col"]],
  ])("%j -> %j", (query, words) => {
    expect(queryWords(query)).toEqual(words);
  });

  it(`keeps ${MAX_QUERY_WORDS} words of ${MAX_QUERY_WORD_LENGTH} characters at most`, () => {
    const words = queryWords(Array.from({ length: 12 }, (_, i) => `w${i}`).join(" "));
    expect(words).toHaveLength(MAX_QUERY_WORDS);
    expect(queryWords("x".repeat(100))[0]).toHaveLength(MAX_QUERY_WORD_LENGTH);
  });
});

describe("the FTS5 queries of words", () => {
  it("asks every word as a quoted prefix, in any order (prefix matching)", () => {
    expect(prefixMatchQuery(["caf", "cre"])).toBe('"caf"* "cre"*');
    expect(prefixMatchQuery([])).toBeNull();
  });

  it("asks every word whole for a keyword's products", () => {
    expect(allWordsQuery(["smart", "tv"])).toBe('"smart" "tv"');
    expect(allWordsQuery([])).toBeNull();
  });

  it("leaves no FTS syntax through: words hold letters and digits only", () => {
    for (const word of queryWords('a" OR b* NOT c) AND {title}: ^d - e + "')) expect(word).toMatch(/^[\p{L}\p{N}]+$/u);
  });
});

describe("prefixScore: ranking a few candidates like the index", () => {
  const product = (title: string, brand = "Acme", category = "coffee") => [
    { text: title, weight: 10 },
    { text: brand, weight: 4 },
    { text: category, weight: 1 },
  ];

  it("needs every word to start a word of some text", () => {
    expect(prefixScore(["cof"], product("acme ground coffee"))).not.toBeNull();
    expect(prefixScore(["cof", "bean"], product("acme ground coffee"))).toBeNull();
    expect(prefixScore(["offee"], product("acme ground coffee", "acme", "tea"))).toBeNull();
    expect(prefixScore([], product("anything"))).toBe(0);
  });

  it("ranks a word in the title above one in the brand, above one in the categories", () => {
    const inTitle = prefixScore(["nordic"], product("nordic coffee beans", "kaffeehaus", "coffee"))!;
    const inBrand = prefixScore(["nordic"], product("coffee beans", "nordic harvest", "coffee"))!;
    const inCategory = prefixScore(["nordic"], product("coffee beans", "acme", "nordic food"))!;
    expect(inTitle).toBeGreaterThan(inBrand);
    expect(inBrand).toBeGreaterThan(inCategory);
  });

  it("ranks a whole word above a word it only starts", () => {
    expect(prefixScore(["tea"], product("green tea"))!).toBeGreaterThan(prefixScore(["tea"], product("teapot"))!);
  });
});
