import { describe, expect, it } from "vitest";
import { foldText, isFoldedAscii, matchesSearch, MAX_TOKEN_LENGTH, searchKey, searchTokens } from "~/domain/search";

describe("foldText: lower-cased, accent-folded, trimmed, inner spaces collapsed", () => {
  it.each([
    ["Acme Brand", "acme brand"],
    ["  Maison   Café  ", "maison cafe"],
    ["CRÈME brûlée", "creme brulee"],
    ["Ångström", "angstrom"],
    ["Łódź", "łodz"], // Ł has no decomposition
    ["ﬁne ＡＣＭＥ", "fine acme"], // compatibility forms
    ["tab\tand\nnew line", "tab and new line"],
    ["", ""],
    ["   ", ""],
  ])("%j -> %j", (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it("returns text already folded (lowercase ASCII letters and digits, one space between words) as it is, and folds any other", () => {
    for (const text of ["running shoes 42", "a", "0 9 z", "abc def ghi"]) {
      expect(isFoldedAscii(text)).toBe(true);
      expect(foldText(text)).toBe(text);
    }
    for (const [text, folded] of [
      ["running  shoes", "running shoes"],
      [" shoes", "shoes"],
      ["shoes ", "shoes"],
      ["Shoes", "shoes"],
      ["cafe\u0301", "cafe"],
      ["t-shirt", "t-shirt"],
      ["", ""],
    ]) {
      expect(isFoldedAscii(text!)).toBe(false);
      expect(foldText(text!)).toBe(folded);
    }
  });
});

describe("searchTokens: every prefix of every word, folded, sorted, without duplicates", () => {
  it.each<[string[], string[]]>([
    [["Acme Brand"], ["a", "ac", "acm", "acme", "b", "br", "bra", "bran", "brand"]],
    [["Café"], ["c", "ca", "caf", "cafe"]],
    [["L'Oréal"], ["l", "o", "or", "ore", "orea", "oreal"]],
    [["Acme", "ACME ace"], ["a", "ac", "ace", "acm", "acme"]],
    [["jo.ng@x.io"], ["i", "io", "j", "jo", "n", "ng", "x"]],
    [[""], []],
    [["  —  "], []],
  ])("%j", (texts, expected) => {
    expect(searchTokens(...texts)).toEqual(expected);
  });

  it(`caps prefixes at ${MAX_TOKEN_LENGTH} characters`, () => {
    const word = "Supercalifragilisticexpialidocious";
    const tokens = searchTokens(word);
    expect(tokens).toHaveLength(MAX_TOKEN_LENGTH);
    expect(Math.max(...tokens.map((t) => t.length))).toBe(MAX_TOKEN_LENGTH);
    expect(tokens).toContain(word.toLowerCase().slice(0, MAX_TOKEN_LENGTH));
  });
});

describe("searchKey: the first word of a search box value, folded and capped", () => {
  it.each<[string, string | null]>([
    ["acme", "acme"],
    ["  Café  Crème ", "cafe"],
    ["--ACME brand", "acme"],
    ["hugo@brand", "hugo"],
    ["Supercalifragilisticexpialidocious", "supercalifragilistic"],
    ["", null],
    ["  —  ", null],
  ])("%j -> %j", (query, expected) => {
    expect(searchKey(query)).toBe(expected);
  });
});

describe("matchesSearch: every word of the query starts a word of the text", () => {
  it.each<[string, string, boolean]>([
    ["Café Crème", "cafe", true],
    ["Café Crème", "CRÈ caf", true],
    ["Café Crème", "creme cafe", true],
    ["Acme Brand", "ac br", true],
    ["Acme Brand", "rand", false],
    ["Acme Brand", "acme x", false],
    ["Acme Brand", "acme brands", false],
    ["Acme Brand", "", true],
    ["Jeanne Martin jeanne.martin@retailer.example", "martin", true],
    ["Jeanne Martin jeanne.martin@retailer.example", "retailer.ex", true],
    ["Léa Martinez", "martin", true],
    ["Léa Martinez", "artin", false],
  ])("%j ~ %j -> %s", (text, query, expected) => {
    expect(matchesSearch(text, query)).toBe(expected);
  });

  // The store looks up searchKey(query) among searchTokens(text), then checks matchesSearch on
  // the page: the lookup must never drop a text the check accepts.
  it.each<[string, string]>([
    ["Café Crème", "CRÈ caf"],
    ["Acme Outlet", "outlet acme"],
    ["L'Oréal Paris", "oreal"],
    ["Supercalifragilisticexpialidocious Ltd", "supercalifragilisticexpi"],
    ["jeanne.martin@retailer.example", "jeanne.mar"],
  ])("a text the check accepts is found by its token: %j ~ %j", (text, query) => {
    expect(matchesSearch(text, query)).toBe(true);
    expect(searchTokens(text)).toContain(searchKey(query));
  });
});
