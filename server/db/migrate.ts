import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Creates the data folder and applies every committed migration (`prisma migrate deploy`). */
export async function migrateDatabase(dataDir: string): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const prismaCli = path.join(root, "node_modules", "prisma", "build", "index.js");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: path.resolve(dataDir), PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`prisma migrate deploy failed (${code}):\n${output}`))));
  });
}
