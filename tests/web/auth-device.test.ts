// The web side of the API's login hardening, against a stand-in API that speaks the interface
// (docs/api.md §5 and the login throttling): device cookie, throttled logins, logout revoking.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action as loginAction } from "../../app/routes/login.tsx";
import { action as logoutAction } from "../../app/routes/logout.tsx";
import { action as registerAction } from "../../app/routes/register.tsx";
import { commitDeviceToken, commitToken } from "../../app/lib/session.server.ts";
import { args, cookieHeader, request, run, tokenFor, webContext } from "../helpers/web.ts";

interface Seen {
  method: string;
  path: string;
  authorization?: string;
  body: Record<string, unknown>;
}

const THROTTLED = "Too many login attempts. Please try again later.";
let standIn: http.Server;
let seen: Seen[] = [];
let logoutStatus = 200;
let deviceSeq = 0;
let context: ReturnType<typeof webContext>;
const accessToken = tokenFor(
  { id: 1, username: "reader", email: "reader@example.com", password: "", token: "", auth: { Authorization: "" } },
  "any-secret",
  3600,
);

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      seen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
      if (req.url === "/auth/login" && body.username === "throttled")
        return json(429, { status: 429, error: "Too Many Requests", message: THROTTLED });
      if (req.url === "/auth/login" || req.url === "/auth/register")
        return json(req.url === "/auth/login" ? 200 : 201, { accessToken, deviceToken: `device-${++deviceSeq}` });
      if (req.url === "/auth/logout")
        return json(logoutStatus, logoutStatus === 200 ? { loggedOut: true } : { status: logoutStatus, error: "Error", message: "down" });
      json(404, { status: 404, error: "Not Found", message: "No such route" });
    });
  });
  standIn.listen(0, "127.0.0.1");
  await new Promise((resolve) => standIn.once("listening", resolve));
  context = webContext(`http://127.0.0.1:${(standIn.address() as AddressInfo).port}`);
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});
beforeEach(() => {
  seen = [];
  logoutStatus = 200;
});

const login = (form: Record<string, string>, cookie?: string) => run(() => loginAction(args(request("/login", { form, cookie }), context)));
const setCookies = (headers: Headers) => headers.getSetCookie();
const deviceCookieOf = (headers: Headers) => setCookies(headers).find((c) => c.startsWith("inkwell_device="));

describe("device cookie", () => {
  it("keeps the API's device token in an httpOnly, SameSite=Lax cookie for a year", async () => {
    const out = await login({ username: "reader", password: "secret123" });

    expect(out.status).toBe(302);
    const device = deviceCookieOf(out.headers)!;
    expect(device).toMatch(/^inkwell_device=[^;]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(setCookies(out.headers).some((c) => c.startsWith("inkwell_session="))).toBe(true);
    expect(seen[0]!.body).not.toHaveProperty("deviceToken");
  });

  it("sends the device token with the next login and replaces it with the new one", async () => {
    const first = await login({ username: "reader", password: "secret123" });
    const firstDevice = cookieHeader(deviceCookieOf(first.headers)!);

    const second = await login({ username: "reader", password: "secret123" }, firstDevice);

    expect(seen[1]!.body.deviceToken).toBe(`device-${deviceSeq - 1}`);
    expect(cookieHeader(deviceCookieOf(second.headers)!)).not.toBe(firstDevice);
  });

  it("is Secure when the session cookie is", async () => {
    const secure = webContext(context.config.apiUrl, { secureCookies: true });
    expect(await commitDeviceToken(secure, "d")).toContain("; Secure");
    expect(await commitToken(secure, accessToken)).toContain("; Secure");
  });

  it("ignores a device cookie that was not signed by this site", async () => {
    await login({ username: "reader", password: "secret123" }, "inkwell_device=forged");
    expect(seen[0]!.body).not.toHaveProperty("deviceToken");
  });

  it("is stored on register too", async () => {
    const out = await run(() =>
      registerAction(args(request("/register", { form: { username: "new_one", email: "n@example.com", password: "secret123" } }), context)),
    );
    expect(out.status).toBe(302);
    expect(deviceCookieOf(out.headers)).toBeDefined();
  });
});

describe("throttled login", () => {
  it("shows the API's reason (429), not 'Login failed'", async () => {
    const out = await login({ username: "throttled", password: "secret123" });
    expect(out.status).toBe(429);
    expect(out.data.formError).toBe(THROTTLED);
  });
});

describe("logout", () => {
  it("revokes the session's token at the API, then clears the cookie", async () => {
    const cookie = cookieHeader(await commitToken(context, accessToken));
    const out = await run(() => logoutAction(args(request("/logout", { cookie, form: {} }), context)));

    expect(seen).toEqual([{ method: "POST", path: "/auth/logout", authorization: `Bearer ${accessToken}`, body: {} }]);
    expect(out.location).toBe("/");
    expect(out.headers.get("Set-Cookie")).toMatch(/inkwell_session=;.*Max-Age=0/);
  });

  it("still signs out when the API fails", async () => {
    logoutStatus = 503;
    const cookie = cookieHeader(await commitToken(context, accessToken));
    const out = await run(() => logoutAction(args(request("/logout", { cookie, form: {} }), context)));
    expect(out.headers.get("Set-Cookie")).toMatch(/inkwell_session=;.*Max-Age=0/);
  });

  it("calls nothing for a guest", async () => {
    await run(() => logoutAction(args(request("/logout", { form: {} }), context)));
    expect(seen).toEqual([]);
  });
});
