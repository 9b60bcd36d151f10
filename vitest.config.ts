import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "dev/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["node_modules", "dist", "src/web/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
  },
});
