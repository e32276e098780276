import path from "node:path";
import { z } from "zod";
import { secretSetting, settingsReader } from "../../common/config-problems.ts";
import { developmentSecret } from "../../common/development-secret.ts";

/** The web app's settings, read once by web/main.ts and handed to loaders through the load context. */
export interface WebConfig {
  env: "development" | "production" | "test";
  /** Port the web server listens on; 0 picks a free one (tests). */
  port: number;
  /** Where the web server reaches the API (server to server). */
  apiUrl: string;
  /** The API origin browsers reach (docs/web.md §1). */
  publicApiUrl: string;
  /** The web app's own public origin: canonical URLs, share cards, feeds and the sitemap name pages by it. */
  publicUrl: string;
  /** Where browsers load image bytes (`/images/{id}`): IMAGE_PUBLIC_URL, a CDN in front of the API, or the API. */
  imagePublicUrl: string;
  sessionSecret: string;
  contactEmail: string;
  /**
   * The largest image the API accepts (its UPLOAD_MAX_BYTES, read from the same variable): uploads
   * passing through the web app are buffered up to this and refused beyond it.
   */
  uploadMaxBytes: number;
  /** Guest pages kept while the API's data version is unchanged; 0 turns the cache off. */
  pageCacheEntries: number;
  /** Secure cookies (HTTPS only) in production. */
  secureCookies: boolean;
  /** Express "trust proxy" of the web server: whose X-Forwarded-For names the visitor (forwarded to the API). */
  trustProxy: boolean | number | string;
  /** The largest body of a plain form post (no files); larger ones get 413 before Remix reads them. */
  formMaxBytes: number;
  /** How long a call to the API may take before it fails (uploads get UPLOAD_TIMEOUT_FACTOR times this). */
  apiTimeoutMs: number;
}

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port(3000),
  API_PORT: port(8080),
  API_URL: z.url().optional(),
  PUBLIC_API_URL: z.url().optional(),
  // The web app's origin as visitors reach it (canonical URLs, feeds, sitemap); default http://localhost:PORT.
  PUBLIC_URL: z.url().optional(),
  // A CDN origin in front of the API's /images (docs/api.md §9); unset: images come from PUBLIC_API_URL.
  IMAGE_PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: secretSetting("SESSION_SECRET"),
  CONTACT_EMAIL: z.email().default("contact@example.com"),
  // Guest pages kept while the API's data is unchanged (web/page-cache.ts); 0 turns it off.
  PAGE_CACHE_ENTRIES: z.coerce.number().int().nonnegative().default(500),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  // HTTPS-only cookies; on by default in production (browsers also accept them on http://localhost).
  // Off only for production over plain HTTP on another host, where a Secure cookie never comes back.
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  // As the API's TRUST_PROXY: "loopback" (default), "false", a hop count, or addresses/subnets separated by commas.
  WEB_TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((v): boolean | number | string => (v === "false" ? false : v === "true" ? true : /^[0-9]{1,3}$/.test(v) ? Number(v) : v)),
  // 256 KiB: a 10,000-character post urlencoded in 4-byte characters is ~120 KB. Decoding a body of
  // "+"s costs Node ~80 ns a byte past ~500 KB (docs/decisions/012).
  FORM_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  API_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

const withoutTrailingSlash = (url: string) => {
  let end = url.length;
  while (end > 0 && url[end - 1] === "/") end--;
  return url.slice(0, end);
};

const webSettings = settingsReader(EnvSchema, "SESSION_SECRET");

/** Every problem with the web app's settings, one line each. Reads nothing but `env`, writes nothing. */
export function checkWebSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  return webSettings.problems(env);
}

/**
 * Reads the environment; throws a ConfigError listing every problem when it is wrong. Its only
 * side effect is the development session secret file.
 */
export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const e = webSettings.settings(env);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    apiUrl: withoutTrailingSlash(e.API_URL ?? `http://127.0.0.1:${e.API_PORT}`),
    publicApiUrl: withoutTrailingSlash(e.PUBLIC_API_URL ?? `http://localhost:${e.API_PORT}`),
    publicUrl: withoutTrailingSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    imagePublicUrl: withoutTrailingSlash(e.IMAGE_PUBLIC_URL ?? e.PUBLIC_API_URL ?? `http://localhost:${e.API_PORT}`),
    sessionSecret: e.SESSION_SECRET ?? developmentSecret(path.resolve(e.DATA_DIR), "session-secret"),
    contactEmail: e.CONTACT_EMAIL,
    pageCacheEntries: e.PAGE_CACHE_ENTRIES,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    secureCookies: e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : e.NODE_ENV === "production",
    trustProxy: e.WEB_TRUST_PROXY,
    formMaxBytes: e.FORM_MAX_BYTES,
    apiTimeoutMs: e.API_TIMEOUT_MS,
  };
}
