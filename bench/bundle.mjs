// The benches' TypeScript, bundled with esbuild and imported: the app's modules (the `~` alias)
// inlined, npm packages left to node_modules. The bundle sits inside the project
// (node_modules/.cache) so that those packages resolve.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `source`: a file of the project, or TypeScript text (its relative imports from the project's root). */
export async function importTs(name, source) {
  const cache = path.join(root, "node_modules/.cache");
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, `ads-bench-${name}-`));
  const outfile = path.join(dir, `${name}.mjs`);
  await build({
    ...("file" in source ? { entryPoints: [path.join(root, source.file)] } : { stdin: { contents: source.contents, resolveDir: root, loader: "ts" } }),
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    packages: "external",
    alias: { "~": path.join(root, "app") },
    logLevel: "error",
  });
  return { dir, module: await import(pathToFileURL(outfile).href) };
}
