// `npm start`: the API and the web app together on one data folder (CONTRACT.md 1).
// Builds the web app first when there is no build yet (a fresh clone).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { startApi } from "../server/main.ts";

if (!fs.existsSync(new URL("../build/server/index.js", import.meta.url))) {
  console.log("No web build yet: building it (npm run build)...");
  execFileSync("npx", ["remix", "vite:build"], { stdio: "inherit", cwd: new URL("..", import.meta.url) });
}
const { startWeb } = await import("../web/main.ts");

const api = await startApi();
const web = await startWeb({ ...process.env, API_PORT: String(api.port) });
console.log(`Inkwell is running: http://localhost:${web.port} (API on http://localhost:${api.port})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([web.close(), api.close()]).then(() => process.exit(0));
  });
}
