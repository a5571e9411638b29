import { describe, expect, it } from "vitest";
import { elidesBefore, withDe } from "~/domain/elision";
import { getFixedT } from "~/services/i18n.server";

describe("French 'de' before a name", () => {
  it.each<[string, string]>([
    ["Acme Brand", "d’Acme Brand"],
    ["Électro Dépôt", "d’Électro Dépôt"],
    ["Yves Rocher", "d’Yves Rocher"],
    ["Hermès", "d’Hermès"],
    ["Bricoprix", "de Bricoprix"],
    ["Hachette", "de Hachette"],
    ["Hyundai", "de Hyundai"],
    ["3M", "de 3M"],
  ])("%s -> %s", (name, expected) => {
    expect(withDe(name)).toBe(expected);
  });

  it("does not elide before a consonant h (HP)", () => {
    expect(elidesBefore("HP")).toBe(false);
  });
});

describe("the translations use it", () => {
  it("French list caption and back link elide: 'Campagnes d’Acme Brand'", async () => {
    const fr = await getFixedT("fr");
    expect(fr("campaignList:table.captionTeam", { team: "Acme Brand" })).toBe("Campagnes d’Acme Brand");
    expect(fr("campaigns:editor.backToTeam", { team: "Acme Brand" })).toBe("Campagnes d’Acme Brand");
    expect(fr("campaigns:editor.backToTeam", { team: "Bricoprix" })).toBe("Campagnes de Bricoprix");
  });

  it("English is not touched: 'Campaigns of Acme Brand'", async () => {
    const en = await getFixedT("en-GB");
    expect(en("campaigns:editor.backToTeam", { team: "Acme Brand" })).toBe("Campaigns of Acme Brand");
  });
});
