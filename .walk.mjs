// Walk the console as each role at 1280 and 390 px; screenshot; report sideways scroll and raw data.
import { chromium } from "@playwright/test";
const BASE = process.env.BASE ?? "http://127.0.0.1:3300";
const roles = { operator: "operator@example.com", retailer: "retailer.admin@example.com", supplier: "supplier.admin@example.com", viewer: "retailer.viewer@example.com" };
const pages = (process.env.PAGES ?? "/,/campaigns,/teams,/users,/health,/teams/acme-brand/wallets,/teams/acme-brand/campaigns,/settings/retailer,/profile").split(",");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const only = process.env.ROLES ? process.env.ROLES.split(",") : Object.keys(roles);
for (const role of only) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", timezoneId: "Europe/Paris" });
  const page = await ctx.newPage();
  await page.goto(BASE + "/login");
  await page.getByLabel("E-mail", { exact: false }).first().fill(roles[role]);
  await page.getByLabel("Password", { exact: true }).fill("Demo-password-1");
  await page.getByRole("button", { name: /sign in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: 20000 });
  const extra = process.env.EXTRA ? process.env.EXTRA.split(",") : [];
  for (const path of [...pages, ...extra]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const res = await page.goto(BASE + path, { waitUntil: "networkidle" });
      const url = new URL(page.url()).pathname;
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      const text = await page.evaluate(() => document.body.innerText);
      const raw = [];
      if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) raw.push("ISO");
      if (/\{"|":/.test(text)) raw.push("JSON");
      const name = `${role}${path.replace(/[^a-z0-9]+/gi, "_")}_${width}.png`;
      await page.screenshot({ path: `/work/shots/${name}`, fullPage: true });
      console.log(`${role} ${path} ${width}: status ${res?.status()} at ${url} scrollWidth ${sw}${sw > width ? " OVERFLOW" : ""} ${raw.join(" ")}`);
    }
  }
  await ctx.close();
}
await browser.close();
