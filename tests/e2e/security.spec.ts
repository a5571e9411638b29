/**
 * Security and robustness against the real server (issue 8 §3): sign-in errors, sessions ended on
 * the server, safe redirects, request bodies and headers.
 */
import { DEMO_PASSWORD, DEMO_USERS, en, expect, test, unknownEmail } from "./fixtures";

test.describe("sign-in errors", () => {
  test("a bad e-mail after a refused sign-in shows one error, not two", { tag: "@nojs" }, async ({ app }) => {
    const { login, page } = app;
    await login.goto();
    await login.signIn(unknownEmail(), "Not-the-password-1");
    await expect(login.error).toContainText(en("auth.invalidCredentials"));

    await login.email.fill("not-an-email");
    await login.password.fill("Not-the-password-2");
    await login.submit.click();
    await expect(page.getByText(en("validation.emailInvalid"))).toBeVisible();
    await expect(login.error).toHaveCount(0);
    await expect(page.getByText(en("auth.invalidCredentials"))).toHaveCount(0);
  });
});

test.describe("sessions", () => {
  test("a session cookie kept from before signing out opens nothing", { tag: "@nojs" }, async ({ app, context }) => {
    const { login, shell, page } = app;
    await login.goto();
    await login.signIn(DEMO_USERS.retailerViewer.email, DEMO_PASSWORD);
    await expect(shell.mainMenu).toBeVisible();
    const kept = (await context.cookies()).filter((cookie) => cookie.name === "__session");
    expect(kept).toHaveLength(1);

    await shell.signOut();
    await expect(login.heading).toBeVisible();
    await context.addCookies(kept);
    await page.goto("/campaigns");
    await expect(page).toHaveURL("/login?to=%2Fcampaigns");
    await expect(login.heading).toBeVisible();
  });
});

test.describe("requests", () => {
  test("sign-in never redirects to another site", async ({ request, baseURL }) => {
    for (const to of ["/.//evil.example", "/%2e%2e//evil.example", "/a/..//evil.example", "//evil.example", "/\\evil.example"]) {
      const response = await request.post("/login", {
        form: { email: DEMO_USERS.retailerViewer.email, password: DEMO_PASSWORD, to },
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      });
      expect(response.status(), to).toBe(302);
      const location = response.headers()["location"];
      expect(location, to).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, baseURL).origin, to).toBe(new URL(baseURL!).origin);
    }
  });

  test("an oversized form answers 413 without echoing it; non-form bodies answer 400 or 415", async ({ request, baseURL }) => {
    const headers = { Origin: baseURL! };
    const big = await request.post("/login", {
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      data: `email=${"a".repeat(2 * 1024 * 1024)}&password=x`,
    });
    expect(big.status()).toBe(413);
    expect(await big.text()).not.toContain("aaaa");

    for (const path of ["/login", "/forgot-password", "/campaigns", "/profile"]) {
      const json = await request.post(path, { headers: { ...headers, "Content-Type": "application/json" }, data: '{"email":"a@b.example"}' });
      expect(json.status(), path).toBe(415);
      const text = await request.post(path, { headers: { ...headers, "Content-Type": "text/plain" }, data: "email=a" });
      expect(text.status(), path).toBe(415);
      const none = await request.post(path, { headers });
      expect(none.status(), path).toBe(400);
      // A multipart body cut short: refused once read (a signed-out /campaigns redirects before reading it).
      const broken = await request.post(path, {
        headers: { ...headers, "Content-Type": "multipart/form-data; boundary=xyz" },
        data: "--xyz\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na@b.example",
        maxRedirects: 0,
      });
      expect(broken.status(), path).toBe(path === "/login" || path === "/forgot-password" ? 400 : 302);
    }
  });

  test("the JSON APIs answer a call without a token 401, as their contract says; a form from another site is refused 403", async ({ request }) => {
    // As an ad server or a statistics client calls them: no Origin, no cookie, the token forgotten.
    for (const path of ["/api/events", "/api/metrics", "/api/search/keyword"]) {
      const response = await request.post(path, { data: { batchId: "no-token", events: [] }, headers: { "Content-Type": "application/json" } });
      expect(response.status(), path).toBe(401);
      expect((await response.json()).error, path).toBeTruthy();
    }
    // A signed-in page's endpoint keeps the origin check.
    const forged = await request.post("/api/reload-failure", { form: { from: "1", to: "2" }, headers: { Origin: "https://evil.example" } });
    expect(forged.status()).toBe(403);
    const tokenOnOtherRoute = await request.post("/api/reload-failure", { form: { from: "1", to: "2" }, headers: { Authorization: "Bearer x" } });
    expect(tokenOnOtherRoute.status()).toBe(403);
  });

  test("an HTML page sends each security header once", async ({ request }) => {
    const response = await request.get("/login");
    expect(response.status()).toBe(200);
    const names = response.headersArray().map((header) => header.name.toLowerCase());
    for (const name of ["x-content-type-options", "referrer-policy", "content-security-policy", "x-frame-options", "content-type"]) {
      expect(names.filter((n) => n === name), name).toHaveLength(1);
    }
  });

  test("a page's scripts are preloaded at low priority, so its first paint never waits for them", async ({ request }) => {
    const html = await (await request.get("/login")).text();
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length).toBeGreaterThan(3);
    for (const link of preloads) expect(link).toContain('fetchpriority="low"');
  });
});
