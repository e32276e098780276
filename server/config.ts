import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  API_PORT: positiveInt(8080),
  DATA_DIR: z.string().min(1).default("./data"),
  JWT_SECRET: z.string().min(16, "JWT_SECRET must be at least 16 characters").optional(),
  JWT_TTL_SECONDS: positiveInt(7 * 24 * 3600),
  UPLOAD_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  AUTH_RATE_LIMIT_PER_15_MIN: z.coerce.number().int().nonnegative().default(50),
  // Express "trust proxy": "loopback" (default), "false", a hop count, or addresses/subnets separated by commas.
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((v): boolean | number | string => (v === "false" ? false : v === "true" ? true : /^\d+$/.test(v) ? Number(v) : v)),
  API_CACHE_ENTRIES: z.coerce.number().int().nonnegative().default(2000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface ApiConfig {
  env: "development" | "production" | "test";
  port: number;
  dataDir: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  uploadMaxBytes: number;
  bcryptCost: number;
  /** Login and register attempts per IP per 15 minutes; 0 turns the limit off. */
  authRateLimit: number;
  /** Whose X-Forwarded-For header names the client (see AppConfig.trustProxy). */
  trustProxy: boolean | number | string;
  /** Anonymous GET answers kept until the next write; 0 turns the cache off. */
  responseCacheEntries: number;
  logLevel: string;
}

/** Reads the environment once at start. Throws with a readable message when it is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.API_PORT,
    dataDir,
    jwtSecret: e.JWT_SECRET ?? developmentSecret(e.NODE_ENV, dataDir),
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    bcryptCost: e.BCRYPT_COST,
    authRateLimit: e.AUTH_RATE_LIMIT_PER_15_MIN,
    trustProxy: e.TRUST_PROXY,
    responseCacheEntries: e.API_CACHE_ENTRIES,
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * Outside production a missing JWT_SECRET is generated once and kept in the data folder,
 * so tokens survive restarts. Production refuses to start without one (CONTRACT.md 5).
 */
function developmentSecret(env: string, dataDir: string): string {
  if (env === "production") {
    throw new Error("JWT_SECRET is required in production (at least 16 characters).");
  }
  const file = path.join(dataDir, "jwt-secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
