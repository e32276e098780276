import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import type { S3Env } from "../services/swift.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { startServices } from "../services/index.ts";

const TEMPLATE = "inkwell_template";

/**
 * Migrates one template database for the whole run; each test file copies it (fast). SQLite: a file in a
 * temp folder. The `postgres` project of vitest.config.ts runs on the three scale-out services, each started once
 * for the run: PostgreSQL (a template database), Redis and S3 (Swift; each test app takes its own key prefix).
 */
/**
 * The projects' setups start together in vitest's process. Three `prisma migrate deploy` at once in a fresh clone
 * failed once ("External error id#0"), so the migrations run one after the other (on globalThis: each project may
 * load this module anew).
 */
function migrateInTurn(dir: string, databaseUrl?: string): Promise<void> {
  const shared = globalThis as { inkwellMigrations?: Promise<unknown> };
  const mine = (shared.inkwellMigrations ?? Promise.resolve()).then(() => migrateDatabase(dir, databaseUrl));
  shared.inkwellMigrations = mine.catch(() => {});
  return mine;
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-template-"));
  await migrateInTurn(dir);
  project.provide("templateDataDir", dir);
  if (project.name !== "postgres") return () => fs.rmSync(dir, { recursive: true, force: true });

  const services = await startServices({ bucket: "inkwell-tests" });
  const { postgres } = services;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${TEMPLATE}"`);
  await admin.end();
  const templateUrl = new URL(postgres.url);
  templateUrl.pathname = `/${TEMPLATE}`;
  await migrateInTurn(dir, templateUrl.toString());
  project.provide("postgresServerUrl", postgres.url);
  project.provide("postgresTemplate", TEMPLATE);
  project.provide("redisUrl", services.redis.url);
  project.provide("s3Env", services.env);
  return async () => {
    await services.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDataDir: string;
    postgresServerUrl: string;
    postgresTemplate: string;
    redisUrl: string;
    s3Env: S3Env;
  }
}
