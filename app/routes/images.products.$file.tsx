import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * Placeholder pictures for the demo catalog (/images/products/<id>.svg): a tile with the product
 * id, coloured from it, so lists show a stable picture without shipping thousands of files. A
 * retailer's real catalog carries its own image links. Static SVG, no script, no user text.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([A-Za-z0-9_-]{1,40})\.svg$/.exec(params.file ?? "");
  if (!match) return new Response("Not found", { status: 404 });
  const id = match[1]!;
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const label = id.replace(/^SKU-0*/, "#");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120"><rect width="120" height="120" rx="12" fill="hsl(${hue} 45% 88%)"/><rect x="30" y="26" width="60" height="50" rx="8" fill="hsl(${hue} 40% 62%)"/><text x="60" y="100" font-family="sans-serif" font-size="14" text-anchor="middle" fill="hsl(${hue} 50% 22%)">${label}</text></svg>`;
  return new Response(svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
