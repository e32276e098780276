import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { startPostgres } from "../services/postgres.ts";

const TEMPLATE = "inkwell_template";

/**
 * Migrates one template database for the whole run; each test file copies it (fast). SQLite: a file in a
 * temp folder. PostgreSQL (the `postgres` project of vitest.config.ts): one server for the run and a template database.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-template-"));
  await migrateDatabase(dir);
  project.provide("templateDataDir", dir);
  if (project.name !== "postgres") return () => fs.rmSync(dir, { recursive: true, force: true });

  const postgres = await startPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${TEMPLATE}"`);
  await admin.end();
  const templateUrl = new URL(postgres.url);
  templateUrl.pathname = `/${TEMPLATE}`;
  await migrateDatabase(dir, templateUrl.toString());
  project.provide("postgresServerUrl", postgres.url);
  project.provide("postgresTemplate", TEMPLATE);
  return async () => {
    await postgres.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDataDir: string;
    postgresServerUrl: string;
    postgresTemplate: string;
  }
}
