// `npm run admin -- grant|revoke <name>` takes effect on the running site at once (issue 27, item 10; README
// "Moderating Inkwell"): without Redis, the command writes the database from its own process (SQLite or PostgreSQL),
// and the API's data version must still move, so that no page kept for the old role (the web app's page cache) is
// served again.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { memorySharedState } from "../../server/shared-state.ts";
import { startPostgres } from "../services/index.ts";
import { startInstances, stopAllInstances, type Instance } from "./instances.ts";
import { root } from "./run-helpers.ts";

const run = promisify(execFile);
const PASSWORD = "secret123";

/**
 * A site started in production mode without Redis (on SQLite in its data folder, or on `databaseUrl`'s PostgreSQL), a
 * signed-in account on it, and the real admin command run against the same database.
 */
function siteWithAdminCommand(name: string, databaseUrl: () => string | undefined) {
  const username = `keeper_${name}`;
  const state: { site?: Instance; session?: string } = {};
  beforeAll(async () => {
    const url = databaseUrl();
    [state.site] = (await startInstances([`admin-command-${name}`], {
      NODE_ENV: "production",
      SEED_DEMO: "false",
      JWT_SECRET: "admin-command-jwt-secret-0123456789",
      SESSION_SECRET: "admin-command-session-secret-0123456789",
      LOG_LEVEL: "warn",
      BCRYPT_COST: "4",
      ...(url ? { DATABASE_URL: url } : {}),
    })) as [Instance];
    const site = state.site;
    const registered = await fetch(`${site.api}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }),
    });
    expect(registered.status).toBe(201);
    const login = await fetch(`${site.web}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.web },
      body: new URLSearchParams({ username, password: PASSWORD }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    state.session = login.headers.get("set-cookie")!.split(";")[0]!;
  }, 240_000);

  /** The real command, as `npm run admin` runs it, on the instance's database. */
  async function admin(command: "grant" | "revoke") {
    const url = databaseUrl();
    const { stdout } = await run(process.execPath, ["scripts/admin.ts", command, username, "--data-dir", state.site!.dataDir], {
      cwd: root,
      // Only the site's database: no DATABASE_URL or REDIS_URL of the machine's.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...(url ? { DATABASE_URL: url } : {}),
      } as unknown as NodeJS.ProcessEnv,
    });
    return stdout;
  }
  const modlog = () => fetch(`${state.site!.web}/modlog`, { headers: { Cookie: state.session! }, redirect: "manual" });
  const role = async () => ((await (await fetch(`${state.site!.api}/user/${username}`)).json()) as { role: string }).role;
  return { admin, modlog, role };
}

/** Grant, a page kept for the new admin, revoke: the kept page is never served again and the API says "user". */
function grantsAndRevokes(site: ReturnType<typeof siteWithAdminCommand>, afterRevoke: (check: () => Promise<void>) => Promise<void>) {
  it("makes an account an admin, and takes it back, from the next request on", async () => {
    expect((await site.modlog()).status).toBe(403);

    expect(await site.admin("grant")).toContain("is now an admin");
    const first = await site.modlog();
    expect(first.status).toBe(200);
    expect(await site.role()).toBe("admin");
    // Kept for this session: the second view comes from the page cache.
    const kept = await site.modlog();
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-page-cache")).toBe("hit");

    expect(await site.admin("revoke")).toContain("is no longer an admin");
    await afterRevoke(async () => {
      const after = await site.modlog();
      expect(after.headers.get("x-page-cache")).not.toBe("hit");
      expect(after.status).toBe(403);
      expect(await after.text()).toContain("Only admins can read the site");
      // The API's kept public answers show the new role at once too.
      expect(await site.role()).toBe("user");
    });
  });
}

afterAll(() => stopAllInstances(), 60_000);

describe("the admin command on a running SQLite site without Redis", () => {
  const site = siteWithAdminCommand("sqlite", () => undefined);
  // SQLite: the API reads the file's commit counter at the first version read of each event-loop turn, so the very
  // next request sees it.
  grantsAndRevokes(site, (check) => check());
});

describe("the admin command on a running PostgreSQL site without Redis", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 120_000);
  afterAll(() => postgres?.stop());
  const site = siteWithAdminCommand("postgres", () => postgres?.url);
  // PostgreSQL: the command's notification reaches the API's listening connection as its transaction commits, a
  // local round trip later; a second is far more than it takes.
  grantsAndRevokes(site, (check) => expect.poll(() => check().then(() => true), { timeout: 1000, interval: 50 }).toBe(true));
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
      // The file's counter is read once per turn of the event loop (docs/decisions/030-cached-reads-before-routing.md):
      // the reads of the turn that looked before the commit do not see it, the first read of the next turn does.
      expect(await dataVersion.current()).toBe(start);
      await new Promise((resolve) => setImmediate(resolve));
      const moved = await dataVersion.current();
      expect(moved).not.toBe(start);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await dataVersion.current()).toBe(moved);
      expect(await dataVersion.currentFor(1)).toBe(`${moved}.0`);
    } finally {
      await other.close();
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
