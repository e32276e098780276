import { createSecretKey, type KeyObject } from "node:crypto";
import type { RequestHandler } from "express";
import jwt from "jsonwebtoken";
import { z } from "zod";
import type { Database } from "../db/database.ts";
import { unauthorized } from "./errors.ts";

export interface AuthUser {
  id: number;
  username: string;
  email: string;
}

/** The token's claims (CONTRACT.md 5): sub is the username, uid the user id. */
const Claims = z.object({
  sub: z.string(),
  uid: z.number().int().positive(),
  email: z.string(),
  iat: z.number(),
  exp: z.number(),
});

export interface TokenConfig {
  jwtSecret: string;
  jwtTtlSeconds: number;
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

export function signAccessToken(user: AuthUser, config: TokenConfig): string {
  return jwt.sign({ uid: user.id, email: user.email }, secretKey(config.jwtSecret), {
    algorithm: "HS256",
    subject: user.username,
    expiresIn: config.jwtTtlSeconds,
  });
}

/**
 * Reads the bearer token when one is sent. A token that is expired, tampered, unparseable or
 * names a user who no longer exists is a 401 on every endpoint, public ones included, so that
 * clients drop it (CONTRACT.md 2).
 */
export function readBearerToken(db: Database, config: TokenConfig): RequestHandler {
  const findUser = db.sqlite.prepare<[number], { username: string; email: string }>(
    "SELECT username, email FROM User WHERE id = ?",
  );
  findUser.safeIntegers(false);
  const key = secretKey(config.jwtSecret);
  return (req, res, next) => {
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
    const row = findUser.get(claims.uid);
    if (!row || row.username !== claims.sub) return next(unauthorized("Invalid token"));
    res.locals.user = { id: claims.uid, username: row.username, email: row.email } satisfies AuthUser;
    next();
  };
}
