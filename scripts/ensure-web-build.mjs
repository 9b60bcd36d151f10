// Runs before `npm start`: builds the dashboard (dist/web) when it is missing or older than its sources,
// so `npm install && npm start` on a fresh clone serves a working dashboard. A current build is left alone.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const index = join(root, "dist", "web", "index.html");
const sources = [join(root, "web"), join(root, "vite.config.ts")];

/** The newest modification time under `path` (a file or a directory tree). */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

const built = existsSync(index) ? statSync(index).mtimeMs : 0;
const newestSource = Math.max(...sources.map(newestMtime));
if (built > 0 && built >= newestSource) process.exit(0);

console.log(built ? "Dashboard sources changed: rebuilding dist/web…" : "Dashboard not built yet: building dist/web…");
// npm sets npm_execpath to its own CLI script; running it with this Node works on every platform.
const npmCli = process.env.npm_execpath;
const result = npmCli
  ? spawnSync(process.execPath, [npmCli, "run", "build:web"], { cwd: root, stdio: "inherit" })
  : spawnSync("npm", ["run", "build:web"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });

if (result.status !== 0) {
  if (built) {
    console.warn("Dashboard rebuild failed: serving the previous build.");
    process.exit(0);
  }
  console.error(
    "Dashboard build failed (is vite installed? run `npm install`). Fix the error above, then `npm start`.",
  );
  process.exit(result.status ?? 1);
}
