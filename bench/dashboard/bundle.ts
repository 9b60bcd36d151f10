/**
 * The first dashboard page load in gzip bytes: builds web/ with Vite (the project's vite.config.ts, into a
 * temporary directory, with a manifest) and adds up what a browser fetches before the first page renders:
 * index.html, the entry chunk, every chunk it imports statically (transitively) and their CSS; lazy chunks
 * (the pages behind React.lazy) are not counted. gzip level 9, as the build precompresses them (vite.config.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export interface FirstLoad {
  files: { file: string; raw: number; gzip: number }[];
  gzip: number;
  buildMs: number;
}

export function measureFirstLoad(): FirstLoad {
  const out = mkdtempSync(join(tmpdir(), "upbeat-bench-web-"));
  try {
    const t = Date.now();
    const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js");
    const r = spawnSync(process.execPath, [vite, "build", "--outDir", out, "--emptyOutDir", "--manifest"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`vite build failed:\n${r.stdout}\n${r.stderr}`);
    const buildMs = Date.now() - t;
    const manifest = JSON.parse(readFileSync(join(out, ".vite", "manifest.json"), "utf8")) as Record<
      string,
      ManifestChunk
    >;
    const wanted = new Set<string>(["index.html"]);
    const visit = (key: string) => {
      const c = manifest[key];
      if (!c || wanted.has(c.file)) return;
      wanted.add(c.file);
      for (const css of c.css ?? []) wanted.add(css);
      for (const dep of c.imports ?? []) visit(dep);
    };
    for (const [key, c] of Object.entries(manifest)) if (c.isEntry) visit(key);
    const files = [...wanted].map((file) => {
      const bytes = readFileSync(join(out, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
    return { files, gzip: files.reduce((a, f) => a + f.gzip, 0), buildMs };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
