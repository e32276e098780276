import { createHmac, createSecretKey, randomBytes, type KeyObject } from "node:crypto";
import type { RequestHandler } from "express";
import jwt from "jsonwebtoken";
import { z } from "zod";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";
import { ACCOUNT_SUSPENDED } from "../rules/bans.ts";
import { adminNeedsSecondFactor, holdsAdminPowers } from "../rules/permissions.ts";
import { createTwoFactorQueries } from "../two-factor/two-factor.queries.ts";
import { unauthorized } from "./errors.ts";
import { oncePerPage } from "./auth-per-page.ts";

export interface AuthUser {
  id: number;
  username: string;
  email: string;
}

/** The signed-in caller and the token they sent (logout revokes that token). */
export interface Caller extends AuthUser {
  token: { jti: string; exp: number };
  /** A site admin: `User.isAdmin`, or the username is in ADMIN_USERNAMES (docs/decisions/018-governance.md). */
  isAdmin: boolean;
  /**
   * ADMIN_REQUIRE_2FA: an admin without a second factor yet. `isAdmin` is false meanwhile, and their 403s say to set one
   * up (server/http/errors.ts).
   */
  adminAwaitingSecondFactor?: boolean;
  /** How many users the caller blocks: 0 (the usual case) and the lists run their plain queries (server/blocks). */
  blockCount: number;
  /** Mature series appear in the caller's lists (docs/api.md "Series metadata and browsing", `PUT /user/{id}` showMature). */
  showMature: boolean;
}

/**
 * The token's claims (docs/api.md §5): sub is the username, uid the user id. Beyond the contract's: jti
 * names the token (logout revokes it), gen is the user's token generation when it was signed
 * (docs/decisions/008-sessions-and-login-throttling.md).
 */
const Claims = z.object({
  sub: z.string(),
  uid: z.number().int().positive(),
  email: z.string(),
  iat: z.number(),
  exp: z.number(),
  jti: z.string().min(16).max(64),
  gen: z.number().int().nonnegative(),
});

export interface TokenConfig {
  jwtSecret: string;
  jwtTtlSeconds: number;
  /** ADMIN_USERNAMES in lower case (usernameKeys): admins whenever such an account exists. */
  adminUsernames?: readonly string[];
  /** ADMIN_REQUIRE_2FA: admin powers need a second factor (docs/api.md "Second factors"). */
  adminRequire2fa?: boolean;
}

/** Whether a user is a site admin: granted (`User.isAdmin` is 1) or named by ADMIN_USERNAMES. */
export function isAdminUser(user: { usernameKey: string; isAdmin: number }, adminUsernames: readonly string[] = []): boolean {
  return user.isAdmin === 1 || adminUsernames.includes(user.usernameKey);
}

const secretKeys = new Map<string, KeyObject>();

/**
 * The secret as a KeyObject, made once. Given a string, jsonwebtoken first tries to parse it as a
 * PEM public key on every call and fails: that alone was the largest cost of a signed-in request.
 */
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) secretKeys.set(secret, (key = createSecretKey(Buffer.from(secret, "utf8"))));
  return key;
}

export function signAccessToken(user: AuthUser & { tokenGeneration: number }, config: TokenConfig): string {
  return jwt.sign({ uid: user.id, email: user.email, gen: user.tokenGeneration }, secretKey(config.jwtSecret), {
    algorithm: "HS256",
    subject: user.username,
    expiresIn: config.jwtTtlSeconds,
    jwtid: randomBytes(16).toString("base64url"),
  });
}

/**
 * Reads the bearer token when one is sent. A token that is expired, tampered, unparseable, revoked
 * (logout), of an older generation (all sessions ended) or names a user who no longer exists is a 401
 * on every endpoint, public ones included, so that clients drop it (docs/api.md §5).
 */
export function readBearerToken(db: Database, config: TokenConfig): RequestHandler {
  // One lookup per signed-in request: the user, their token generation and whether this token was revoked.
  const findUser = prepare<
    { jti: string; id: number },
    {
      username: string;
      usernameKey: string;
      email: string;
      tokenGeneration: number;
      isAdmin: number;
      suspendedUntil: number | null;
      blockCount: number;
      showMature: number;
      revoked: number;
    }
  >(
    db.kysely,
    (p) => sql`SELECT "username", "usernameKey", "email", "tokenGeneration", "isAdmin", "suspendedUntil", "blockCount", "showMature",
                 CASE WHEN EXISTS (SELECT 1 FROM "RevokedToken" WHERE "jti" = ${p("jti")}) THEN 1 ELSE 0 END AS "revoked"
               FROM "User" WHERE "id" = ${p("id")}`,
  );
  const key = secretKey(config.jwtSecret);
  const site = { adminRequire2fa: config.adminRequire2fa === true };
  const secondFactors = createTwoFactorQueries(db);
  // Once per page for the reads of a page made in process (server/http/auth-per-page.ts).
  return oncePerPage(async (req, res, next) => {
    res.locals.user = null;
    const header = req.headers.authorization;
    if (header === undefined) return next();
    const match = /^Bearer +([A-Za-z0-9\-_.]+)\s*$/i.exec(header);
    if (!match?.[1]) return next(unauthorized("Invalid authorization header"));
    let claims: z.infer<typeof Claims>;
    try {
      claims = Claims.parse(jwt.verify(match[1], key, { algorithms: ["HS256"] }));
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      return next(unauthorized(expired ? "Your session has expired" : "Invalid token"));
    }
    const row = await findUser.first({ jti: claims.jti, id: claims.uid });
    if (!row || row.username !== claims.sub) return next(unauthorized("Invalid token"));
    if (row.revoked || row.tokenGeneration !== claims.gen) return next(unauthorized("Your session has ended. Please sign in again."));
    // Suspending moves the generation too; this also covers a suspension written around the API (docs/decisions/018-governance.md).
    if (row.suspendedUntil !== null && row.suspendedUntil > Date.now()) return next(unauthorized(ACCOUNT_SUSPENDED));
    const admin = isAdminUser(row, config.adminUsernames);
    // One more query, for admins only on a site with ADMIN_REQUIRE_2FA.
    const isAdmin = adminNeedsSecondFactor({ isAdmin: admin }, site)
      ? holdsAdminPowers({ isAdmin: admin, hasSecondFactor: await secondFactors.hasSecondFactor(claims.uid) }, site)
      : admin;
    res.locals.user = {
      id: claims.uid,
      username: row.username,
      email: row.email,
      token: { jti: claims.jti, exp: claims.exp },
      isAdmin,
      ...(admin && !isAdmin ? { adminAwaitingSecondFactor: true } : {}),
      blockCount: Number(row.blockCount),
      showMature: Number(row.showMature) === 1,
    } satisfies Caller;
    next();
  });
}

/**
 * Device tokens (OWASP "device cookies"): handed out with every successful sign-in and sent back with the
 * next ones, they let the account's owner sign in from a device that signed in before while the account
 * is throttled for everyone else. Signed with a key derived from the JWT secret, so a device token is never
 * accepted as an access token nor the other way round.
 */
export interface DeviceClaims {
  uid: number;
  /** The device's id: a throttle bucket of its own. */
  did: string;
}

const DEVICE_TTL_SECONDS = 365 * 24 * 3600;
const DeviceClaims = z.object({ uid: z.number().int().positive(), did: z.string().min(16).max(64) });
const deviceKeys = new Map<string, KeyObject>();

function deviceKey(secret: string): KeyObject {
  let key = deviceKeys.get(secret);
  if (!key) deviceKeys.set(secret, (key = createSecretKey(createHmac("sha256", secret).update("inkwell device token").digest())));
  return key;
}

export function signDeviceToken(userId: number, config: TokenConfig): string {
  return jwt.sign({ uid: userId, did: randomBytes(16).toString("base64url") }, deviceKey(config.jwtSecret), {
    algorithm: "HS256",
    expiresIn: DEVICE_TTL_SECONDS,
  });
}

/** The device token's claims when it is genuine and unexpired; null for anything else. */
export function readDeviceToken(token: string | undefined, config: TokenConfig): DeviceClaims | null {
  if (!token) return null;
  try {
    const parsed = DeviceClaims.safeParse(jwt.verify(token, deviceKey(config.jwtSecret), { algorithms: ["HS256"] }));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
