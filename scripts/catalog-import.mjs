// `npm run catalog:import -- path/to/feed.csv`: imports a catalog feed into the storage the
// environment (or .env, as for the server) configures, through the import form's use case, and
// prints the report. The command's TypeScript (app/cli/catalog-import.server.ts) is bundled with
// esbuild as the benches' is (bench/bundle.mjs).
import fs from "node:fs";
import { importTs } from "../bench/bundle.mjs";

try {
  process.loadEnvFile(".env");
} catch {
  /* no .env: defaults and the environment apply */
}
process.env.NODE_ENV ??= "production";

const { dir, module } = await importTs("catalog-import", {
  contents: [`export { catalogImportCli } from "~/cli/catalog-import.server";`, `export { closeStorage } from "~/storage/index.server";`].join("\n"),
});
let code = 1;
try {
  code = await module.catalogImportCli(process.argv.slice(2));
} finally {
  await module.closeStorage();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
