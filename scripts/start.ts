// `npm start`: the whole site on one data folder (CONTRACT.md 1). On a fresh clone it builds the web
// app, creates and migrates the database, seeds the demo content once, then starts the API and the
// web app. SIGINT/SIGTERM: stop taking requests, let in-flight ones finish, close the database, exit.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_PASSWORD, DEMO_USERNAME } from "../seed/demo.ts";
import { startApi } from "../server/main.ts";
import { prepareData } from "./lib/prepare-data.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const env = { ...process.env, DATA_DIR: dataDir };

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.log("No web build yet: building it (npm run build)...");
  execFileSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], { stdio: "inherit", cwd: root });
}

const data = await prepareData(dataDir, { seedDemo: process.env.SEED_DEMO !== "false" });
const { startWeb } = await import("../web/main.ts");
const api = await startApi(env);
const web = await startWeb({ ...env, API_PORT: String(api.port) });

console.log(`
Inkwell is running
  web app:  http://localhost:${web.port}
  API:      http://localhost:${api.port}  (OpenAPI: http://localhost:${api.port}/openapi.json)
  data:     ${dataDir}${data === "seeded" ? " (demo content added)" : ""}
  demo login: ${DEMO_USERNAME} / ${DEMO_PASSWORD}
Press Ctrl-C to stop.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: finishing requests in flight, then stopping.`);
    // The web app first: its loaders may still be calling the API.
    void web
      .close()
      .then(() => api.close())
      .then(() => process.exit(0), (err: unknown) => {
        console.error(err);
        process.exit(1);
      });
  });
}
