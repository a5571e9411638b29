/**
 * Every form works without JavaScript, and a browser test proves it (issue 8 section 5): the
 * JS-off browser project runs only the tests tagged @nojs, so each form of app/ must be submitted
 * by one of them. This lists the forms of app/ (their intents, each lifecycle action of a
 * campaign, and the few forms without an intent) and checks tests/e2e/nojs-forms.ts against
 * them: every form is there, and names a test that exists and is tagged @nojs. The fixtures check
 * at run time that the named test really submits the form with JavaScript off.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAMPAIGN_ACTIONS } from "~/domain/campaigns/actions";
import { campaignActionIntent } from "~/forms/campaigns/campaigns";
import { BULK_SCOPES, bulkProductsIntent } from "~/forms/campaigns/products";
import { formKey, NOJS_FORMS } from "../e2e/nojs-forms";

const ROOT = path.resolve(__dirname, "../..");
const APP = path.join(ROOT, "app");
const E2E = path.join(ROOT, "tests/e2e");

const sources = fs
  .readdirSync(APP, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({ file, text: fs.readFileSync(path.join(APP, file), "utf8") }));

/** The route module a form posts to (`/logout` → app/routes/logout.tsx). */
function routeSource(pathname: string): string | undefined {
  const name = pathname.slice(1).replaceAll("/", ".");
  return sources.find((s) => s.file === `routes/${name}.tsx` || s.file === `routes/${name}.ts`)?.text;
}

/** The forms of app/, named as tests/e2e/nojs-forms.ts names them. */
function formsOfTheApp(): string[] {
  const keys = new Set<string>();
  for (const { file, text } of sources) {
    // Intents: the constants the forms' hidden `intent` fields use, and literal values.
    for (const [, value] of text.matchAll(/\b\w+Intent\s*=\s*"([a-z0-9-]+)"/g)) keys.add(value!);
    for (const [, value] of text.matchAll(/name="intent" value="([^"]+)"/g)) keys.add(value!);
    // Forms without an intent: a route's own form, or a form posting to a route that reads none.
    if (/^routes\/[^/]+\.tsx$/.test(file) && /method="post"/.test(text) && !/name="intent"/.test(text)) {
      keys.add(formKey(`/${file.slice("routes/".length, -".tsx".length).replaceAll(".", "/")}`, {}));
    }
    for (const [, target] of text.matchAll(/method="post" action="(\/[^"]*)"/g)) {
      if (!/\bintent\b/.test(routeSource(target!) ?? "intent")) keys.add(formKey(target!, {}));
    }
  }
  // One form per lifecycle action of a campaign (the action bar).
  keys.delete(campaignActionIntent);
  for (const action of CAMPAIGN_ACTIONS) keys.add(formKey("", { intent: campaignActionIntent, action }));
  // The Products tab's bar acting on every product of the campaign (scope=campaign), named apart
  // from the bar of the ticked products, which shares its intent (ADR 48).
  for (const scope of BULK_SCOPES) {
    if (sources.some(({ text }) => text.includes(`name="scope" value="${scope}"`))) keys.add(formKey("", { intent: bulkProductsIntent, scope }));
  }
  return [...keys].sort();
}

/** The tests a spec declares with a plain title, and whether each is tagged @nojs. */
function testsOf(spec: string): Map<string, boolean> {
  const text = fs.readFileSync(path.join(E2E, spec), "utf8");
  const tests = new Map<string, boolean>();
  for (const match of text.matchAll(/\btest\(\s*(["'])((?:\\.|(?!\1)[^\\])*)\1\s*,\s*(\{[^}]*\})?/g)) {
    const title = match[2]!.replace(/\\(.)/g, "$1");
    tests.set(title, /["']@nojs["']/.test(match[3] ?? ""));
  }
  return tests;
}

describe("the forms submitted with JavaScript off (tests/e2e/nojs-forms.ts)", () => {
  const forms = formsOfTheApp();

  it("finds the console's forms", () => {
    // The reading of app/ still works: a few forms of each kind are found.
    expect(forms).toEqual(expect.arrayContaining(["create-wallet", "update-targeting", "campaign-action:enable", "bulk-products:campaign", "POST /login", "POST /logout"]));
  });

  it("names every form of app/, and only those", () => {
    expect(Object.keys(NOJS_FORMS).sort()).toEqual(forms);
  });

  const covered = Object.entries(NOJS_FORMS).filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== null);
  it.each(covered)("%s: submitted by a test that exists and is tagged @nojs", (_, by) => {
    expect(fs.existsSync(path.join(E2E, by.spec)), by.spec).toBe(true);
    const tests = testsOf(by.spec);
    expect([...tests.keys()], `a test titled "${by.test}" in ${by.spec}`).toContain(by.test);
    expect(tests.get(by.test), `"${by.test}" tagged @nojs`).toBe(true);
  });

  for (const [key] of Object.entries(NOJS_FORMS).filter(([, by]) => by === null)) {
    it.todo(`${key}: no browser test submits it with JavaScript off yet`);
  }
});
