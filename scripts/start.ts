// `npm start`: the whole site on one data folder (docs/api.md §1). On a fresh clone it checks every
// setting, builds the web app, creates and migrates the database, seeds the demo content once (not in
// production unless SEED_DEMO=true), then starts the API and the web app. SIGINT/SIGTERM: stop taking
// requests, let in-flight ones finish, close the database, exit.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chooseDemoPassword, type DemoPassword } from "../seed/demo-password.ts";
import { apiInProcessSetting, checkAllSettings, exitWithConfigProblems, seedDemoSetting } from "./lib/settings.ts";

const problems = checkAllSettings(process.env);
if (problems.length > 0) exitWithConfigProblems("Inkwell", problems);

// Loaded only once the settings are known to be right (they take a moment, and a wrong setting
// should be reported at once).
const { DEMO_USERNAME } = await import("../seed/content/users.ts");
const { startApi } = await import("../server/main.ts");
const { prepareData } = await import("./lib/prepare-data.ts");

const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const env = { ...process.env, DATA_DIR: dataDir };

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.log("No web build yet: building it (npm run build)...");
  execFileSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], {
    stdio: "inherit",
    cwd: root,
  });
}

const seedDemo = seedDemoSetting(env);
const demo = seedDemo ? chooseDemoPassword(env) : undefined;
const data = await prepareData(dataDir, { demoPassword: demo?.password });
const { startWeb } = await import("../web/main.ts");
const api = await startApi(env);
// The pages' API calls go to the API in memory, with no socket (API_IN_PROCESS=false: over HTTP, as a split deployment).
const web = await startWeb({ ...env, API_PORT: String(api.port) }, { api: apiInProcessSetting(env) ? api.app : undefined });

console.log(`
Inkwell is running
  web app:  http://localhost:${web.port}
  API:      http://localhost:${api.port}  (OpenAPI: http://localhost:${api.port}/openapi.json)
  pages call the API ${web.apiCalls}
  data:     ${dataDir}${data === "seeded" ? " (demo content added)" : data === "empty" ? " (empty: SEED_DEMO=true adds the demo to an empty data folder)" : ""}${demoLoginLine(demo, data === "seeded")}
Press Ctrl-C to stop.`);

/** The demo login for the start log: a generated password only the once it is made, no operator's password ever. */
function demoLoginLine(demo: DemoPassword | undefined, seededNow: boolean): string {
  if (!demo) return "";
  if (demo.source === "development") return `\n  demo login: ${DEMO_USERNAME} / ${demo.password}`;
  if (!seededNow) return "";
  if (demo.source === "setting") return `\n  demo login: ${DEMO_USERNAME} / the password in DEMO_PASSWORD (every demo member has it)`;
  return `\n  demo login: ${DEMO_USERNAME} / ${demo.password}  (made for this site now and shown only this once; every demo member has it)`;
}

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
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
  });
}
