/** The guard's data: which resource a path needs, which paths are public, and the main menu. */
import { can, type Resource, type Subject } from "~/domain/permissions";

export const PUBLIC_PATHS = [
  "/login",
  "/forgot-password",
  "/auth-management",
  "/not-authorized",
  "/under-maintenance",
  "/error",
  "/error-404",
  /** The link of an invitation e-mail (?token=…). */
  "/invitation",
  /** Single sign-on (ADR 31): the start, the identity provider's answer and the console's SAML metadata. */
  "/auth/saml/login",
  "/auth/saml/acs",
  "/auth/saml/metadata",
] as const;

/** Pages a signed-in user is sent home from. */
export const SIGNED_OUT_ONLY_PATHS = ["/login", "/forgot-password"] as const;

export function isPublicPath(pathname: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(stripTrailingSlash(pathname));
}

export function isSignedOutOnlyPath(pathname: string): boolean {
  return (SIGNED_OUT_ONLY_PATHS as readonly string[]).includes(stripTrailingSlash(pathname));
}

function stripTrailingSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
}

/**
 * The route-to-resource map of the guard: the read right each screen needs (spec sections 2
 * and 6); null: any signed-in user. The guard (requireUser) reads it for every request, so a
 * route cannot forget or mis-name its resource.
 */
const SECTION_RESOURCE: Record<string, Resource | null> = {
  "": "Home",
  /** Every campaign page: the lists, the editor and its sections (…/products, …/keywords, …/categories), the preview. */
  campaigns: "Campaign",
  users: "User",
  teams: "Team",
  reports: "Report",
  profile: null,
  catalog: "Catalog",
  health: "Health",
  inventory: "Inventory",
  notifications: "Notification",
  settings: "RetailerSettings",
  faq: null,
  preferences: null,
  logout: null,
  /** The operators' tools: 'Log as' ends, the session's role; each use case checks its rule. */
  "log-as": null,
  "session-role": null,
  /** Stored files: each file's own rule (its team, its campaign) is checked by the route. */
  files: null,
  /** A report's file behind a signed link: no account needed (the link's signature is the right). */
  "report-files": null,
};

/** Under /teams/{id}: a team's page, and its tabs. */
const TEAM_TAB_RESOURCE: Record<string, Resource> = {
  wallets: "Wallet",
  campaigns: "Campaign",
  settings: "TeamPage",
};

/**
 * The resource a path needs to be read, or null when any signed-in user may open it. A path
 * of no known section needs Home (the least a signed-in user of any type reads), never nothing.
 */
export function resourceForPath(pathname: string): Resource | null {
  const [section = "", second, third] = pathname.split("?")[0].split("/").slice(1);
  if (section === "teams" && second && second !== "new") {
    return (third && TEAM_TAB_RESOURCE[third]) || "TeamPage";
  }
  return Object.hasOwn(SECTION_RESOURCE, section) ? SECTION_RESOURCE[section] : "Home";
}

export interface MenuItem {
  key: string;
  to: string;
  resource: Resource | null;
  /** Shortcut after the "g" prefix. */
  shortcut: string;
}

/**
 * The main menu in the spec's order. Only screens that exist are listed; later screens join
 * this list as they are built.
 */
export const MAIN_MENU: readonly MenuItem[] = [
  { key: "dashboard", to: "/", resource: "Home", shortcut: "d" },
  { key: "campaigns", to: "/campaigns", resource: "Campaign", shortcut: "c" },
  { key: "reports", to: "/reports", resource: "Report", shortcut: "r" },
  { key: "catalog", to: "/catalog", resource: "Catalog", shortcut: "k" },
  { key: "inventory", to: "/inventory", resource: "Inventory", shortcut: "i" },
  { key: "settings", to: "/settings", resource: "RetailerSettings", shortcut: "s" },
  { key: "activity", to: "/health", resource: "Health", shortcut: "a" },
  { key: "notifications", to: "/notifications", resource: "Notification", shortcut: "n" },
  { key: "faq", to: "/faq", resource: null, shortcut: "f" },
];

export function menuFor(subject: Subject): MenuItem[] {
  return MAIN_MENU.filter((item) => item.resource === null || can(subject, item.resource, "read"));
}

/**
 * The `to` value of /login (and every other return path) is honoured only for a path on this
 * site: one leading slash, no scheme, no protocol-relative or backslash tricks. The path is
 * normalised first (dot segments, %2e) and the check bears on what is returned, so `/.//x`
 * cannot come out as `//x`.
 */
export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2048) return fallback;
  if (!isSameSitePath(to)) return fallback;
  let normalised: string;
  try {
    const url = new URL(to, "http://site.invalid");
    if (url.origin !== "http://site.invalid") return fallback;
    normalised = url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
  return isSameSitePath(normalised) ? normalised : fallback;
}

function isSameSitePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return false;
  return !/[\u0000-\u001f\\]/.test(path);
}
