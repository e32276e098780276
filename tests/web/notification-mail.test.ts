// The settings page's "Email notifications" card and /unsubscribe (docs/web.md "Notification mail") against the real
// API: the card shows and saves a setting per kind and says when the address is unverified; the unsubscribe page
// changes nothing on GET, and its POST (the button's form, or a mail program's RFC 8058 one-click POST, from any origin
// through the real web server) turns the kind off.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/settings.tsx";
import { action, loader } from "../../app/routes/unsubscribe.tsx";
import { EMAIL_NOTIFICATIONS_INTENT } from "../../app/lib/email-preferences.server.ts";
import { unsubscribeSecret, unsubscribeToken } from "../../server/mail/unsubscribe.ts";
import { DEFAULT_EMAIL_SETTINGS, INVALID_UNSUBSCRIBE_LINK } from "../../server/rules/email-preferences.ts";
import type { NotificationKind } from "../../server/db/schema.ts";
import type { TestApi, TestUser } from "../helpers/api.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";
import { startWebServer, type WebServer } from "../helpers/web-server.ts";

let web: WebTestApi;
setUpSharedWebTestApi([], (started) => {
  web = started;
});

let seq = 0;
const newUser = (api: TestApi = web.api) => api.register(`unsub_web_${process.pid}_${++seq}`);
const prefsOf = async (user: TestUser, api: TestApi = web.api) => (await api.request.get("/me/email-preferences").set(user.auth)).body;
const tokenFor = (api: TestApi, user: TestUser, kind: NotificationKind) =>
  unsubscribeToken(unsubscribeSecret(api.config.jwtSecret), user.id, kind);

const settings = async (user: TestUser, form?: Record<string, string>) => {
  const cookie = await web.cookieFor(user);
  return form
    ? run(() => settingsAction(args(request("/settings", { cookie, form }), web.context)))
    : run(() => settingsLoader(args(request("/settings", { cookie }), web.context)));
};
const open = (path: string) => run(() => loader(args(request(path), web.context)));
const post = (path: string, form: Record<string, string>) => run(() => action(args(request(path, { form }), web.context)));

describe("the settings page's Email notifications card", () => {
  it("shows each kind's setting and whether the address is verified, and saves the selects", async () => {
    const user = await newUser();
    expect((await settings(user)).data).toMatchObject({ emailPreferences: DEFAULT_EMAIL_SETTINGS, emailVerified: false });

    const form = { intent: EMAIL_NOTIFICATIONS_INTENT, ...DEFAULT_EMAIL_SETTINGS, comment: "daily", chapter: "instant", join: "weekly" };
    const saved = await settings(user, form);

    expect(saved.status).toBe(200);
    const chosen = { ...DEFAULT_EMAIL_SETTINGS, comment: "daily", chapter: "instant", join: "weekly" };
    expect(saved.data).toMatchObject({ form: "email-notifications", ok: true, preferences: chosen });
    expect(await prefsOf(user)).toEqual(chosen);
    expect((await settings(user)).data).toMatchObject({ emailPreferences: chosen });
  });

  it("puts an unknown setting's error on its select and changes nothing", async () => {
    const user = await newUser();
    const res = await settings(user, { intent: EMAIL_NOTIFICATIONS_INTENT, ...DEFAULT_EMAIL_SETTINGS, reply: "hourly" });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({
      form: "email-notifications",
      ok: false,
      fieldErrors: { reply: "Choose one of off, instant, daily, weekly" },
    });
    expect(await prefsOf(user)).toEqual(DEFAULT_EMAIL_SETTINGS);
  });
});

describe("/unsubscribe", () => {
  it("shows the kind and a button on GET, and changes nothing", async () => {
    const user = await newUser();
    const token = tokenFor(web.api, user, "reply");
    const page = await open(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.data).toEqual({ token, kind: "reply" });
    expect(await prefsOf(user)).toEqual(DEFAULT_EMAIL_SETTINGS);
    expect((await open("/unsubscribe")).data).toEqual({ token: null, kind: null });
    expect((await open("/unsubscribe?token=nonsense")).data).toEqual({ token: null, kind: null });
  });

  it("turns the kind off on the button's POST, and on a one-click POST with the token in the URL", async () => {
    const user = await newUser();
    const pressed = await post("/unsubscribe", { token: tokenFor(web.api, user, "mention") });
    expect(pressed.status).toBe(200);
    expect(pressed.data).toEqual({ ok: true, kind: "mention" });

    const oneClick = await post(`/unsubscribe?token=${encodeURIComponent(tokenFor(web.api, user, "reply"))}`, {
      "List-Unsubscribe": "One-Click",
    });
    expect(oneClick.data).toEqual({ ok: true, kind: "reply" });
    expect(await prefsOf(user)).toEqual({ ...DEFAULT_EMAIL_SETTINGS, mention: "off", reply: "off" });
  });

  it("refuses a tampered or missing token, changing nothing", async () => {
    const user = await newUser();
    const tampered = tokenFor(web.api, user, "reply").replace(".reply.", ".mention.");
    expect((await post("/unsubscribe", { token: tampered })).data).toEqual({ ok: false, message: INVALID_UNSUBSCRIBE_LINK });
    expect((await post("/unsubscribe", { "List-Unsubscribe": "One-Click" })).data).toMatchObject({
      ok: false,
      message: expect.stringContaining("incomplete"),
    });
    expect(await prefsOf(user)).toEqual(DEFAULT_EMAIL_SETTINGS);
  });
});

describe("the one-click POST through the web server", () => {
  let site: WebServer;
  beforeAll(async () => {
    site = await startWebServer();
  }, 120_000);
  afterAll(() => site?.close());

  /** A POST with exactly these headers, as a mail program's servers send it. */
  function rawPost(path: string, headers: Record<string, string>, body: string) {
    const { port, host } = new URL(site.url);
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { Host: host, ...headers } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("takes the RFC 8058 body with or without another site's Origin, and says what changed", async () => {
    const user = await newUser(site.api);
    const cases: [NotificationKind, Record<string, string>][] = [
      ["reply", {}],
      ["mention", { Origin: "https://mail.example" }],
      ["chapter", { Origin: "null" }],
    ];
    for (const [kind, origin] of cases) {
      const res = await rawPost(
        `/unsubscribe?token=${encodeURIComponent(tokenFor(site.api, user, kind))}`,
        { "Content-Type": "application/x-www-form-urlencoded", ...origin },
        "List-Unsubscribe=One-Click",
      );
      expect(res.status, `${kind}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(res.body).toContain("You will no longer get");
    }
    expect(await prefsOf(user, site.api)).toEqual({ ...DEFAULT_EMAIL_SETTINGS, reply: "off", mention: "off", chapter: "off" });

    // Another path from another site is still refused (web/request-checks.ts).
    const elsewhere = await rawPost(
      "/settings",
      { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example" },
      "intent=x",
    );
    expect(elsewhere.status).toBe(403);
  });

  it("shows the button on GET and changes nothing", async () => {
    const user = await newUser(site.api);
    const res = await fetch(`${site.url}/unsubscribe?token=${encodeURIComponent(tokenFor(site.api, user, "reply"))}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Unsubscribe from reply emails");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Unsubscribe<\/button>/);
    expect(await prefsOf(user, site.api)).toEqual(DEFAULT_EMAIL_SETTINGS);
  });
});
