// Wrong settings stop every entry point before any work: one list naming each problem on its own
// line, no stack trace, exit 1 within seconds, nothing written to the data folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "./run-helpers.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-settings-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A bad JWT_SECRET, a port that is not a number, production without SESSION_SECRET.
const WRONG = { NODE_ENV: "production", JWT_SECRET: "too-short", PORT: "web", API_PORT: "8080" };
const EXPECTED_LINES = [
  "  - JWT_SECRET: must be at least 16 characters",
  '  - PORT: must be a whole number, got "web"',
  "  - SESSION_SECRET: required in production (at least 16 characters, e.g. `openssl rand -base64 48`)",
];

async function runWithWrongSettings(script: string, extra: Record<string, string> = {}) {
  const dataDir = path.join(tmp, `${path.basename(script, ".ts")}-data`);
  const started = performance.now();
  const run = runScript(script, { ...WRONG, DATA_DIR: dataDir, ...extra });
  const code = await run.exited;
  return { code, seconds: (performance.now() - started) / 1000, output: run.output(), dataDir };
}

function expectNoStackTrace(output: string) {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain("Error:");
  expect(output).not.toContain("node:internal");
}

describe("wrong settings", () => {
  it("npm start lists every problem of both apps, exits 1 within seconds and writes nothing", async () => {
    const { code, seconds, output, dataDir } = await runWithWrongSettings("scripts/start.ts");

    expect(code, output).toBe(1);
    expect(seconds).toBeLessThan(5); // about 1.5 s on an idle machine: tsx, zod, the two settings modules
    const lines = output.split("\n");
    for (const line of EXPECTED_LINES) expect(lines, output).toContain(line);
    expect(output).toContain("Inkwell did not start: 3 settings need fixing");
    expectNoStackTrace(output);
    expect(fs.existsSync(dataDir)).toBe(false); // no database, no secret files, no seed
  });

  it("npm run dev does the same before starting Vite", async () => {
    const { code, output, dataDir } = await runWithWrongSettings("scripts/dev.ts");

    expect(code, output).toBe(1);
    for (const line of EXPECTED_LINES) expect(output.split("\n"), output).toContain(line);
    expectNoStackTrace(output);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it("lists a start setting with the apps' problems and names no secret's value", async () => {
    const { code, output } = await runWithWrongSettings("scripts/start.ts", { SEED_DEMO: "yes", DEMO_PASSWORD: "demo" });

    expect(code, output).toBe(1);
    const lines = output.split("\n");
    expect(lines).toContain('  - SEED_DEMO: must be one of true, false, got "yes"');
    expect(lines).toContain("  - DEMO_PASSWORD: must be at least 8 characters");
    expect(output).toContain("5 settings need fixing");
    expect(output).not.toContain("too-short");
    expect(output).not.toContain('"demo"');
  });

  it("checks API_IN_PROCESS, the start's choice of how the pages call the API (docs/web.md §1)", async () => {
    const { code, output } = await runWithWrongSettings("scripts/start.ts", { API_IN_PROCESS: "maybe" });

    expect(code, output).toBe(1);
    expect(output.split("\n")).toContain('  - API_IN_PROCESS: must be one of true, false, got "maybe"');
  });

  it("the API run alone lists its own problems without a stack trace", async () => {
    const { code, output, dataDir } = await runWithWrongSettings("server/main.ts", { API_PORT: "api", LOG_LEVEL: "loud" });

    expect(code, output).toBe(1);
    const lines = output.split("\n");
    expect(lines).toContain('  - API_PORT: must be a whole number, got "api"');
    expect(lines).toContain("  - JWT_SECRET: must be at least 16 characters");
    expect(lines).toContain('  - LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
    expect(output).not.toContain("SESSION_SECRET"); // the web app's setting
    expectNoStackTrace(output);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it("the web app run alone lists its own problems without a stack trace", async () => {
    const { code, output, dataDir } = await runWithWrongSettings("web/main.ts", { PUBLIC_API_URL: "the api" });

    expect(code, output).toBe(1);
    const lines = output.split("\n");
    expect(lines).toContain('  - PORT: must be a whole number, got "web"');
    expect(lines).toContain('  - PUBLIC_API_URL: must be a URL such as http://localhost:8080, got "the api"');
    expect(lines).toContain("  - SESSION_SECRET: required in production (at least 16 characters, e.g. `openssl rand -base64 48`)");
    expect(output).not.toContain("JWT_SECRET"); // the API's setting
    expectNoStackTrace(output);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
