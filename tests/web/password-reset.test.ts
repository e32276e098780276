// /forgot-password and /reset-password (docs/web.md "Password reset") against the real API: the same confirmation for
// every input, the mailed link's page, the new password twice, a sign-in like login's, and a used link's way out.
import { describe, expect, it } from "vitest";
import { action as forgotAction } from "../../app/routes/forgot-password.tsx";
import { action as resetAction, loader as resetLoader } from "../../app/routes/reset-password.tsx";
import { INVALID_RESET_LINK } from "../../server/rules/password-reset.ts";
import { resetTokenIn, waitForOutboxMail } from "../helpers/mail.ts";
import { totpCode } from "../helpers/totp-codes.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
setUpSharedWebTestApi([], (started) => {
  web = started;
});

let seq = 0;
const newUser = () => web.api.register(`reset_web_${process.pid}_${++seq}`);
const forgot = (login: string) => run(() => forgotAction(args(request("/forgot-password", { form: { login } }), web.context)));
const open = (path: string) => run(() => resetLoader(args(request(path), web.context)));
const reset = (form: Record<string, string>) => run(() => resetAction(args(request("/reset-password", { form }), web.context)));
const loginStatus = async (username: string, password: string) =>
  (await web.api.request.post("/auth/login").send({ username, password })).status;

async function mailedLink(email: string): Promise<{ path: string; token: string }> {
  const [mail] = await waitForOutboxMail(web.api.dataDir, email, 1, "Reset your Inkwell password");
  const token = resetTokenIn(mail!);
  expect(mail!.text).toContain(`http://localhost:3000/reset-password?token=${token}`);
  return { path: `/reset-password?token=${token}`, token };
}

describe("/forgot-password", () => {
  it("gives the same confirmation for an account and for a name nobody has", async () => {
    const user = await newUser();
    const known = await forgot(user.username);
    const unknown = await forgot("nobody_by_that_name");
    expect(known.status).toBe(200);
    expect(known.data).toEqual({ sent: true });
    expect(unknown).toEqual(known);
    await mailedLink(user.email);
  });

  it("names the empty field", async () => {
    const res = await forgot("  ");
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ sent: false, fieldErrors: { login: "Username or email is required" } });
  });
});

describe("/reset-password", () => {
  it("opens the link without using it, sets the password typed twice, signs in and goes home", async () => {
    const user = await newUser();
    await forgot(user.email);
    const { path, token } = await mailedLink(user.email);

    expect((await open(path)).data).toEqual({ token });
    expect((await open(path)).data).toEqual({ token });

    const differ = await reset({ token, newPassword: "new-password-1", newPasswordAgain: "new-password-2" });
    expect(differ.status).toBe(400);
    expect(differ.data).toMatchObject({ fieldErrors: { newPasswordAgain: "The two passwords are not the same" }, deadLink: false });
    const short = await reset({ token, newPassword: "abc", newPasswordAgain: "abc" });
    expect(short.data).toMatchObject({ fieldErrors: { newPassword: "Password must be at least 6 characters" } });

    const done = await reset({ token, newPassword: "new-password-1", newPasswordAgain: "new-password-1" });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/");
    expect(done.headers.get("Set-Cookie")).toMatch(/^inkwell_session=/);
    expect(await loginStatus(user.username, "new-password-1")).toBe(200);
    expect(await loginStatus(user.username, user.password)).toBe(401);

    // Used: no form, the API's words and a way to a new link.
    const again = await reset({ token, newPassword: "new-password-3", newPasswordAgain: "new-password-3" });
    expect(again.status).toBe(400);
    expect(again.data).toEqual({ fieldErrors: {}, formError: INVALID_RESET_LINK, deadLink: true });
  });

  it("says a link without its token is incomplete", async () => {
    expect((await open("/reset-password")).data).toEqual({ token: null });
    const res = await reset({ token: "", newPassword: "new-password-1", newPasswordAgain: "new-password-1" });
    expect(res.data).toMatchObject({ deadLink: true, formError: expect.stringContaining("This reset link is incomplete") });
  });
});

describe("/reset-password with two-factor authentication on", () => {
  it("sets the password but does not sign in: it sends the user to sign in with a code", async () => {
    const user = await newUser();
    const setUp = await web.api.request.post("/me/2fa/totp").set(user.auth);
    const code = totpCode(setUp.body.secret as string, Date.now());
    expect((await web.api.request.post("/me/2fa/totp/confirm").set(user.auth).send({ code })).status).toBe(200);
    await forgot(user.username);
    const { token } = await mailedLink(user.email);

    const res = await reset({ token, newPassword: "after-reset-1", newPasswordAgain: "after-reset-1" });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ changedNeedsCode: true, deadLink: false });
    expect(res.headers.get("set-cookie")).toBeNull();
    // The new password is the account's: the login asks for the code.
    const login = await web.api.request.post("/auth/login").send({ username: user.username, password: "after-reset-1" });
    expect(login.body.secondFactorRequired).toBe(true);
  });
});
