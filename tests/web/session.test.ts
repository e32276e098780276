import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginPath, safeRedirect } from "../../app/lib/redirects.ts";
import { optionalUser, readClaims, requireUser } from "../../app/lib/session.server.ts";
import { loader as profileLoader } from "../../app/routes/profile.tsx";
import { loader as hubsLoader } from "../../app/routes/hubs._index.tsx";
import { args, request, run, startWebTestApi, tokenFor, type WebTestApi } from "../helpers/web.ts";

describe("safeRedirect", () => {
  it.each([
    ["/hubs/Manga%20Lovers?sort=likes", "/hubs/Manga%20Lovers?sort=likes"],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["", "/"],
    [null, "/"],
  ])("%s goes to %s", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  it("remembers where the user was, except the login and register pages", () => {
    expect(loginPath(new URL("http://x/hubs?q=ink"))).toBe("/login?redirectTo=%2Fhubs%3Fq%3Dink");
    expect(loginPath(new URL("http://x/login?redirectTo=%2Fprofile"))).toBe("/login");
    expect(loginPath(new URL("http://x/"))).toBe("/login");
  });
});

describe("session", () => {
  let web: WebTestApi;
  beforeAll(async () => {
    web = await startWebTestApi();
  });
  afterAll(() => web.close());

  it("reads the user from the token's claims", async () => {
    const user = await web.api.register();
    const session = await optionalUser(request("/", { cookie: await web.cookieFor(user) }), web.context);
    expect(session?.user).toEqual({ id: user.id, username: user.username, email: user.email });
    expect(readClaims("not-a-token")).toBeNull();
  });

  it("reads the session once per request when the load context carries perRequest, and per call without it", async () => {
    const user = await web.api.register();
    const req = request("/", { cookie: await web.cookieFor(user) });
    const context = { ...web.context, perRequest: new Map<string, unknown>() };
    const first = await optionalUser(req, context);
    expect(first?.user.id).toBe(user.id);
    // The root loader and the route's loader ask for it in the same request: the same read answers both.
    expect(await optionalUser(req, context)).toBe(first);
    // Another request (its own perRequest) reads its own cookie.
    const other = await web.api.register();
    const otherSession = await optionalUser(request("/", { cookie: await web.cookieFor(other) }), {
      ...web.context,
      perRequest: new Map(),
    });
    expect(otherSession?.user.id).toBe(other.id);
    expect(await optionalUser(req, web.context)).not.toBe(first);
  });

  it("stores the token in an httpOnly, SameSite=Lax cookie that expires with it", async () => {
    const user = await web.api.register();
    const { commitToken } = await import("../../app/lib/session.server.ts");
    const setCookie = await commitToken(web.context, user.token);
    expect(setCookie).toMatch(/^inkwell_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).not.toMatch(/Secure/);
    const secure = await commitToken({ ...web.context, config: { ...web.context.config, secureCookies: true } }, user.token);
    expect(secure).toMatch(/Secure/);
  });

  it("sends a guest to the login page and back", async () => {
    const out = await run(() => requireUser(request("/profile"), web.context));
    expect(out.status).toBe(302);
    expect(out.location).toBe("/login?redirectTo=%2Fprofile");
    const profile = await run(() => profileLoader(args(request("/profile"), web.context)));
    expect(profile.location).toBe("/login?redirectTo=%2Fprofile");
  });

  it("ends an expired session on any page: cookie cleared, off to login", async () => {
    const user = await web.api.register();
    const expired = tokenFor(user, web.api.config.jwtSecret, -60);
    const cookie = await web.cookieFor({ token: expired });
    const out = await run(() => hubsLoader(args(request("/hubs?q=ink", { cookie }), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toBe("/login?redirectTo=%2Fhubs%3Fq%3Dink");
    expect(out.headers.get("Set-Cookie")).toMatch(/inkwell_session=;.*Max-Age=0/);
  });

  it("ends the session when the API answers 401 (a token the API does not accept)", async () => {
    const user = await web.api.register();
    const forged = tokenFor(user, "another-secret-that-is-long-enough", 3600);
    const cookie = await web.cookieFor({ token: forged });
    const out = await run(() => hubsLoader(args(request("/hubs", { cookie }), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toBe("/login?redirectTo=%2Fhubs");
    expect(out.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
  });

  it("ignores a cookie that was not signed with the session secret", async () => {
    const user = await web.api.register();
    const session = await optionalUser(
      request("/", { cookie: `inkwell_session=${encodeURIComponent(btoa(JSON.stringify(user.token)))}` }),
      web.context,
    );
    expect(session).toBeNull();
  });
});
