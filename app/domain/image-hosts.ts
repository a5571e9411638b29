/**
 * The hosts of product images (a retailer setting, ADR 34): origins such as
 * https://images.example-retailer.com whose pictures the console's pages may load. They are added
 * to the content security policy's img-src, so only whole https origins are taken (no path,
 * query, wildcard, user or password), each once, at most MAX_IMAGE_HOSTS.
 */

export const MAX_IMAGE_HOSTS = 20;

export type ImageHostReason = "imageHosts:errors.notHttpsOrigin" | "imageHosts:errors.tooMany";

/** A typed host as an origin ("https://Images.Example.com/" -> "https://images.example.com"), or why not. */
export function checkImageHost(value: string): { ok: true; origin: string } | { ok: false; reason: ImageHostReason } {
  const text = value.trim();
  const refused = { ok: false as const, reason: "imageHosts:errors.notHttpsOrigin" as const };
  // Only the scheme, the host and an optional port: nothing a policy would read otherwise.
  if (!/^https:\/\/[^/?#@*\s;,'"]+\/?$/i.test(text)) return refused;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused;
  }
  if (url.protocol !== "https:" || url.username || url.password || !url.hostname.includes(".") || url.hostname.endsWith(".")) return refused;
  if (!/^[a-z0-9.-]+$/.test(url.hostname) || url.hostname.split(".").some((label) => !label || label.startsWith("-") || label.endsWith("-"))) return refused;
  return { ok: true, origin: url.origin };
}

/** The hosts typed one per line (blank lines left out): the origins, or the first bad line's value and reason. */
export function parseImageHosts(text: string): { ok: true; hosts: string[] } | { ok: false; value: string; reason: ImageHostReason } {
  const hosts: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const checked = checkImageHost(line);
    if (!checked.ok) return { ok: false, value: line.trim().slice(0, 100), reason: checked.reason };
    if (!hosts.includes(checked.origin)) hosts.push(checked.origin);
  }
  if (hosts.length > MAX_IMAGE_HOSTS) return { ok: false, value: hosts[MAX_IMAGE_HOSTS]!, reason: "imageHosts:errors.tooMany" };
  return { ok: true, hosts };
}

/** Whether a product image link is on one of the hosts (its origin, https). */
export function onImageHost(link: string, hosts: readonly string[]): boolean {
  if (!hosts.length || !link.startsWith("https://")) return false;
  try {
    return hosts.includes(new URL(link).origin);
  } catch {
    return false;
  }
}
