import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";

/** Which engine this test run uses: the `postgres` project of vitest.config.ts sets TEST_DATABASE=postgres. */
export const testEngine: Database["engine"] = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** A fresh data folder holding a copy of the migrated template database (SQLite). */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-test-"));
  fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dir, "app.db"));
  return dir;
}

/** A fresh data folder and, on PostgreSQL, a fresh database copied from the migrated template. */
export interface TestStore {
  dataDir: string;
  /** Set on PostgreSQL: the API's DATABASE_URL. */
  databaseUrl?: string;
  open(): Promise<Database>;
  /** Removes the folder and drops the database. */
  remove(): Promise<void>;
}

let databaseSeq = 0;

export async function freshTestStore(): Promise<TestStore> {
  const dataDir = testEngine === "sqlite" ? freshDataDir() : fs.mkdtempSync(path.join(os.tmpdir(), "comics-test-"));
  const databaseUrl = testEngine === "postgres" ? await copyTemplateDatabase() : undefined;
  return {
    dataDir,
    databaseUrl,
    open: () => openDatabase(dataDir, databaseUrl),
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropDatabase(databaseUrl);
    },
  };
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/** CREATE DATABASE ... TEMPLATE: a copy of the migrated template in ~50 ms. */
async function copyTemplateDatabase(): Promise<string> {
  const server = inject("postgresServerUrl");
  const name = `test_${process.pid}_${++databaseSeq}`;
  await withClient(server, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${inject("postgresTemplate")}"`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  await withClient(inject("postgresServerUrl"), (client) =>
    client.query(`DROP DATABASE IF EXISTS "${databaseName(databaseUrl)}" WITH (FORCE)`),
  );
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
