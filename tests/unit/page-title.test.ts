/** Browser-tab titles in the reader's language, for every route that names its page. */
import fs from "node:fs";
import path from "node:path";
import { pageTitle } from "~/utils/page-title";

const routes = path.resolve(__dirname, "../../app/routes");
const root = (locale: string) => [{ id: "root", data: { locale } }, { id: "routes/x", data: null }];

describe("page titles", () => {
  it("are in the reader's language", () => {
    expect(pageTitle(root("fr"), "statistics")).toEqual([{ title: "Statistiques · Console publicitaire" }]);
    expect(pageTitle(root("fr"), "columns", "campaigns")).toEqual([{ title: "Statuts et colonnes · Campagnes · Console publicitaire" }]);
    expect(pageTitle(root("en-GB"), "statistics")).toEqual([{ title: "Statistics · Ads console" }]);
    expect(pageTitle(root("fr"), { name: "Acme 2026" })).toEqual([{ title: "Acme 2026 · Console publicitaire" }]);
    expect(pageTitle(root("fr"))).toEqual([{ title: "Console publicitaire" }]);
  });

  it("fall back to English before the root's data is known", () => {
    expect(pageTitle([], "campaigns")).toEqual([{ title: "Campaigns · Ads console" }]);
  });

  it("are built by the shared helper on every route, never written in English", () => {
    const files = fs.readdirSync(routes).filter((f) => /\.tsx?$/.test(f));
    const english = files.filter((f) => {
      const source = fs.readFileSync(path.join(routes, f), "utf8");
      return /export const meta/.test(source) && (!/pageTitle\(matches/.test(source) || /Ads console/.test(source));
    });
    expect(english).toEqual([]);
  });
});
