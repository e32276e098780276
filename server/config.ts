import path from "node:path";
import { z } from "zod";
import { secretSetting, settingsReader } from "../common/config-problems.ts";
import { developmentSecret } from "../common/development-secret.ts";
import type { S3Settings } from "./images/s3-storage.ts";
import { DEFAULT_CHAPTER_RATE_PER_HOUR, DEFAULT_EDIT_RATE_PER_HOUR, DEFAULT_POST_RATE_PER_HOUR } from "./rules/write-limits.ts";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A text setting where empty means unset. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  API_PORT: positiveInt(8080),
  DATA_DIR: z.string().min(1).default("./data"),
  // PostgreSQL instead of the embedded SQLite (docs/decisions/014-data-layer.md). Unset, empty or `file:...`
  // (docs/api.md §1): the embedded SQLite in DATA_DIR.
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" || v?.startsWith("file:") ? undefined : v))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), "must be a postgresql:// URL, or file:... for the embedded SQLite"),
  // Images in an S3-compatible bucket instead of DATA_DIR/images when S3_BUCKET is set (docs/api.md §1).
  S3_BUCKET: optionalText,
  S3_ENDPOINT: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  // Redis for what instances share: rate limits and the data version (docs/decisions/015-shared-state.md).
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine((v) => v === undefined || /^rediss?:\/\//.test(v), "must be a redis:// URL"),
  JWT_SECRET: secretSetting("JWT_SECRET"),
  JWT_TTL_SECONDS: positiveInt(7 * 24 * 3600),
  UPLOAD_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  UPLOAD_QUOTA_BYTES: positiveInt(2 * 1024 ** 3),
  UPLOAD_RATE_PER_HOUR: z.coerce.number().int().nonnegative().default(600),
  COMMENT_RATE_PER_MINUTE: z.coerce.number().int().nonnegative().default(10),
  // Per-user write limits (server/rules/write-limits.ts, docs/api.md "Limits").
  POST_RATE_PER_HOUR: z.coerce.number().int().nonnegative().default(DEFAULT_POST_RATE_PER_HOUR),
  EDIT_RATE_PER_HOUR: z.coerce.number().int().nonnegative().default(DEFAULT_EDIT_RATE_PER_HOUR),
  CHAPTER_RATE_PER_HOUR: z.coerce.number().int().nonnegative().default(DEFAULT_CHAPTER_RATE_PER_HOUR),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  AUTH_RATE_LIMIT_PER_15_MIN: z.coerce.number().int().nonnegative().default(50),
  LOGIN_FAILURES_PER_ACCOUNT_PER_15_MIN: z.coerce.number().int().nonnegative().default(10),
  // Express "trust proxy": "loopback" (default), "false", a hop count, or addresses/subnets separated by commas.
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((v): boolean | number | string => (v === "false" ? false : v === "true" ? true : /^\d+$/.test(v) ? Number(v) : v)),
  API_CACHE_ENTRIES: z.coerce.number().int().nonnegative().default(2000),
  API_CACHE_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(32 * 1024 * 1024),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Site admins by username, separated by commas (docs/api.md §14): also accounts registered after the start.
  ADMIN_USERNAMES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    )
    .refine(
      (names) => names.every((name) => /^[A-Za-z0-9_]{3,30}$/.test(name)),
      "must be usernames (letters, numbers, underscores) separated by commas",
    ),
  // Admin powers only with a second factor on (docs/api.md "Second factors").
  ADMIN_REQUIRE_2FA: z.enum(["true", "false"], { error: 'must be "true" or "false"' }).default("false"),
  // Mail (docs/api.md "Mail"): links in messages point at the web app's public origin, PUBLIC_URL as the web app reads it.
  // The web app's port (its setting, checked there): only for PUBLIC_URL's default.
  PORT: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  // Unset: no network, every message is written to DATA_DIR/outbox as an .eml file.
  SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\/[^/]/.test(v), "must be an smtp:// or smtps:// URL"),
  MAIL_FROM: z.string().min(3).default("Inkwell <no-reply@localhost>"),
  // Posting, commenting, publishing and uploading need a verified address (docs/api.md "Verified email addresses").
  REQUIRE_VERIFIED_EMAIL: z.enum(["true", "false"]).default("false"),
});

export interface ApiConfig {
  env: "development" | "production" | "test";
  port: number;
  dataDir: string;
  /** PostgreSQL's URL; unset: SQLite in dataDir. */
  databaseUrl?: string;
  /** Redis's URL; unset: shared state in this process's memory. */
  redisUrl?: string;
  /** The S3 bucket of images; unset: DATA_DIR/images. */
  s3?: S3Settings;
  jwtSecret: string;
  jwtTtlSeconds: number;
  uploadMaxBytes: number;
  /** Bytes of images each user may store. */
  uploadQuotaBytes: number;
  /** Image uploads per user per hour; 0 turns the limit off. */
  uploadRatePerHour: number;
  /** New comments per user per minute; 0 turns the limit off. */
  commentRatePerMinute: number;
  /** New posts per user per hour; 0 turns the limit off. */
  postRatePerHour: number;
  /** Edits of comments and posts per user per hour; 0 turns the limit off. */
  editRatePerHour: number;
  /** New chapters per user per hour; 0 turns the limit off. */
  chapterRatePerHour: number;
  bcryptCost: number;
  /** Login and register attempts per IP per 15 minutes; 0 turns the limit off. */
  authRateLimit: number;
  /** Failed logins per account (or per trusted device of it) per 15 minutes; 0 turns the limit off. */
  loginFailureLimit: number;
  /** Whose X-Forwarded-For header names the client (see AppConfig.trustProxy). */
  trustProxy: boolean | number | string;
  /** Anonymous GET answers kept until the next write; 0 turns the cache off. */
  responseCacheEntries: number;
  /** Bytes of kept answers at most; 0 turns the cache off. */
  responseCacheBytes: number;
  logLevel: string;
  /** ADMIN_USERNAMES, lower case (compared with User.usernameKey). */
  adminUsernames: string[];
  /** ADMIN_REQUIRE_2FA: an admin without a second factor acts as a member (docs/api.md "Second factors"). */
  adminRequire2fa: boolean;
  /** The web app's public origin without a trailing slash: links in mail (PUBLIC_URL, default http://localhost:$PORT). */
  publicUrl: string;
  /** SMTP server's URL; unset: messages are written to DATA_DIR/outbox as .eml files. */
  smtpUrl?: string;
  /** The From of every message, with the site's name: `Inkwell <no-reply@example.org>`. */
  mailFrom: string;
  /** REQUIRE_VERIFIED_EMAIL: unverified accounts sign in and read, but do not post, comment, publish or upload. */
  requireVerifiedEmail: boolean;
}

const apiSettings = settingsReader(EnvSchema, "JWT_SECRET");

/** Every problem with the API's settings, one line each. Reads nothing but `env`, writes nothing. */
export function checkApiSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  return apiSettings.problems(env);
}

/**
 * Reads the environment once at start. Throws a ConfigError listing every problem when it is wrong;
 * its only side effect is the development JWT secret file.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const e = apiSettings.settings(env);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.API_PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
        }
      : undefined,
    jwtSecret: e.JWT_SECRET ?? developmentSecret(dataDir, "jwt-secret"),
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadQuotaBytes: e.UPLOAD_QUOTA_BYTES,
    uploadRatePerHour: e.UPLOAD_RATE_PER_HOUR,
    commentRatePerMinute: e.COMMENT_RATE_PER_MINUTE,
    postRatePerHour: e.POST_RATE_PER_HOUR,
    editRatePerHour: e.EDIT_RATE_PER_HOUR,
    chapterRatePerHour: e.CHAPTER_RATE_PER_HOUR,
    bcryptCost: e.BCRYPT_COST,
    authRateLimit: e.AUTH_RATE_LIMIT_PER_15_MIN,
    loginFailureLimit: e.LOGIN_FAILURES_PER_ACCOUNT_PER_15_MIN,
    trustProxy: e.TRUST_PROXY,
    responseCacheEntries: e.API_CACHE_ENTRIES,
    responseCacheBytes: e.API_CACHE_BYTES,
    logLevel: e.LOG_LEVEL,
    adminUsernames: e.ADMIN_USERNAMES.map((name) => name.toLowerCase()),
    adminRequire2fa: e.ADMIN_REQUIRE_2FA === "true",
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT && /^\d+$/.test(e.PORT) ? e.PORT : 3000}`).replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    requireVerifiedEmail: e.REQUIRE_VERIFIED_EMAIL === "true",
  };
}
