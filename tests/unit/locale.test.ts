import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage, normaliseLocale, pickLocale } from "~/domain/locale";

describe("normaliseLocale", () => {
  it.each([
    ["fr", "fr"],
    ["fr-FR", "fr"],
    ["FR-ca", "fr"],
    [" fr ", "fr"],
    ["en", "en-GB"],
    ["en-US", "en-GB"],
    ["en-GB", "en-GB"],
    ["de-DE", null],
    ["french", null],
    ["", null],
    [null, null],
    [undefined, null],
  ])("%j -> %j", (input, expected) => {
    expect(normaliseLocale(input)).toBe(expected);
  });
});

describe("Accept-Language with q-values", () => {
  it.each([
    ["fr-FR,fr;q=0.9,en;q=0.8", "fr"],
    ["en-GB,en;q=0.9,fr;q=0.8", "en-GB"],
    ["de-DE,de;q=0.9,fr;q=0.8,en;q=0.7", "fr"],
    ["en;q=0.5, fr;q=0.9", "fr"],
    ["fr;q=0.4, en;q=0.6", "en-GB"],
    ["fr;q=0, en;q=0.1", "en-GB"],
    ["fr;q=0", null],
    ["de, es", null],
    ["*", null],
    ["fr-CA", "fr"],
    ["en, fr", "en-GB"],
    ["fr, en", "fr"],
    ["es;q=1.0, fr ; q=0.5", "fr"],
    ["", null],
  ])("%j -> %j", (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });

  it("has no locale without a header", () => {
    expect(localeFromAcceptLanguage(null)).toBeNull();
  });
});

describe("pickLocale: profile, then cookie, then Accept-Language, then en-GB", () => {
  it.each([
    [{ profile: "fr", cookie: "en-GB", acceptLanguage: "en-GB" }, "fr"],
    [{ profile: "en-GB", cookie: "fr", acceptLanguage: "fr" }, "en-GB"],
    [{ profile: null, cookie: "fr", acceptLanguage: "en-GB,en;q=0.9" }, "fr"],
    [{ profile: null, cookie: "en-GB", acceptLanguage: "fr-FR" }, "en-GB"],
    [{ cookie: null, acceptLanguage: "fr-FR,fr;q=0.9" }, "fr"],
    [{ acceptLanguage: "de-DE" }, "en-GB"],
    [{}, "en-GB"],
    // An unsupported value falls through to the next source.
    [{ profile: "de-DE", cookie: "fr", acceptLanguage: "en" }, "fr"],
    [{ profile: "", cookie: "xx", acceptLanguage: "fr" }, "fr"],
  ] as [Parameters<typeof pickLocale>[0], string][])("%j -> %s", (input, expected) => {
    expect(pickLocale(input)).toBe(expected);
  });
});

describe("label and value", () => {
  it("is written the French way in French (narrow no-break space before the colon), the English way otherwise", async () => {
    const { labelled } = await import("~/domain/intl");
    expect(labelled("fr", "Budget", "10,00 €")).toBe("Budget\u202f: 10,00 €");
    expect(labelled("en-GB", "Budget", "€10.00")).toBe("Budget: €10.00");
  });
});
