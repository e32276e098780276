import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    // Each test file gets its own copy of a migrated template database.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Polls wait on real servers and a browser on a loaded 2-core machine: as long as a page's waits (15 s).
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: "sqlite", include: ["tests/**/*.test.ts"] } },
      // The whole API suite again on PostgreSQL (issue 12): one server for the run, a database per file.
      { extends: true, test: { name: "postgres", include: ["tests/api/**/*.test.ts"], env: { TEST_DATABASE: "postgres" } } },
    ],
  },
});
