// `npm run dev`: the API and the web app with Vite in middleware mode (hot reload), on the same data
// folder as `npm start`, seeded with the demo content when empty. Settings are checked first.
import path from "node:path";
import { chooseDemoPassword } from "../seed/demo-password.ts";
import { checkAllSettings, exitWithConfigProblems, seedDemoSetting } from "./lib/settings.ts";

const problems = checkAllSettings(process.env);
if (problems.length > 0) exitWithConfigProblems("Inkwell (development)", problems);

const { startApi } = await import("../server/main.ts");
const { startWeb } = await import("../web/main.ts");
const { prepareData } = await import("./lib/prepare-data.ts");

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const env = { ...process.env, DATA_DIR: dataDir };
const demo = seedDemoSetting(env) ? chooseDemoPassword(env) : undefined;
const data = await prepareData(dataDir, { demoPassword: demo?.password });
const api = await startApi(env);
const web = await startWeb({ ...env, API_PORT: String(api.port) }, { vite: true });
console.log(`Inkwell (development) is running: http://localhost:${web.port} (API on http://localhost:${api.port})`);
if (data === "seeded" && demo?.source === "generated") console.log(`Demo login: demo / ${demo.password} (shown only this once)`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void web
      .close()
      .then(() => api.close())
      .then(() => process.exit(0));
  });
}
