// `npm run build`: everything the compiled server needs, in one directory (dist/ unless `--out-dir <dir>`):
//   main.js and the rest of src/ compiled (tsconfig.build.json: tests left out, .ts imports rewritten to .js),
//   db/migrations (the SQL files and meta/_journal.json, read by the migrator at startup),
//   db/pglite-template-<version>.tar.gz (an embedded database, migrated: a new data directory starts from it),
//   web/ (the dashboard's Vite build) and a package.json (the version the server reports; ES modules).
// The directory is emptied first, so nothing of an older build lingers. `npm run start:prod` runs dist/main.js.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const flag = process.argv.indexOf("--out-dir");
const outDir = resolve(root, flag >= 0 ? (process.argv[flag + 1] ?? "") : "dist");
if (outDir === root || !outDir.startsWith(`${root}/`)) {
  // The compiled server finds its dependencies in the repository's node_modules, so it must be built inside it.
  console.error(`build: the output directory must be inside ${root}`);
  process.exit(1);
}
const started = Date.now();
rmSync(outDir, { recursive: true, force: true });

const require = createRequire(import.meta.url);
const tsc = spawnSync(
  process.execPath,
  [
    join(dirname(require.resolve("typescript/package.json")), "bin", "tsc"),
    "-p",
    join(root, "tsconfig.build.json"),
    "--outDir",
    outDir,
  ],
  { cwd: root, stdio: "inherit" },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

cpSync(join(root, "src", "db", "migrations"), join(outDir, "db", "migrations"), { recursive: true });

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const runtime = { name: pkg.name, version: pkg.version, private: true, type: "module", engines: pkg.engines };
writeFileSync(join(outDir, "package.json"), `${JSON.stringify(runtime, null, 2)}\n`);

// The embedded database as the first start leaves it: a cluster with every migration of this build applied. A new
// data directory starts from it (src/db/client.ts) instead of running initdb in WebAssembly and then every migration,
// seconds of work; the start's own migration run then finds nothing left to do.
let pgliteDir = dirname(require.resolve("@electric-sql/pglite"));
while (!existsSync(join(pgliteDir, "package.json"))) pgliteDir = dirname(pgliteDir);
const pgliteVersion = JSON.parse(readFileSync(join(pgliteDir, "package.json"), "utf8")).version;
const { openDatabase } = await import(pathToFileURL(join(outDir, "db", "client.js")).href);
const { runMigrations } = await import(pathToFileURL(join(outDir, "db", "migrate.js")).href);
const blank = await openDatabase("pglite://memory");
await runMigrations(blank);
const dump = Buffer.from(await (await blank.pglite.dumpDataDir("gzip")).arrayBuffer());
await blank.close();
writeFileSync(join(outDir, "db", `pglite-template-${pgliteVersion}.tar.gz`), dump);

const { build } = await import("vite");
await build({ configFile: join(root, "vite.config.ts"), build: { outDir: join(outDir, "web"), emptyOutDir: true } });

console.log(
  `build: ${relative(root, outDir)}/ in ${((Date.now() - started) / 1000).toFixed(1)} s; run it with node ${relative(root, outDir)}/main.js`,
);
