// /verify-email and the settings page's email card (docs/web.md "Verified email addresses") against the real API: the
// link from the register mail shows a button and uses nothing until it is pressed; pressing it verifies once; the
// settings page shows the unverified address and the change that waits, and "Send the link again" sends one.
import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/settings.tsx";
import { action, loader } from "../../app/routes/verify-email.tsx";
import { RESEND_VERIFICATION_INTENT } from "../../app/components/email-settings.tsx";
import { INVALID_VERIFICATION_LINK } from "../../server/rules/email-verification.ts";
import type { TestUser } from "../helpers/api.ts";
import { waitForOutboxMail } from "../helpers/mail.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
setUpSharedWebTestApi([], (started) => {
  web = started;
});

let seq = 0;
const newUser = () => web.api.register(`verify_web_${process.pid}_${++seq}`);
const me = async (user: TestUser) => (await web.api.request.get(`/user/${user.username}`).set(user.auth)).body as Record<string, unknown>;

/** The path and query of the verification link in a message (the web app's own page). */
function linkIn(mail: ParsedMail): string {
  const match = /http:\/\/localhost:3000(\/verify-email\?token=[A-Za-z0-9_-]+)\n/.exec(mail.text ?? "");
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return match[1]!;
}
const tokenOf = (link: string) => new URL(link, "http://web.test").searchParams.get("token")!;

const open = (path: string) => run(() => loader(args(request(path), web.context)));
const press = (token: string) => run(() => action(args(request("/verify-email", { form: { token } }), web.context)));
const settings = async (user: TestUser, form?: Record<string, string>) => {
  const cookie = await web.cookieFor(user);
  return form
    ? run(() => settingsAction(args(request("/settings", { cookie, form }), web.context)))
    : run(() => settingsLoader(args(request("/settings", { cookie }), web.context)));
};

describe("/verify-email", () => {
  it("opening the link shows the button and verifies nothing; pressing it verifies once", async () => {
    const user = await newUser();
    const link = linkIn((await waitForOutboxMail(web.api.dataDir, user.email))[0]!);

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.data).toEqual({ token: tokenOf(link), signedIn: false });
    expect(await me(user)).toMatchObject({ emailVerified: false });

    const pressed = await press(tokenOf(link));
    expect(pressed.status).toBe(200);
    expect(pressed.data).toEqual({ ok: true, email: user.email, changed: false });
    expect(await me(user)).toMatchObject({ emailVerified: true });

    const again = await press(tokenOf(link));
    expect(again.status).toBe(400);
    expect(again.data).toEqual({ ok: false, message: INVALID_VERIFICATION_LINK });
  });

  it("says a link without its token is incomplete, and refuses a made-up one", async () => {
    expect((await open("/verify-email")).data).toEqual({ token: null, signedIn: false });
    expect((await press("")).data).toMatchObject({ ok: false, message: expect.stringContaining("This link is incomplete") });
    expect((await press("made-up-token")).data).toEqual({ ok: false, message: INVALID_VERIFICATION_LINK });
  });
});

describe("the settings page's email card", () => {
  it("shows an unverified address; 'Send the link again' sends a new link that verifies", async () => {
    const user = await newUser();
    await waitForOutboxMail(web.api.dataDir, user.email);
    expect((await settings(user)).data).toMatchObject({ email: user.email, emailVerified: false, pendingEmail: null });

    const sent = await settings(user, { intent: RESEND_VERIFICATION_INTENT });

    expect(sent.status).toBe(202);
    expect(sent.data).toMatchObject({ form: "email", ok: true, message: `We sent a new link to ${user.email}.` });
    const mails = await waitForOutboxMail(web.api.dataDir, user.email, 2);
    expect((await press(tokenOf(linkIn(mails[1]!)))).data).toMatchObject({ ok: true });
    expect((await settings(user)).data).toMatchObject({ emailVerified: true });
    const nothing = await settings(user, { intent: RESEND_VERIFICATION_INTENT });
    expect(nothing.status).toBe(400);
    expect(nothing.data).toMatchObject({ ok: false, message: "Your email address is already verified" });
  });

  it("shows the change that waits until its link is pressed", async () => {
    const user = await newUser();
    const newEmail = `moved.${user.username}@example.com`;
    await settings(user, { intent: "email", email: newEmail, currentPassword: user.password });
    expect((await settings(user)).data).toMatchObject({ email: user.email, pendingEmail: newEmail });

    const pressed = await press(tokenOf(linkIn((await waitForOutboxMail(web.api.dataDir, newEmail))[0]!)));

    expect(pressed.data).toEqual({ ok: true, email: newEmail, changed: true });
    expect((await settings(user)).data).toMatchObject({ email: newEmail, emailVerified: true, pendingEmail: null });
  });
});
