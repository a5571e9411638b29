import { chromium } from "@playwright/test";
const [,, role, path, width, out, action] = process.argv;
const BASE = process.env.BASE ?? "http://127.0.0.1:3587";
const emails = { operator: "operator@example.com", retailer: "retailer.admin@example.com", supplier: "supplier.admin@example.com", viewer: "retailer.viewer@example.com" };
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const ctx = await browser.newContext({ viewport: { width: Number(width), height: 900 }, locale: "en-GB", timezoneId: "Europe/Paris", javaScriptEnabled: process.env.NOJS ? false : true });
const page = await ctx.newPage();
page.on("console", (m) => { if (m.type() === "error") console.log("console:", m.text()); });
await page.goto(BASE + "/login");
await page.getByLabel("E-mail", { exact: false }).first().fill(emails[role]);
await page.getByLabel("Password", { exact: true }).fill("Demo-password-1");
await page.getByRole("button", { name: /sign in/i }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/login"));
await page.goto(BASE + path, { waitUntil: "networkidle" });
if (action === "type") {
  await page.getByRole("combobox", { name: "Search the catalog" }).fill("coffee");
  await page.waitForTimeout(1200);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
}
const sw = await page.evaluate(() => document.documentElement.scrollWidth);
console.log("scrollWidth", sw);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
