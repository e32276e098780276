// The login's code step and the settings' TOTP forms as the web app's actions answer them (docs/web.md "Two-factor
// authentication"): the challenge carried in the step, a wrong code on its field, an expired challenge back to the
// password form, a recovery code instead; the settings' set-up draws the QR code as SVG on the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as loginAction } from "../../app/routes/login.tsx";
import { action as settingsAction } from "../../app/routes/settings.tsx";
import { totpCode } from "../helpers/totp-codes.ts";
import { args, request, run, startWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
beforeAll(async () => {
  web = await startWebTestApi();
});
afterAll(() => web.close());

const login = (form: Record<string, string>) => run(() => loginAction(args(request("/login", { form }), web.context)));
const settings = async (user: Awaited<ReturnType<WebTestApi["api"]["register"]>>, form: Record<string, string>) =>
  run(async () => settingsAction(args(request("/settings", { form, cookie: await web.cookieFor(user) }), web.context)));

/** A user with TOTP turned on through the settings' forms. */
async function withTotp() {
  const user = await web.api.register();
  const setUp = await settings(user, { intent: "totp-setup" });
  expect(setUp.status).toBe(200);
  const { secret, otpauthUrl, qrSvg } = setUp.data.setUp!;
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  expect(qrSvg).toMatch(/^<svg[^>]*viewBox/);
  const wrong = await settings(user, { intent: "totp-confirm", code: "12", secret, otpauthUrl });
  expect(wrong.status).toBe(400);
  expect(wrong.data.fieldErrors.code).toBe("Enter the 6-digit code from your app");
  // The QR code again beside the error.
  expect(wrong.data.setUp!.qrSvg).toBe(qrSvg);
  const on = await settings(user, { intent: "totp-confirm", code: totpCode(secret, Date.now()), secret, otpauthUrl });
  expect(on.status).toBe(200);
  expect(on.data.recoveryCodes).toHaveLength(10);
  return { user, secret: secret, recoveryCodes: on.data.recoveryCodes as string[] };
}

describe("the login's code step", () => {
  it("answers the step after the right password, keeps it after a wrong code, and signs in with the right one", async () => {
    const { user, secret } = await withTotp();
    const first = await login({ username: user.username, password: user.password, redirectTo: "/hubs" });
    expect(first.status).toBe(200);
    expect(first.headers.get("Set-Cookie")).toBeNull();
    const { challenge, mode } = first.data.step!;
    expect(mode).toBe("code");
    const next = totpCode(secret, Date.now() + 30_000);
    const wrong = await login({
      intent: "second-factor",
      mode: "code",
      challenge,
      username: user.username,
      code: next === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.fieldErrors.code).toBe("That code is not right. Check the time on your device and try again.");
    expect(wrong.data.step).toEqual({ challenge, mode: "code" });
    const done = await login({
      intent: "second-factor",
      mode: "code",
      challenge,
      username: user.username,
      code: next,
      redirectTo: "/hubs",
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/hubs");
    expect(done.headers.get("Set-Cookie")).toContain("inkwell_session=");
  });

  it("switches to a recovery code and back, keeping the challenge", async () => {
    const { user, recoveryCodes } = await withTotp();
    const { challenge } = (await login({ username: user.username, password: user.password })).data.step!;
    const recovery = await login({ intent: "use-recovery", challenge, username: user.username });
    expect(recovery.data.step).toEqual({ challenge, mode: "recovery" });
    const empty = await login({ intent: "second-factor", mode: "recovery", challenge, username: user.username, recoveryCode: "" });
    expect(empty.data.fieldErrors.recoveryCode).toBe("Recovery code is required");
    expect((await login({ intent: "use-code", challenge, username: user.username })).data.step).toEqual({ challenge, mode: "code" });
    const done = await login({
      intent: "second-factor",
      mode: "recovery",
      challenge,
      username: user.username,
      recoveryCode: recoveryCodes[3]!,
    });
    expect(done.status).toBe(302);
  });

  it("goes back to the password form when the challenge is unknown or used up", async () => {
    const { user, secret } = await withTotp();
    const out = await login({
      intent: "second-factor",
      mode: "code",
      challenge: "forged",
      username: user.username,
      code: totpCode(secret, Date.now()),
    });
    expect(out.status).toBe(400);
    expect(out.data.step).toBeUndefined();
    expect(out.data.formError).toBe("This sign-in has expired. Please sign in again.");
  });
});

describe("turning TOTP off in settings", () => {
  it("needs the password", async () => {
    const { user } = await withTotp();
    const wrong = await settings(user, { intent: "totp-off", password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.fieldErrors.password).toBe("Current password is incorrect");
    const off = await settings(user, { intent: "totp-off", password: user.password });
    expect(off.data).toMatchObject({ ok: true, message: "Two-factor authentication is off." });
    const signedIn = await login({ username: user.username, password: user.password });
    expect(signedIn.status).toBe(302);
  });
});
