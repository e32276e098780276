// /settings (docs/api.md §12) against the real API: email and password changes with their errors, the new session
// cookie after a password change, "Log out everywhere" with its confirmation step, and the data download.
import { describe, expect, it } from "vitest";
import { DEFAULT_EMAIL_SETTINGS } from "../../server/rules/email-preferences.ts";
import { loader as exportLoader } from "../../app/routes/settings_.export.tsx";
import { action, loader } from "../../app/routes/settings.tsx";
import type { TestUser } from "../helpers/api.ts";
import { args, cookieHeader, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
let other: TestUser;
setUpSharedWebTestApi(["settings_other"], (started, [first]) => {
  web = started;
  other = first;
});

let seq = 0;
const newUser = () => web.api.register(`settings_${process.pid}_${++seq}`);
const post = async (user: TestUser | { token: string }, form: Record<string, string>) =>
  run(async () => action(args(request("/settings", { cookie: await web.cookieFor(user), form }), web.context)));
const emailOf = async (user: TestUser) => (await web.api.request.get(`/user/${user.username}`).set(user.auth)).body.email as string;

describe("the settings page", () => {
  it("sends a guest to the login page and back", async () => {
    const out = await run(() => loader(args(request("/settings"), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toBe(`/login?redirectTo=${encodeURIComponent("/settings")}`);
  });

  it("shows the user's email, and the confirmation step only when asked", async () => {
    const user = await newUser();
    const cookie = await web.cookieFor(user);
    const page = await run(() => loader(args(request("/settings", { cookie }), web.context)));
    expect(page.data).toEqual({
      userId: user.id,
      email: user.email,
      emailVerified: false,
      pendingEmail: null,
      showMature: false,
      confirming: false,
      blocked: { total: 0, users: [] },
      // docs/web.md "Passkeys": the list (none yet).
      passkeys: [],
      // docs/web.md "Two-factor authentication": off.
      totpOn: false,
      // docs/web.md "Notification mail": the defaults (tests/web/notification-mail.test.ts saves others).
      emailPreferences: DEFAULT_EMAIL_SETTINGS,
    });
    const confirm = await run(() => loader(args(request("/settings?confirm=logout-all", { cookie }), web.context)));
    expect(confirm.data.confirming).toBe(true);
  });
});

describe("changing the email", () => {
  it("with the current password, sends the new address a link; the address changes once it is opened", async () => {
    const user = await newUser();
    const newEmail = `new.${user.username}@example.com`;
    const out = await post(user, { intent: "email", email: newEmail, currentPassword: user.password });
    expect(out.status).toBe(200);
    expect(out.data).toMatchObject({
      form: "email",
      ok: true,
      message: `We sent a link to ${newEmail}. Your email changes once you open it.`,
    });
    // docs/web.md "Verified email addresses" (tests/web/verify-email.test.ts follows the link).
    expect(await emailOf(user)).toBe(user.email);
    const page = await run(async () => loader(args(request("/settings", { cookie: await web.cookieFor(user) }), web.context)));
    expect(page.data).toMatchObject({ email: user.email, pendingEmail: newEmail });
  });

  it("shows field errors: no password, a wrong one, a taken address; keeps what was typed", async () => {
    const user = await newUser();
    const missing = await post(user, { intent: "email", email: "a.b@example.com", currentPassword: "" });
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors).toEqual({ currentPassword: "Current password is required to change your email" });
    const wrong = await post(user, { intent: "email", email: "a.b@example.com", currentPassword: "not-mine" });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      ok: false,
      email: "a.b@example.com",
      fieldErrors: { currentPassword: "Current password is incorrect" },
    });
    const taken = await post(user, { intent: "email", email: other.email, currentPassword: user.password });
    expect(taken.status).toBe(409);
    expect(taken.data.fieldErrors).toEqual({ email: "Email is already registered" });
    expect(await emailOf(user)).toBe(user.email);
  });
});

describe("changing the password", () => {
  it("keeps this browser signed in with the new token, and ends the other sessions", async () => {
    const user = await newUser();
    const out = await post(user, { intent: "password", currentPassword: user.password, newPassword: "brand-new-1" });

    expect(out.status).toBe(200);
    expect(out.data).toMatchObject({ form: "password", ok: true });
    const cookie = cookieHeader(out.headers.get("Set-Cookie")!);
    const page = await run(() => loader(args(request("/settings", { cookie }), web.context)));
    expect(page.data).toMatchObject({ email: user.email });
    // The old cookie's token is refused: the next page sends that browser to the login page.
    const old = await run(async () => loader(args(request("/settings", { cookie: await web.cookieFor(user) }), web.context)));
    expect(old.status).toBe(302);
    expect(old.location).toMatch(/^\/login\?redirectTo=/);
  });

  it("shows field errors for a wrong current password and a short new one, and changes nothing", async () => {
    const user = await newUser();
    const wrong = await post(user, { intent: "password", currentPassword: "not-mine", newPassword: "brand-new-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.fieldErrors).toEqual({ currentPassword: "Current password is incorrect" });
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
    const short = await post(user, { intent: "password", currentPassword: user.password, newPassword: "abc" });
    expect(short.data.fieldErrors).toEqual({ newPassword: "Password must be at least 6 characters" });
    expect((await web.api.request.get(`/user/${user.username}`).set(user.auth)).status).toBe(200);
  });
});

describe("log out everywhere", () => {
  it("ends every session, this one included, clears the cookie and goes to the login page", async () => {
    const user = await newUser();
    const out = await post(user, { intent: "logout-all" });

    expect(out.status).toBe(302);
    expect(out.location).toBe("/login");
    expect(out.headers.get("Set-Cookie")).toMatch(/^inkwell_session=;/);
    expect((await web.api.request.get(`/user/${user.username}`).set(user.auth)).status).toBe(401);
  });
});

describe("download my data", () => {
  it("streams the API's zip with the user's token", async () => {
    const user = await newUser();
    const res = await exportLoader(args(request("/settings/export", { cookie: await web.cookieFor(user) }), web.context));

    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="inkwell-${user.username}.zip"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("binary")).toBe("PK\u0003\u0004");
    expect(bytes.includes(Buffer.from("account.json"))).toBe(true);
  });

  it("tells a user over the hourly limit when to try again (429, Retry-After)", async () => {
    const user = await newUser();
    const download = async () => exportLoader(args(request("/settings/export", { cookie: await web.cookieFor(user) }), web.context));
    for (let i = 0; i < 3; i++) await (await download()).arrayBuffer();

    const res = await download();

    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await res.text()).toMatch(/^You can download your data at most 3 times an hour\. Please try again in \d+ minutes?\.$/);
  });

  it("sends a guest to the login page", async () => {
    const out = await run(() => exportLoader(args(request("/settings/export"), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toMatch(/^\/login\?redirectTo=/);
  });
});
