/**
 * What the browser bundle gets for the module "zod/v4" (tsconfig.json `paths`, which Remix's
 * esbuild applies to the browser build; the server and the tests import conform from
 * node_modules, where "zod/v4" is zod's full build).
 *
 * @conform-to/zod/v4 builds its form-value coercion with `lazy`, `optional`, `pipe` and
 * `transform` imported from "zod/v4", which would pull zod's full ("classic") build, about 20 KiB
 * gzip, into every page with a form. zod/mini's functions of the same names build the same
 * zod/v4/core schemas, so a form parses the same in the browser and on the server; the forms'
 * schemas themselves are written with zod/mini (app/forms). zod's English messages, which the
 * full build installs when imported (as it is on the server), are installed here too, so an
 * issue without a message of ours reads the same on both sides.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export { lazy, optional, pipe, transform } from "zod/mini";
