// `npm run build`: everything the compiled server needs, in one directory (dist/ unless `--out-dir <dir>`):
//   main.js and the rest of src/ compiled (tsconfig.build.json: tests left out, .ts imports rewritten to .js),
//   db/migrations (the SQL files and meta/_journal.json, read by the migrator at startup),
//   web/ (the dashboard's Vite build) and a package.json (the version the server reports; ES modules).
// The directory is emptied first, so nothing of an older build lingers. `npm run start:prod` runs dist/main.js.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

const { build } = await import("vite");
await build({ configFile: join(root, "vite.config.ts"), build: { outDir: join(outDir, "web"), emptyOutDir: true } });

console.log(
  `build: ${relative(root, outDir)}/ in ${((Date.now() - started) / 1000).toFixed(1)} s; run it with node ${relative(root, outDir)}/main.js`,
);
