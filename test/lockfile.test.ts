import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  engines?: { node?: string };
  os?: string[];
  cpu?: string[];
}
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockPackage> };
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};

/** Where npm would find `name` for the package at `from` (node_modules nesting, then up to the root). */
function resolve(from: string, name: string): LockPackage | undefined {
  let dir = from;
  for (;;) {
    const hit = lock.packages[`${dir ? `${dir}/` : ""}node_modules/${name}`];
    if (hit) return hit;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut < 0 ? "" : dir.slice(0, cut);
  }
}

describe("package-lock.json", () => {
  it("lists every platform package an optional dependency names, so `npm ci` works on any platform", () => {
    const missing: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      for (const name of Object.keys(p.optionalDependencies ?? {})) {
        if (!resolve(path, name)) missing.push(`${path || "(root)"} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("holds biome's binaries for macOS, Windows and Alpine, not only the Linux ones this registry serves", () => {
    for (const platform of ["darwin-arm64", "darwin-x64", "win32-x64", "linux-x64-musl", "linux-x64"]) {
      expect(lock.packages[`node_modules/@biomejs/cli-${platform}`]?.version).toBe(
        lock.packages["node_modules/@biomejs/biome"]?.version,
      );
    }
  });

  it("runs on the Node versions the README promises: only pg-boss declares more, and the README says so", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toContain("Node.js 20.19+, 22.13+ or 24+");
    expect(pkg.engines.node).toBe(">=20.19");
    const unmet: string[] = [];
    for (const version of ["20.19.0", "22.13.0", "24.0.0"]) {
      for (const [path, p] of Object.entries(lock.packages)) {
        const range = p.engines?.node;
        if (path && range && !semver.satisfies(version, range)) unmet.push(`${version}: ${path}@${p.version} ${range}`);
      }
    }
    const pgBoss = lock.packages["node_modules/pg-boss"];
    expect(unmet).toEqual([`20.19.0: node_modules/pg-boss@${pgBoss?.version} ${pgBoss?.engines?.node}`]);
    expect(readme).toMatch(/pg-boss 12[^\n]*declares Node ≥ 22\.12/);
  });
});
