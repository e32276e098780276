// `npm run admin -- grant|revoke <name>` takes effect on the running site at once (issue 27, item 10; README
// "Moderating Inkwell"): on SQLite without Redis, the command writes the database from its own process, and the API's
// data version must still move, so that no page kept for the old role (the web app's page cache) is served again.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { memorySharedState } from "../../server/shared-state.ts";
import { startInstances, stopAllInstances, type Instance } from "./instances.ts";
import { root } from "./run-helpers.ts";

const run = promisify(execFile);
let site: Instance;
const USERNAME = "site_keeper";
const PASSWORD = "secret123";
let session: string;

beforeAll(async () => {
  [site] = (await startInstances(["admin-command"], {
    NODE_ENV: "production",
    SEED_DEMO: "false",
    JWT_SECRET: "admin-command-jwt-secret-0123456789",
    SESSION_SECRET: "admin-command-session-secret-0123456789",
    LOG_LEVEL: "warn",
    BCRYPT_COST: "4",
  })) as [Instance];
  const registered = await fetch(`${site.api}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: USERNAME, email: "keeper@example.com", password: PASSWORD }),
  });
  expect(registered.status).toBe(201);
  const login = await fetch(`${site.web}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.web },
    body: new URLSearchParams({ username: USERNAME, password: PASSWORD }),
    redirect: "manual",
  });
  expect(login.status).toBe(302);
  session = login.headers.get("set-cookie")!.split(";")[0]!;
}, 240_000);

afterAll(() => stopAllInstances(), 60_000);

/** The real command, as `npm run admin` runs it, on the instance's data folder. */
async function admin(command: "grant" | "revoke", username: string) {
  const tsx = path.join(root, "node_modules/.bin/tsx");
  const { stdout } = await run(tsx, ["scripts/admin.ts", command, username, "--data-dir", site.dataDir], {
    cwd: root,
    // Only the data folder: no DATABASE_URL or REDIS_URL of the machine's.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } as unknown as NodeJS.ProcessEnv,
  });
  return stdout;
}

const modlog = () => fetch(`${site.web}/modlog`, { headers: { Cookie: session }, redirect: "manual" });
const role = async () => ((await (await fetch(`${site.api}/user/${USERNAME}`)).json()) as { role: string }).role;

describe("the admin command on a running site without Redis", () => {
  it("makes an account an admin, and takes it back, from the next request on", async () => {
    expect((await modlog()).status).toBe(403);

    expect(await admin("grant", USERNAME)).toContain("is now an admin");
    const first = await modlog();
    expect(first.status).toBe(200);
    expect(await role()).toBe("admin");
    // Kept for this session: the second view comes from the page cache.
    const kept = await modlog();
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-page-cache")).toBe("hit");

    expect(await admin("revoke", USERNAME)).toContain("is no longer an admin");
    const after = await modlog();
    expect(after.headers.get("x-page-cache")).not.toBe("hit");
    expect(after.status).toBe(403);
    expect(await after.text()).toContain("Only admins can read the site");
    // The API's kept public answers show the new role at once too.
    expect(await role()).toBe("user");
  });
});

describe("the data version in memory on SQLite", () => {
  it("moves when another connection commits to the file, and only once per commit", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-data-version-"));
    const api = await openDatabase(dir);
    const other = await openDatabase(dir);
    try {
      api.sqlite!.exec("CREATE TABLE Note (x)");
      const { dataVersion } = memorySharedState(api);
      const start = await dataVersion.current();
      // The API's own writes move it only through bump(), as before.
      api.sqlite!.exec("INSERT INTO Note VALUES (1)");
      expect(await dataVersion.current()).toBe(start);

      other.sqlite!.exec("INSERT INTO Note VALUES (2)");
      const moved = await dataVersion.current();
      expect(moved).not.toBe(start);
      expect(await dataVersion.current()).toBe(moved);
      expect(await dataVersion.currentFor(1)).toBe(`${moved}.0`);
    } finally {
      await other.close();
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
