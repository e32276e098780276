// The real API and the BUILT web app's Express host on free ports over a fresh data folder, without
// a browser: for what only the HTTP edge does (body limits, forwarded addresses, the page cache).
import type { Server } from "node:http";
import type { AppConfig } from "../../server/app.ts";
import type { WebConfig } from "../../app/lib/config.server.ts";
import { startWeb } from "../../web/main.ts";
import { startTestApi, type TestApi } from "./api.ts";
import { listenOnFreePort } from "./listening-app.ts";

export const SESSION_SECRET = "web-test-session-secret-0123456789";
export const CONTACT_EMAIL = "hello@inkwell.test";

export interface WebServer {
  api: TestApi;
  apiUrl: string;
  /** The API's HTTP server at apiUrl. */
  apiServer: Server;
  /** The web app's origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The web app's settings as it read them. */
  config: WebConfig;
  /** How the pages call the API, as the start log says it. */
  apiCalls: string;
  close(): Promise<void>;
}

export interface WebServerOptions {
  api?: Partial<AppConfig>;
  env?: Record<string, string>;
  /**
   * How the pages call the API: "in-process" (default) as `npm start` and the image run it, the API's app
   * called in memory; "http" as a split deployment (compose.scale.yml), over HTTP to API_URL.
   */
  apiCalls?: "in-process" | "http";
}

export async function startWebServer(options: WebServerOptions = {}): Promise<WebServer> {
  const api = await startTestApi(options.api);
  // The API listens either way: browsers load its images, and uploads and the page cache's checks use HTTP.
  const listening = await listenOnFreePort(api.app);
  const apiUrl = `http://127.0.0.1:${listening.port}`;
  const web = await startWeb(
    {
      NODE_ENV: "test",
      PORT: "0",
      API_URL: apiUrl,
      PUBLIC_API_URL: apiUrl,
      DATA_DIR: api.dataDir,
      SESSION_SECRET,
      CONTACT_EMAIL,
      ...options.env,
    },
    { api: options.apiCalls === "http" ? undefined : api.app },
  );
  return {
    api,
    apiUrl,
    apiServer: listening.server,
    url: `http://127.0.0.1:${web.port}`,
    config: web.config,
    apiCalls: web.apiCalls,
    async close() {
      await web.close();
      await listening.close();
      await api.close();
    },
  };
}

/** A form post to the web app as a browser sends it (same-origin), answered without following redirects. */
export function postForm(site: { url: string }, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(site.url + path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url, ...headers },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}
