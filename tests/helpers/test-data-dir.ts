import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

/** A fresh data folder holding a copy of the migrated template database. */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-test-"));
  fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dir, "app.db"));
  return dir;
}
