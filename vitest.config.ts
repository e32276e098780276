import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    // Each test file gets its own copy of a migrated template database.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
