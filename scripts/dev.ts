// `npm run dev`: the API and the web app with Vite in middleware mode (hot reload), on the same data
// folder as `npm start`, seeded with the demo content when empty.
import path from "node:path";
import { startApi } from "../server/main.ts";
import { startWeb } from "../web/main.ts";
import { prepareData } from "./lib/prepare-data.ts";

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const env = { ...process.env, DATA_DIR: dataDir };
await prepareData(dataDir, { seedDemo: process.env.SEED_DEMO !== "false" });
const api = await startApi(env);
const web = await startWeb({ ...env, API_PORT: String(api.port) }, { vite: true });
console.log(`Inkwell (development) is running: http://localhost:${web.port} (API on http://localhost:${api.port})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void web
      .close()
      .then(() => api.close())
      .then(() => process.exit(0));
  });
}
