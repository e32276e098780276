import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../server/db/migrate.ts";

/** Migrates one template database for the whole run; each test file copies it (fast). */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-template-"));
  await migrateDatabase(dir);
  project.provide("templateDataDir", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDataDir: string;
  }
}
