/**
 * The whole rights matrix of app/domain/permissions.ts, checked against a table written here by
 * hand from NOTES.md "Rights (spec section 6, made whole)" and spec section 6. Nothing below is
 * derived from the RIGHTS constant, so a wrong cell in the app makes a test fail.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resourceForPath } from "~/domain/navigation";
import { mayCreateReportFor } from "~/domain/reports";
import {
  ACTIONS,
  RESOURCES,
  can,
  canGrant,
  canSeeSensitive,
  effectiveTeamRole,
  isReviewer,
  isTeamAdmin,
  isTeamManager,
  isViewer,
  hasOperatorRights,
  lowerRole,
  rightsAccountType,
  roleRank,
  teamRoleOn,
  type Action,
  type Resource,
  type Subject,
} from "~/domain/permissions";
import { ROLES, type AccountType, type Claims, type Role } from "~/domain/types";

// ------------------------------------------------------------------------------------------
// The vocabulary, written out independently.
// ------------------------------------------------------------------------------------------

const ROLE_ORDER: Role[] = ["VIEWER", "REVIEWER", "EDITOR", "ADMIN"];
const TYPES: AccountType[] = ["operator", "retailer", "supplier"];
const ALL_RESOURCES: Resource[] = [
  "Home",
  "Campaign",
  "User",
  "Team",
  "TeamPage",
  "Wallet",
  "Report",
  "Catalog",
  "Inventory",
  "Health",
  "Notification",
  "RetailerSettings",
];
const ALL_ACTIONS: Action[] = [
  "read",
  "create",
  "update",
  "delete",
  "lifecycle",
  "restricted-lifecycle",
  "approve",
  "reject",
  "manage-members",
  "manage-all",
];
const TEAM_SCOPED: Resource[] = ["Campaign", "TeamPage", "Wallet", "Report"];

/** "all" = every action; otherwise a space-separated list; "" = nothing. */
type Cell = string;
type Row = Record<Resource, Cell>;

const expand = (cell: Cell): Action[] => (cell === "all" ? [...ALL_ACTIONS] : (cell.split(" ").filter(Boolean) as Action[]));

// ------------------------------------------------------------------------------------------
// The expected table (NOTES.md rights table, column by column).
// ------------------------------------------------------------------------------------------

/** Notifications are "own" for everybody: read them and mark them read, never others'. */
const OWN_NOTIFICATIONS = "read update";
/** Reports: "read, create and edit own". */
const OWN_REPORTS = "read create update";
const CAMPAIGN_EDITOR = "read create update lifecycle";

const operatorAdmin: Row = {
  Home: "all",
  Campaign: "all",
  User: "all",
  Team: "all",
  TeamPage: "all",
  Wallet: "all",
  Report: "all",
  Catalog: "all",
  Inventory: "all",
  Health: "all",
  Notification: OWN_NOTIFICATIONS,
  RetailerSettings: "all",
};

const retailerAdmin: Row = {
  Home: "read",
  Campaign: "all",
  User: "all",
  Team: "all",
  TeamPage: "all",
  Wallet: "all",
  Report: "all",
  Catalog: "read",
  Inventory: "read",
  Health: "",
  Notification: OWN_NOTIFICATIONS,
  RetailerSettings: "read",
};

function retailerStaff(campaign: Cell): Row {
  return {
    Home: "read",
    Campaign: campaign,
    User: "",
    Team: "",
    TeamPage: "read",
    Wallet: "read",
    Report: OWN_REPORTS,
    Catalog: "read",
    Inventory: "read",
    Health: "",
    Notification: OWN_NOTIFICATIONS,
    RetailerSettings: "",
  };
}

function supplier(campaign: Cell, teamPage: Cell): Row {
  return {
    Home: "read",
    Campaign: campaign,
    User: "",
    Team: "",
    TeamPage: teamPage,
    Wallet: "read",
    Report: OWN_REPORTS,
    Catalog: "",
    Inventory: "",
    Health: "",
    Notification: OWN_NOTIFICATIONS,
    RetailerSettings: "",
  };
}

/**
 * An operator who stepped down for the session (spec section 6: "may temporarily downgrade own
 * role"): exactly what a retailer of that role may do, and nothing of the operator's, not even
 * reading Activity or the retailer settings (ADR 40). Written out again, not copied from below.
 */
const EXPECTED: Record<AccountType, Record<Role, Row>> = {
  operator: {
    ADMIN: operatorAdmin,
    EDITOR: retailerStaff(CAMPAIGN_EDITOR),
    REVIEWER: retailerStaff("read approve reject"),
    VIEWER: retailerStaff("read"),
  },
  retailer: {
    ADMIN: retailerAdmin,
    EDITOR: retailerStaff(CAMPAIGN_EDITOR),
    REVIEWER: retailerStaff("read approve reject"),
    VIEWER: retailerStaff("read"),
  },
  supplier: {
    // Team ADMIN manages the members of their teams; EDITOR and ADMIN run campaigns.
    ADMIN: supplier(CAMPAIGN_EDITOR, "read manage-members"),
    EDITOR: supplier(CAMPAIGN_EDITOR, "read"),
    REVIEWER: supplier("read", "read"),
    VIEWER: supplier("read", "read"),
  },
};

const subject = (type: AccountType, role: Role, roleByTeam: Record<string, Role> = {}): Subject => ({
  claims: { type, role },
  roleByTeam,
});

const allowedActions = (s: Subject, resource: Resource, scope: { teamId?: string } = {}): Action[] =>
  ALL_ACTIONS.filter((action) => can(s, resource, action, scope));

const lower = (a: Role, b: Role): Role => (ROLE_ORDER.indexOf(a) <= ROLE_ORDER.indexOf(b) ? a : b);

// ------------------------------------------------------------------------------------------

describe("vocabulary", () => {
  it("has the roles in the order VIEWER < REVIEWER < EDITOR < ADMIN", () => {
    expect([...ROLES]).toEqual(ROLE_ORDER);
    const ranks = ROLE_ORDER.map(roleRank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(4);
  });

  it("covers every resource and action the matrix below checks (and no others)", () => {
    expect([...RESOURCES].sort()).toEqual([...ALL_RESOURCES].sort());
    expect([...ACTIONS].sort()).toEqual([...ALL_ACTIONS].sort());
  });

  it.each([
    ["VIEWER", "ADMIN", "VIEWER"],
    ["ADMIN", "VIEWER", "VIEWER"],
    ["EDITOR", "REVIEWER", "REVIEWER"],
    ["REVIEWER", "EDITOR", "REVIEWER"],
    ["ADMIN", "EDITOR", "EDITOR"],
    ["ADMIN", "ADMIN", "ADMIN"],
  ] as [Role, Role, Role][])("lowerRole(%s, %s) is %s", (a, b, expected) => {
    expect(lowerRole(a, b)).toBe(expected);
  });
});

describe("the whole matrix: account type × role × resource × action", () => {
  const cases = TYPES.flatMap((type) =>
    ROLE_ORDER.flatMap((role) => ALL_RESOURCES.map((resource) => [type, role, resource] as const)),
  );
  it.each(cases)("%s %s on %s", (type, role, resource) => {
    const expected = expand(EXPECTED[type][role][resource]);
    expect(allowedActions(subject(type, role), resource)).toEqual(expected);
  });

  it("read is the default action", () => {
    expect(can(subject("retailer", "VIEWER"), "Catalog")).toBe(true);
    expect(can(subject("supplier", "ADMIN"), "Catalog")).toBe(false);
  });

  it("retailers and operators are not restricted by a team scope", () => {
    for (const type of ["operator", "retailer"] as const) {
      for (const role of ROLE_ORDER) {
        for (const resource of TEAM_SCOPED) {
          expect(allowedActions(subject(type, role), resource, { teamId: "any-team" })).toEqual(
            expand(EXPECTED[type][role][resource]),
          );
        }
      }
    }
  });
});

describe("supplier: effective team role is the lower of claim role and team role", () => {
  const pairs = ROLE_ORDER.flatMap((claim) => ROLE_ORDER.map((team) => [claim, team] as const));

  it.each(pairs)("claim %s, team role %s", (claimRole, teamRole) => {
    const s = subject("supplier", claimRole, { "team-a": teamRole });
    const effective = lower(claimRole, teamRole);
    expect(effectiveTeamRole(s, "team-a")).toBe(effective);
    for (const resource of TEAM_SCOPED) {
      expect(allowedActions(s, resource, { teamId: "team-a" }), resource).toEqual(
        expand(EXPECTED.supplier[effective][resource]),
      );
      // No role on a team: nothing team-scoped there.
      expect(allowedActions(s, resource, { teamId: "team-b" }), resource).toEqual([]);
    }
    // What is not team-scoped follows the claim, with or without a team.
    for (const resource of ["Home", "Notification", "Catalog", "User", "Health"] as Resource[]) {
      expect(allowedActions(s, resource, { teamId: "team-a" }), resource).toEqual(
        expand(EXPECTED.supplier[claimRole][resource]),
      );
    }
  });

  it("a team id named like an object's own property is no team of the user's", () => {
    const s = subject("supplier", "ADMIN", { "team-a": "ADMIN" });
    for (const teamId of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect(teamRoleOn(s.roleByTeam, teamId), teamId).toBeUndefined();
      expect(effectiveTeamRole(s, teamId), teamId).toBeNull();
      expect(mayCreateReportFor({ ...s, id: "u" }, teamId), teamId).toBe(false);
      for (const resource of TEAM_SCOPED) expect(allowedActions(s, resource, { teamId }), `${teamId} ${resource}`).toEqual([]);
    }
    expect(teamRoleOn(s.roleByTeam, "team-a")).toBe("ADMIN");
    expect(mayCreateReportFor({ ...s, id: "u" }, "team-a")).toBe(true);
  });

  it("claim ADMIN with team VIEWER reads the team's campaigns, wallets and pages but changes nothing", () => {
    const s = subject("supplier", "ADMIN", { "team-a": "VIEWER" });
    for (const resource of ["Campaign", "TeamPage", "Wallet"] as Resource[]) {
      expect(allowedActions(s, resource, { teamId: "team-a" })).toEqual(["read"]);
    }
    expect(can(s, "TeamPage", "manage-members", { teamId: "team-a" })).toBe(false);
    expect(isTeamAdmin(s, "team-a")).toBe(false);
  });

  it("claim VIEWER with team ADMIN stays read-only on campaigns", () => {
    const s = subject("supplier", "VIEWER", { "team-a": "ADMIN" });
    expect(allowedActions(s, "Campaign", { teamId: "team-a" })).toEqual(["read"]);
    expect(can(s, "TeamPage", "manage-members", { teamId: "team-a" })).toBe(false);
  });

  it("a supplier with no role on a team has no effective role there", () => {
    expect(effectiveTeamRole(subject("supplier", "ADMIN", { "team-a": "ADMIN" }), "team-b")).toBeNull();
    expect(effectiveTeamRole(subject("supplier", "ADMIN"), "team-a")).toBeNull();
  });

  it("for retailers and operators the effective team role is their claim role", () => {
    expect(effectiveTeamRole(subject("retailer", "EDITOR"), "team-a")).toBe("EDITOR");
    expect(effectiveTeamRole(subject("operator", "ADMIN", { "team-a": "VIEWER" }), "team-a")).toBe("ADMIN");
  });
});

describe("named helpers of spec section 6", () => {
  const everyone = TYPES.flatMap((type) => ROLE_ORDER.map((role) => ({ type, role }) as Claims));
  const label = (c: Claims) => `${c.type} ${c.role}`;

  it("isReviewer: retailer REVIEWER or operator; an operator stepped down is a reviewer only as REVIEWER", () => {
    const reviewers = everyone.filter(isReviewer).map(label);
    expect(reviewers).toEqual(["operator REVIEWER", "operator ADMIN", "retailer REVIEWER"]);
  });

  it("isTeamManager: retailer ADMIN or operator at ADMIN; an operator stepped down is none", () => {
    const managers = everyone.filter(isTeamManager).map(label);
    expect(managers).toEqual(["operator ADMIN", "retailer ADMIN"]);
  });

  it("isViewer: the role is VIEWER, whatever the account type", () => {
    expect(everyone.filter(isViewer).map(label)).toEqual(["operator VIEWER", "retailer VIEWER", "supplier VIEWER"]);
  });

  it("canSeeSensitive: operators and retailers only", () => {
    expect(everyone.filter((c) => !canSeeSensitive(c)).map(label)).toEqual([
      "supplier VIEWER",
      "supplier REVIEWER",
      "supplier EDITOR",
      "supplier ADMIN",
    ]);
  });

  it.each([
    [subject("operator", "VIEWER"), "team-a", false],
    [subject("operator", "EDITOR"), "team-a", false],
    [subject("operator", "ADMIN"), "team-z", true],
    [subject("retailer", "ADMIN"), "team-a", true],
    [subject("retailer", "EDITOR"), "team-a", false],
    [subject("supplier", "ADMIN", { "team-a": "ADMIN" }), "team-a", true],
    [subject("supplier", "ADMIN", { "team-a": "ADMIN" }), "team-b", false],
    [subject("supplier", "ADMIN", { "team-a": "EDITOR" }), "team-a", false],
    [subject("supplier", "EDITOR", { "team-a": "ADMIN" }), "team-a", false],
  ] as [Subject, string, boolean][])("isTeamAdmin(%o, %s) is %s", (s, teamId, expected) => {
    expect(isTeamAdmin(s, teamId)).toBe(expected);
  });

  describe("canGrant: nobody grants a right above their own", () => {
    const c = (type: AccountType, role: Role): Claims => ({ type, role });
    it.each([
      // Operators (at ADMIN) grant anything; stepped down for the session, nothing, like a
      // retailer of that role (ADR 40).
      [c("operator", "ADMIN"), c("operator", "ADMIN"), true],
      [c("operator", "ADMIN"), c("retailer", "ADMIN"), true],
      [c("operator", "ADMIN"), c("supplier", "VIEWER"), true],
      [c("operator", "EDITOR"), c("retailer", "EDITOR"), false],
      [c("operator", "EDITOR"), c("retailer", "ADMIN"), false],
      [c("operator", "VIEWER"), c("supplier", "VIEWER"), false],
      [c("operator", "VIEWER"), c("supplier", "REVIEWER"), false],
      // Retailer ADMIN: retailer and supplier users, never operators.
      [c("retailer", "ADMIN"), c("retailer", "ADMIN"), true],
      [c("retailer", "ADMIN"), c("supplier", "EDITOR"), true],
      [c("retailer", "ADMIN"), c("operator", "VIEWER"), false],
      // Not team managers: nothing.
      [c("retailer", "EDITOR"), c("retailer", "VIEWER"), false],
      [c("retailer", "REVIEWER"), c("supplier", "VIEWER"), false],
      [c("retailer", "VIEWER"), c("retailer", "VIEWER"), false],
      [c("supplier", "ADMIN"), c("supplier", "VIEWER"), false],
      [c("supplier", "VIEWER"), c("supplier", "VIEWER"), false],
    ] as [Claims, Claims, boolean][])("%o grants %o: %s", (granter, target, expected) => {
      expect(canGrant(granter, target)).toBe(expected);
    });
  });
});

describe("an operator stepped down for the session has a retailer's rights of that role (ADR 40)", () => {
  const STEPPED: Role[] = ["EDITOR", "REVIEWER", "VIEWER"];

  it("only an operator at ADMIN holds operator rights; stepped down, the rights are a retailer's", () => {
    expect(hasOperatorRights({ type: "operator", role: "ADMIN" })).toBe(true);
    expect(rightsAccountType({ type: "operator", role: "ADMIN" })).toBe("operator");
    for (const role of STEPPED) {
      expect(hasOperatorRights({ type: "operator", role }), role).toBe(false);
      expect(rightsAccountType({ type: "operator", role }), role).toBe("retailer");
    }
    expect(hasOperatorRights({ type: "retailer", role: "ADMIN" })).toBe(false);
    expect(rightsAccountType({ type: "supplier", role: "ADMIN" })).toBe("supplier");
  });

  it.each(STEPPED)("as %s: every check answers what it answers a retailer of that role, on any team", (role) => {
    const op = subject("operator", role);
    const retailer = subject("retailer", role);
    for (const resource of ALL_RESOURCES) {
      for (const teamId of [undefined, "team-a"]) {
        const scope = teamId ? { teamId } : {};
        expect(allowedActions(op, resource, scope), `${resource} ${teamId}`).toEqual(allowedActions(retailer, resource, scope));
      }
    }
    expect(isTeamManager(op.claims)).toBe(isTeamManager(retailer.claims));
    expect(isReviewer(op.claims)).toBe(isReviewer(retailer.claims));
    expect(isTeamAdmin(op, "team-a")).toBe(isTeamAdmin(retailer, "team-a"));
    expect(canSeeSensitive(op.claims)).toBe(canSeeSensitive(retailer.claims));
    for (const target of TYPES.flatMap((type) => ROLE_ORDER.map((r) => ({ type, role: r }) as Claims))) {
      expect(canGrant(op.claims, target), `${target.type} ${target.role}`).toBe(canGrant(retailer.claims, target));
    }
  });

  it("the auditor's case: stepped down to VIEWER or REVIEWER, no test mode, suspend, disable (team manager); as EDITOR, no approve or reject", () => {
    for (const role of ["VIEWER", "REVIEWER"] as Role[]) {
      expect(isTeamManager({ type: "operator", role }), role).toBe(false);
      expect(can(subject("operator", role), "Campaign", "restricted-lifecycle"), role).toBe(false);
      expect(can(subject("operator", role), "Campaign", "update"), role).toBe(false);
    }
    expect(isReviewer({ type: "operator", role: "EDITOR" })).toBe(false);
    expect(can(subject("operator", "EDITOR"), "Campaign", "approve")).toBe(false);
    expect(can(subject("operator", "EDITOR"), "Wallet", "update")).toBe(false);
    expect(can(subject("operator", "EDITOR"), "Team", "update")).toBe(false);
    // Back at ADMIN, every right again.
    expect(isTeamManager({ type: "operator", role: "ADMIN" })).toBe(true);
    expect(isReviewer({ type: "operator", role: "ADMIN" })).toBe(true);
    expect(allowedActions(subject("operator", "ADMIN"), "Wallet")).toEqual([...ALL_ACTIONS]);
  });
});

describe("route read rights per account type (spec sections 2 and 6)", () => {
  const ROUTES: [path: string, resource: Resource | null][] = [
    ["/", "Home"],
    ["/campaigns", "Campaign"],
    ["/campaigns/abc123", "Campaign"],
    ["/campaigns/team-acme", "Campaign"],
    ["/users", "User"],
    ["/teams", "Team"],
    ["/reports", "Report"],
    ["/reports/r1/history", "Report"],
    ["/catalog", "Catalog"],
    ["/inventory", "Inventory"],
    ["/health", "Health"],
    ["/notifications", "Notification"],
    ["/settings", "RetailerSettings"],
    ["/profile", null],
    ["/faq", null],
  ];
  /** Team pages and their tabs; not menu screens, so not in the profiles below. */
  const TEAM_ROUTES: [path: string, resource: Resource | null][] = [
    ["/teams/new", "Team"],
    ["/teams/team-acme", "TeamPage"],
    ["/teams/team-acme/settings", "TeamPage"],
    ["/teams/team-acme/settings/members", "TeamPage"],
    ["/teams/team-acme/wallets", "Wallet"],
    ["/teams/team-acme/wallets/w1", "Wallet"],
    ["/teams/team-acme/wallets/w1/export.csv", "Wallet"],
    ["/teams/team-acme/campaigns", "Campaign"],
    ["/teams/team-acme/campaigns/new/banner", "Campaign"],
    ["/settings/retailer", "RetailerSettings"],
    ["/users/u1", "User"],
    ["/campaigns/c1/history.csv", "Campaign"],
    ["/campaigns/c1/keywords", "Campaign"],
    ["/campaigns/c1/categories", "Campaign"],
    ["/files/teams/t1/logo.png", null],
    ["/a-screen-nobody-mapped", "Home"],
  ];

  it.each([...ROUTES, ...TEAM_ROUTES])("%s needs %s read", (path, resource) => {
    expect(resourceForPath(path)).toBe(resource);
  });

  const ALL_PATHS = ROUTES.map(([path]) => path);
  const without = (...paths: string[]) => ALL_PATHS.filter((p) => !paths.includes(p));
  const RETAILER_ADMIN = without("/health");
  const RETAILER_STAFF = without("/health", "/users", "/teams", "/settings");
  const SUPPLIER = without("/health", "/users", "/teams", "/settings", "/catalog", "/inventory");
  const OPENS: Record<AccountType, Record<Role, string[]>> = {
    // Stepped down, an operator opens what a retailer of the session role opens (ADR 40).
    operator: { ADMIN: ALL_PATHS, EDITOR: RETAILER_STAFF, REVIEWER: RETAILER_STAFF, VIEWER: RETAILER_STAFF },
    retailer: { ADMIN: RETAILER_ADMIN, EDITOR: RETAILER_STAFF, REVIEWER: RETAILER_STAFF, VIEWER: RETAILER_STAFF },
    supplier: { ADMIN: SUPPLIER, EDITOR: SUPPLIER, REVIEWER: SUPPLIER, VIEWER: SUPPLIER },
  };

  const profiles = TYPES.flatMap((type) => ROLE_ORDER.map((role) => [type, role] as const));
  it.each(profiles)("%s %s opens exactly its screens", (type, role) => {
    const opened = ALL_PATHS.filter((path) => {
      const resource = resourceForPath(path);
      return resource === null || can(subject(type, role), resource, "read");
    });
    expect(opened).toEqual(OPENS[type][role]);
  });

  it("spec section 6 in words: retailer reads Home, Campaign, Report, Catalog, Inventory, Notification; supplier Home, Campaign, Report, Notification", () => {
    const readable = (s: Subject) => ALL_RESOURCES.filter((r) => can(s, r, "read"));
    for (const role of ROLE_ORDER) {
      const retailer = readable(subject("retailer", role));
      for (const r of ["Home", "Campaign", "Report", "Catalog", "Inventory", "Notification"] as Resource[]) {
        expect(retailer, `retailer ${role}`).toContain(r);
      }
      expect(retailer, `retailer ${role}`).not.toContain("Health");
      // TeamPage and Wallet are not routes of spec section 2 (team pages, read on own teams).
      expect(readable(subject("supplier", role)).filter((r) => r !== "TeamPage" && r !== "Wallet")).toEqual([
        "Home",
        "Campaign",
        "Report",
        "Notification",
      ]);
    }
    expect(readable(subject("operator", "ADMIN"))).toEqual(ALL_RESOURCES);
  });
});

describe("every route's guard call agrees with the route-to-resource map", () => {
  const ROUTES_DIR = path.join(__dirname, "../../app/routes");

  /** A sample URL path for a Remix flat-routes file name (params become "x"). */
  function samplePath(file: string): string {
    const name = file.replace(/\.tsx?$/, "").replace(/\[\.\]/g, "\u0000");
    const segments = name
      .split(".")
      .map((segment) => segment.replace(/\u0000/g, "."))
      .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
      .map((segment) => (segment.startsWith("$") ? "x" : segment.replace(/_$/, "")));
    return "/" + segments.join("/");
  }

  const files = fs.readdirSync(ROUTES_DIR).filter((f) => /\.tsx?$/.test(f));
  const guarded = files
    .map((file) => {
      const source = fs.readFileSync(path.join(ROUTES_DIR, file), "utf8");
      const calls = [...source.matchAll(/requireUser\(request(?:,\s*"([A-Za-z]+)")?\)/g)].map((m) => (m[1] ?? null) as Resource | null);
      return [file, samplePath(file), calls] as const;
    })
    .filter(([, , calls]) => calls.length > 0);

  it("finds the guarded routes", () => {
    expect(guarded.map(([file]) => file)).toEqual(expect.arrayContaining(["_index.tsx", "campaigns._index.tsx", "health.tsx", "teams.$teamId.wallets.tsx", "profile.tsx"]));
    expect(samplePath("teams.$teamId.wallets_.$walletId.export[.]csv.tsx")).toBe("/teams/x/wallets/x/export.csv");
    expect(samplePath("settings_.retailer.tsx")).toBe("/settings/retailer");
  });

  it.each(guarded)("%s (%s) names the map's resource", (_file, samplePathname, calls) => {
    for (const named of calls) expect(named).toBe(resourceForPath(samplePathname));
  });
});
