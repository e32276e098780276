// `npm run dev`: the API and the web app with Vite in middleware mode (hot reload).
import { startApi } from "../server/main.ts";
import { startWeb } from "../web/main.ts";

const api = await startApi();
const web = await startWeb({ ...process.env, API_PORT: String(api.port) }, { vite: true });
console.log(`Inkwell (development) is running: http://localhost:${web.port} (API on http://localhost:${api.port})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([web.close(), api.close()]).then(() => process.exit(0));
  });
}
