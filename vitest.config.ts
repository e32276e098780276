import { defaultExclude, defineConfig } from "vitest/config";

// The benchmark's smoke run (`npm run bench -- --smoke` on both engines): it loads every core by itself, and
// bench/ lets one benchmark run at a time in a checkout, so it runs alone, after every other file.
const BENCH_SMOKE = "tests/bench/smoke.test.ts";

export default defineConfig({
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    // The default output, then the ten slowest files (issue 28 item 6).
    reporters: ["default", "./tests/helpers/slowest-files-reporter.ts"],
    // Each test file gets its own copy of a migrated template database.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Polls wait on real servers and a browser on a loaded 2-core machine: as long as a page's waits (15 s).
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: "sqlite", include: ["tests/**/*.test.ts"], exclude: [...defaultExclude, BENCH_SMOKE] } },
      // The whole API suite again on PostgreSQL (issue 12): one server for the run, a database per file.
      { extends: true, test: { name: "postgres", include: ["tests/api/**/*.test.ts"], env: { TEST_DATABASE: "postgres" } } },
      // Projects run by group order: this one once the two above have finished.
      { extends: true, test: { name: "bench", include: [BENCH_SMOKE], sequence: { groupOrder: 1 } } },
    ],
  },
});
