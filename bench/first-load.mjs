// First-load JavaScript as the browser loads a URL: the client entry and its imports, the root
// route and every route module of the URL's chain (layouts, the page, the index route a layout
// renders) with all their static imports, followed transitively through the esbuild metafile.
// Each file counts once, gzip level 9.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const gzipCache = new Map();
export function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length);
  return gzipCache.get(file);
}

/** Static imports of one public/build file, from the esbuild metafile (transitive). */
function importGraph(root) {
  const metaFile = path.join(root, "build/metafile.js.json");
  const graph = new Map();
  if (!fs.existsSync(metaFile)) return graph;
  const { outputs } = JSON.parse(fs.readFileSync(metaFile, "utf8"));
  for (const [out, meta] of Object.entries(outputs)) {
    if (!out.endsWith(".js")) continue;
    const url = "/" + path.relative(path.join(root, "public"), path.join(root, out)).split(path.sep).join("/");
    const imports = (meta.imports ?? [])
      .filter((i) => i.kind === "import-statement" && i.path.endsWith(".js"))
      .map((i) => "/" + path.relative(path.join(root, "public"), path.join(root, i.path)).split(path.sep).join("/"));
    graph.set(url, imports);
  }
  return graph;
}

export function closure(urls, graph) {
  const seen = new Set();
  const stack = [...urls];
  while (stack.length) {
    const url = stack.pop();
    if (seen.has(url)) continue;
    seen.add(url);
    for (const next of graph.get(url) ?? []) stack.push(next);
  }
  return seen;
}

/**
 * One row per page URL pattern: routes with a component (resource routes are not pages), a layout
 * that renders an index route counted through that index route.
 */
export async function firstLoadPerPage(root) {
  const build = await import(path.join(root, "build/index.js"));
  const { assets, routes } = build;
  const graph = importGraph(root);
  const publicDir = path.join(root, "public");
  const isPage = (r) => typeof r.module.default === "function";
  const indexChild = new Map(Object.values(routes).filter((r) => r.index && !r.path).map((r) => [r.parentId, r]));
  const rows = [];
  for (const [id, route] of Object.entries(routes)) {
    if (id === "root") continue;
    // An index route is counted with the layout whose URL renders it (unless that layout is root).
    if (route.index && !route.path && route.parentId !== "root") continue;
    const chain = [];
    for (let r = route; r; r = r.parentId ? routes[r.parentId] : undefined) chain.unshift(r.id);
    for (let r = indexChild.get(id); r; r = indexChild.get(r.id)) chain.push(r.id);
    if (!isPage(routes[chain[chain.length - 1]])) continue; // resource routes are not pages
    const urls = [assets.entry.module, ...assets.entry.imports];
    for (const rid of chain) urls.push(assets.routes[rid].module, ...(assets.routes[rid].imports ?? []));
    const files = closure(urls, graph);
    const bytes = [...files].reduce((sum, url) => sum + gzipSize(path.join(publicDir, url)), 0);
    const pattern =
      "/" +
      chain
        .map((rid) => routes[rid].path)
        .filter(Boolean)
        .join("/");
    rows.push({ id, pattern: pattern.replace(/\/+/g, "/"), chain: chain.filter((c) => c !== "root"), bytes, files: files.size });
  }
  return rows.sort((a, b) => a.pattern.localeCompare(b.pattern) || a.id.localeCompare(b.id));
}

/** gzip size of the /build/ scripts a browser fetched (from Lighthouse's network records). */
export function observedScripts(root, urls) {
  const files = new Set();
  for (const u of urls) {
    const { pathname } = new URL(u);
    if (pathname.startsWith("/build/") && pathname.endsWith(".js")) files.add(pathname);
  }
  const bytes = [...files].reduce((sum, url) => sum + gzipSize(path.join(root, "public", url)), 0);
  return { files: files.size, bytes };
}
