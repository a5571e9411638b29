import { getProductImageHosts } from "~/services/image-hosts.server";

/**
 * Security headers of every HTML response; the nonce admits our own scripts only. Images come from
 * this site, data: and blob: URLs, and the retailer's product image hosts (checked https origins).
 */
export function securityHeaders(nonce: string, imageHosts: readonly string[] = []): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageHosts].join(" "),
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
}

/** The headers of a page as entry.server sends them: with the product image hosts in force. */
export async function pageSecurityHeaders(nonce: string): Promise<Record<string, string>> {
  return securityHeaders(nonce, await getProductImageHosts());
}
