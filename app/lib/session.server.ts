import { createCookie, redirect, type Cookie } from "@remix-run/node";
import { z } from "zod";
import type { WebContext } from "./context.ts";
import { loginPath } from "./redirects.ts";

/** The signed-in user as the token's claims tell (docs/api.md §5); no API call needed. */
export interface SessionUser {
  id: number;
  username: string;
  email: string;
}

export interface Session {
  token: string;
  user: SessionUser;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export const SESSION_COOKIE_NAME = "inkwell_session";
/** The device cookie: the API's token for "this browser signed in to this account before" (OWASP device cookies). */
export const DEVICE_COOKIE_NAME = "inkwell_device";
const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600;

const Claims = z.object({ sub: z.string().min(1), uid: z.number().int().positive(), email: z.string(), exp: z.number() });

const cookies = new Map<string, Cookie>();

/** The session cookie of docs/web.md §6: httpOnly, SameSite=Lax, signed, Secure in production. */
export function sessionCookie(context: WebContext): Cookie {
  const { sessionSecret, secureCookies } = context.config;
  const key = `${sessionSecret}|${secureCookies}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie(SESSION_COOKIE_NAME, {
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies,
      path: "/",
      secrets: [sessionSecret],
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

/** The device cookie: httpOnly, SameSite=Lax, signed, Secure as the session cookie, kept a year. */
export function deviceCookie(context: WebContext): Cookie {
  const { sessionSecret, secureCookies } = context.config;
  const key = `device|${sessionSecret}|${secureCookies}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie(DEVICE_COOKIE_NAME, {
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies,
      path: "/",
      maxAge: DEVICE_COOKIE_MAX_AGE,
      secrets: [sessionSecret],
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

/** This browser's device token, if it has a valid one. */
export async function readDeviceToken(request: Request, context: WebContext): Promise<string | undefined> {
  const value: unknown = await deviceCookie(context).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value !== "" && value.length <= 1000 ? value : undefined;
}

/** A Set-Cookie value that keeps a device token for a year. */
export function commitDeviceToken(context: WebContext, deviceToken: string): Promise<string> {
  return deviceCookie(context).serialize(deviceToken);
}

/** The claims of a JWT, read without checking the signature: the API checks it on every call. */
export function readClaims(token: string): Session | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const claims = Claims.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return { token, exp: claims.exp, user: { id: claims.uid, username: claims.sub, email: claims.email } };
  } catch {
    return null;
  }
}

const isExpired = (session: Session) => session.exp * 1000 <= Date.now();

/** A Set-Cookie value that stores the token until it expires. */
export async function commitToken(context: WebContext, token: string): Promise<string> {
  const session = readClaims(token);
  const maxAge = session ? Math.max(0, Math.floor(session.exp - Date.now() / 1000)) : undefined;
  return sessionCookie(context).serialize(token, { maxAge });
}

/** The cookies of a login or register: the session, and the device token when the API gave a new one. */
export async function signedInHeaders(context: WebContext, signedIn: { accessToken: string; deviceToken?: string }): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await commitToken(context, signedIn.accessToken));
  if (signedIn.deviceToken) headers.append("Set-Cookie", await commitDeviceToken(context, signedIn.deviceToken));
  return headers;
}

/** A Set-Cookie value that removes the session (logout, expiry, a 401 from the API). */
export function clearSession(context: WebContext): Promise<string> {
  return sessionCookie(context).serialize("", { maxAge: 0, expires: new Date(0) });
}

const onAuthPage = (url: URL) => url.pathname === "/login" || url.pathname === "/register";

/**
 * Ends the session and sends the user to the login page, back here afterwards (docs/web.md §6).
 * On the login and register pages themselves the user just continues as a guest.
 */
export async function sessionEnded(request: Request, context: WebContext): Promise<Response> {
  const url = new URL(request.url);
  const headers = { "Set-Cookie": await clearSession(context) };
  return redirect(onAuthPage(url) ? url.pathname + url.search : loginPath(url), { headers });
}

/**
 * The request's session, read once per request when the load context carries `perRequest`: the root loader and the
 * route's each ask, and a read checks the cookie's signature (an HMAC) and parses it and the token's claims.
 */
function readSession(request: Request, context: WebContext): Promise<Session | null | "expired"> {
  const cookieHeader = request.headers.get("Cookie");
  const key = `session\n${cookieHeader ?? ""}`;
  const kept = context.perRequest?.get(key) as Promise<Session | null | "expired"> | undefined;
  if (kept) return kept;
  const session = readSessionCookie(cookieHeader, context);
  context.perRequest?.set(key, session);
  return session;
}

/** The session in a Cookie header: null without one, "expired" when it is unreadable or past its expiry. */
export async function readSessionCookie(cookieHeader: string | null, context: WebContext): Promise<Session | null | "expired"> {
  const value: unknown = await sessionCookie(context).parse(cookieHeader);
  if (typeof value !== "string" || value === "") return null;
  const session = readClaims(value);
  if (!session || isExpired(session)) return "expired";
  return session;
}

/**
 * The session, or null for a guest. The token's expiry is checked on every request: an expired or
 * unreadable one ends the session and lands on the login page (thrown redirect).
 */
export async function optionalUser(request: Request, context: WebContext): Promise<Session | null> {
  const session = await readSession(request, context);
  if (session === "expired") {
    if (onAuthPage(new URL(request.url))) return null;
    throw await sessionEnded(request, context);
  }
  return session;
}

/** The session, or a thrown redirect to `/login?redirectTo=<here>`. */
export async function requireUser(request: Request, context: WebContext): Promise<Session> {
  const session = await optionalUser(request, context);
  if (!session) throw redirect(loginPath(new URL(request.url)));
  return session;
}
