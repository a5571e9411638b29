/**
 * A wallet in French: amounts typed and shown the French way (100,00 €). Choosing French changes
 * the operator's profile, which other specs' sessions read, so this runs in the stateful project
 * and puts English back at the end.
 */
import fs from "node:fs";
import { en, expect, fr, Shell, submitAndWait, test } from "./fixtures";

const dict = JSON.parse(fs.readFileSync(new URL("../../locales/fr/wallets.json", import.meta.url), "utf8")) as Record<string, unknown>;
function wfr(key: string, values: Record<string, string | number> = {}): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`No fr wallets text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

test.describe("a wallet in French", () => {
  test.use({ role: "operator" });

  test("a credit typed as 100,00 shows a balance of 100,00 €", { tag: "@nojs" }, async ({ app }) => {
    test.slow();
    const { page, shell } = app;
    const french = new Shell(page, fr);
    // A label starting with a vowel: French elides "de" before it ("Transactions d'Épargne …").
    const label = `Épargne ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await page.goto("/teams/acme-brand/wallets");
    await shell.chooseLanguage(en("languages.fr"));
    try {
      await expect(page.getByRole("heading", { level: 2, name: wfr("list.title"), exact: true })).toBeVisible();
      // The browser tab speaks French too.
      await expect(page).toHaveTitle("Portefeuilles · Console publicitaire");
      const createForm = page.locator("#create-wallet-form");
      await page.getByText(wfr("create.title"), { exact: true }).click();
      await createForm.getByLabel(wfr("fields.label"), { exact: true }).fill(label);
      await submitAndWait(page, "/teams/acme-brand/wallets", () => createForm.getByRole("button", { name: wfr("create.submit") }).click());
      await expect(page.getByRole("heading", { level: 2, name: label, exact: true })).toBeVisible();
      await expect(page).toHaveTitle(`${label} · Console publicitaire`);

      const post = page.getByRole("region", { name: wfr("entry.title") });
      await post.getByLabel(wfr("fields.amount", { currency: "EUR" }), { exact: true }).fill("100,00");
      await post.getByLabel(wfr("fields.reference"), { exact: true }).fill("FAC-100");
      const path = new URL(page.url()).pathname;
      await submitAndWait(page, path, () => post.getByRole("button", { name: wfr("entry.submit") }).click());

      const balance = page.getByRole("region", { name: wfr("page.money") }).locator(".wallet-balance strong");
      await expect(balance).toHaveText(/^100,00\s€$/);
      await expect(page.getByRole("table", { name: `Transactions d’${label}, les plus récentes d’abord` }).getByRole("row").filter({ hasText: "FAC-100" })).toContainText(wfr("entry.types.credit"));
    } finally {
      await french.chooseLanguage(fr("languages.en-GB"));
    }
  });
});
