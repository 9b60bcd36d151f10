import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** The dashboard (web/) builds into dist/web, which src/features/web serves at /dashboard. */
const webRoot = fileURLToPath(new URL("./web", import.meta.url));
const outDir = fileURLToPath(new URL("./dist/web", import.meta.url));

/** Gzipped JavaScript and CSS the browser needs before the first page can render. */
const FIRST_LOAD_BUDGET_BYTES = 300 * 1024;

const COMPRESSIBLE = /\.(js|css|svg|json)$/;

type Output = { type: "chunk" | "asset"; fileName: string; code?: string; source?: string | Uint8Array };

function bytesOf(item: Output): Buffer {
  if (item.type === "chunk") return Buffer.from(item.code ?? "");
  return typeof item.source === "string" ? Buffer.from(item.source) : Buffer.from(item.source ?? "");
}

/**
 * Writes .gz and .br next to each asset (the server sends them to browsers that accept them, since Node
 * compresses nothing itself), and prints the first-load size, failing the build above the budget.
 * zlib output carries no timestamp, so the build stays deterministic.
 */
function precompressAndBudget(): Plugin {
  return {
    name: "upbeat-precompress-and-budget",
    apply: "build",
    writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      const items = bundle as unknown as Record<string, Output & { isEntry?: boolean; imports?: string[] }>;
      for (const item of Object.values(items)) {
        if (!item.fileName.startsWith("assets/") || !COMPRESSIBLE.test(item.fileName)) continue;
        const raw = bytesOf(item);
        if (raw.length < 1024) continue;
        writeFileSync(join(dir, `${item.fileName}.gz`), gzipSync(raw, { level: 9 }));
        writeFileSync(
          join(dir, `${item.fileName}.br`),
          brotliCompressSync(raw, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
          }),
        );
      }

      // First load: the entry chunk, every chunk it imports statically, and the CSS those chunks bring.
      const first = new Set<string>();
      const visit = (name: string) => {
        if (first.has(name)) return;
        first.add(name);
        const item = items[name] as
          | (Output & { imports?: string[]; viteMetadata?: { importedCss?: Set<string> } })
          | undefined;
        for (const dep of item?.imports ?? []) visit(dep);
        for (const css of item?.viteMetadata?.importedCss ?? []) first.add(css);
      };
      for (const item of Object.values(items)) if (item.type === "chunk" && item.isEntry) visit(item.fileName);
      let total = 0;
      for (const name of first) {
        const item = items[name];
        if (item) total += gzipSync(bytesOf(item), { level: 9 }).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      const line = `first load (index.html's JS + CSS): ${kb(total)} gzipped, budget ${kb(FIRST_LOAD_BUDGET_BYTES)}`;
      if (total > FIRST_LOAD_BUDGET_BYTES) this.error(`${line}: over budget; lazy-load more of the app`);
      this.info(line);
    },
  };
}

export default defineConfig({
  root: webRoot,
  base: "/dashboard/",
  publicDir: false,
  plugins: [react(), precompressAndBudget()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    reportCompressedSize: true,
    // Small assets (icons) would otherwise become data: URLs; the CSP allows data: images, but keep it explicit.
    assetsInlineLimit: 4096,
    // Every browser the dashboard supports has <link rel="modulepreload">: the polyfill only cost first-load bytes.
    modulePreload: { polyfill: false },
  },
  logLevel: "info",
  clearScreen: false,
});
