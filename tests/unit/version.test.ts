import { describe, expect, it } from "vitest";
import { checkVersion } from "~/domain/version";

describe("checkVersion: reload once, never loop", () => {
  it.each([
    // [app, live, marker, expected]
    [622, 622, null, "current"],
    [622, 621, null, "current"],
    [622, 622, 622, "current"],
    [622, 600, 623, "current"],
    [622, 623, null, "reload"],
    [622, 700, null, "reload"],
    [622, 623, 623, "reload-failed"],
    // A reload tried for an older live version does not count for a newer one.
    [622, 624, 623, "reload"],
    [622, 624, 624, "reload-failed"],
  ] as [number, number, number | null, string][])("app %i, live %i, marker %j -> %s", (app, live, marker, expected) => {
    expect(checkVersion(app, live, marker)).toBe(expected);
  });

  it("a client that reloads once and still sees the newer version reports a failure", () => {
    const live = 630;
    let marker: number | null = null;
    const first = checkVersion(622, live, marker);
    expect(first).toBe("reload");
    marker = live; // the client stores the version it reloaded for
    expect(checkVersion(622, live, marker)).toBe("reload-failed");
    // After the reload worked, the new build is current.
    expect(checkVersion(630, live, marker)).toBe("current");
  });
});
