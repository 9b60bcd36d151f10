/**
 * Where the server finds the files it reads at run time, whether it runs from src/ under tsx (`npm start`) or
 * compiled into dist/ (`npm run build`, then `npm run start:prod`). Resolved from this module's own location, never
 * from the working directory, so the compiled server runs from anywhere.
 */

/** Under tsx this module is src/lib/build-paths.ts; compiled, it is <dist>/lib/build-paths.js. */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * The build output the server serves: under tsx, dist/ beside src/ (where `npm run build:web` puts the dashboard);
 * compiled, the directory the compiled server itself is in (`npm run build` puts the dashboard in its web/).
 */
export const BUILD_DIR: URL = RUNNING_FROM_SOURCE
  ? new URL("../../dist/", import.meta.url)
  : new URL("../", import.meta.url);

/** package.json: the repository's under tsx; compiled, the copy `npm run build` writes beside the compiled server. */
export const PACKAGE_JSON: URL = RUNNING_FROM_SOURCE
  ? new URL("../../package.json", import.meta.url)
  : new URL("package.json", BUILD_DIR);

/**
 * The embedded database as a first start leaves it (a cluster, every migration of the build applied), saved by
 * `npm run build` and named after the PGlite version that made it: a new data directory starts from it instead of
 * running initdb (seconds, in WebAssembly) and every migration.
 */
export function pgliteTemplate(pgliteVersion: string): URL {
  return new URL(`db/pglite-template-${pgliteVersion}.tar.gz`, BUILD_DIR);
}
