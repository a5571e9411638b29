import { describe, expect, it } from "vitest";
import { isPublicPath, isSignedOutOnlyPath, menuFor, safeRedirectPath } from "~/domain/navigation";
import type { Subject } from "~/domain/permissions";
import type { AccountType, Role } from "~/domain/types";

const subject = (type: AccountType, role: Role, roleByTeam: Record<string, Role> = {}): Subject => ({
  claims: { type, role },
  roleByTeam,
});

describe("safeRedirectPath honours only same-site paths", () => {
  it.each([
    ["/campaigns", "/campaigns"],
    ["/campaigns/abc?tab=wallets", "/campaigns/abc?tab=wallets"],
    ["/?tab=teams#teams", "/?tab=teams#teams"],
    ["/reports/r1/history?page=2&size=20#top", "/reports/r1/history?page=2&size=20#top"],
    ["/", "/"],
  ])("keeps %j", (to, expected) => {
    expect(safeRedirectPath(to)).toBe(expected);
  });

  it.each([
    ["https://evil.example/phish"],
    ["http://evil.example"],
    ["//evil.example/path"],
    ["///evil.example"],
    ["/\\evil.example"],
    ["/\\/evil.example"],
    ["\\\\evil.example"],
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(document.cookie)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["campaigns"],
    [" /campaigns"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/campaigns\r\nSet-Cookie: x=y"],
    ["/foo\u0000bar"],
    [""],
    ["/" + "a".repeat(2048)],
  ])("rejects %j", (to) => {
    expect(safeRedirectPath(to)).toBe("/");
  });

  it("falls back for values that are not strings, and to the given fallback", () => {
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(["/campaigns"])).toBe("/");
    expect(safeRedirectPath(42)).toBe("/");
    expect(safeRedirectPath("https://evil.example", "/login")).toBe("/login");
    expect(safeRedirectPath("/profile", "/login")).toBe("/profile");
  });

  // Dot segments (also percent-encoded) collapse into "//" once parsed: the returned path is checked.
  it.each([
    ["/.//evil.example"],
    ["/.//evil.example/path?x=1"],
    ["/%2e%2e//evil.example"],
    ["/%2E%2E//evil.example"],
    ["/%2e//evil.example"],
    ["/a/..//evil.example"],
    ["/a/b/../..//evil.example"],
    ["/a/%2e%2e//evil.example"],
    ["/././/evil.example"],
    ["/..//evil.example"],
    ["/../..//evil.example"],
    ["/.///evil.example"],
  ])("rejects %j, which normalises to a protocol-relative URL", (to) => {
    expect(safeRedirectPath(to)).toBe("/");
    expect(safeRedirectPath(to, "/login")).toBe("/login");
  });

  it("never returns something that leaves the site", () => {
    const variants = ["/%2F%2Fevil.example", "/./evil", "/../../etc/passwd", "/a/../../b", "/.%2F/evil", "/a/./b//c", "/%5C%5Cevil.example", "/.;//evil.example", "/%09/evil.example"];
    for (const dots of ["/.", "/..", "/%2e", "/%2e%2e", "/a/..", "/a/%2e%2e", "/./a/.."]) {
      for (const tail of ["//evil.example", "///evil.example", "/\\evil.example", "//evil.example/?q=1#x"]) variants.push(dots + tail);
    }
    for (const to of variants) {
      const result = safeRedirectPath(to);
      expect(result.startsWith("/")).toBe(true);
      expect(result.startsWith("//")).toBe(false);
      expect(new URL(result, "https://console.example").origin).toBe("https://console.example");
    }
  });
});

describe("menuFor per account type", () => {
  const keys = (s: Subject) => menuFor(s).map((item) => item.key);

  it.each([
    [subject("operator", "ADMIN"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "settings", "activity", "notifications", "faq"]],
    // Stepped down for the session, an operator's menu is a retailer's of that role (ADR 40).
    [subject("operator", "VIEWER"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "notifications", "faq"]],
    [subject("retailer", "ADMIN"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "settings", "notifications", "faq"]],
    [subject("retailer", "EDITOR"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "notifications", "faq"]],
    [subject("retailer", "REVIEWER"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "notifications", "faq"]],
    [subject("retailer", "VIEWER"), ["dashboard", "campaigns", "reports", "catalog", "inventory", "notifications", "faq"]],
    [subject("supplier", "ADMIN", { "team-a": "ADMIN" }), ["dashboard", "campaigns", "reports", "notifications", "faq"]],
    [subject("supplier", "VIEWER", { "team-a": "VIEWER" }), ["dashboard", "campaigns", "reports", "notifications", "faq"]],
  ] as [Subject, string[]][])("%o sees %j", (s, expected) => {
    expect(keys(s)).toEqual(expected);
  });

  it("links point at their screens, in the spec's menu order", () => {
    const items = menuFor(subject("operator", "ADMIN"));
    expect(items.map((i) => i.to)).toEqual(["/", "/campaigns", "/reports", "/catalog", "/inventory", "/settings", "/health", "/notifications", "/faq"]);
    // Shortcuts are unique.
    expect(new Set(items.map((i) => i.shortcut)).size).toBe(items.length);
  });
});

describe("public paths", () => {
  it.each(["/login", "/forgot-password", "/auth-management", "/not-authorized", "/under-maintenance", "/error", "/error-404", "/login/"])(
    "%s is public",
    (path) => {
      expect(isPublicPath(path)).toBe(true);
    },
  );

  it.each(["/", "/campaigns", "/profile", "/health", "/settings", "/loginx", "/login/extra", "/errors", "/faq"])(
    "%s is not public",
    (path) => {
      expect(isPublicPath(path)).toBe(false);
    },
  );

  it("only login and forgot-password send a signed-in user home", () => {
    expect(isSignedOutOnlyPath("/login")).toBe(true);
    expect(isSignedOutOnlyPath("/forgot-password/")).toBe(true);
    expect(isSignedOutOnlyPath("/auth-management")).toBe(false);
    expect(isSignedOutOnlyPath("/not-authorized")).toBe(false);
  });
});
