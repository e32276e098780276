import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as loginAction, loader as loginLoader } from "../../app/routes/login.tsx";
import { action as logoutAction } from "../../app/routes/logout.tsx";
import { action as registerAction, loader as registerLoader } from "../../app/routes/register.tsx";
import { args, cookieHeader, request, run, startWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
beforeAll(async () => {
  web = await startWebTestApi();
});
afterAll(() => web.close());

const login = (form: Record<string, string>) => run(() => loginAction(args(request("/login", { form }), web.context)));
const register = (form: Record<string, string>) => run(() => registerAction(args(request("/register", { form }), web.context)));

describe("login", () => {
  it("signs in, stores the session and goes back where the user came from", async () => {
    const user = await web.api.register();
    const out = await login({ username: user.username, password: user.password, redirectTo: "/hubs?page=2" });
    expect(out.status).toBe(302);
    expect(out.location).toBe("/hubs?page=2");
    const cookie = cookieHeader(out.headers.get("Set-Cookie")!);
    // Signed in now: the login page sends the user on.
    const again = await run(() => loginLoader(args(request("/login?redirectTo=%2Fprofile", { cookie }), web.context)));
    expect(again.location).toBe("/profile");
  });

  it("never redirects to another site", async () => {
    const user = await web.api.register();
    const out = await login({ username: user.username, password: user.password, redirectTo: "https://evil.example/" });
    expect(out.location).toBe("/");
  });

  it("says 'Invalid credentials' for a wrong password", async () => {
    const user = await web.api.register();
    const out = await login({ username: user.username, password: "wrong-password", redirectTo: "" });
    expect(out.status).toBe(400);
    expect(out.data).toMatchObject({ formError: "Invalid credentials", username: user.username });
  });

  it("requires username and password", async () => {
    const out = await login({ username: "", password: "" });
    expect(out.data.fieldErrors).toEqual({ username: "Username is required", password: "Password is required" });
  });

  it("says 'Network error. Please check your connection.' when the API cannot be reached", async () => {
    const down = webContext("http://127.0.0.1:9");
    const out = await run(() => loginAction(args(request("/login", { form: { username: "someone", password: "secret123" } }), down)));
    expect(out.data.formError).toBe("Network error. Please check your connection.");
  });

  it("explains why the user was sent to the login page", async () => {
    const out = await run(() => loginLoader(args(request("/login?redirectTo=%2Fprofile"), web.context)));
    expect(out.data).toMatchObject({ redirectTo: "/profile", reason: "Please log in to view profile" });
  });

  it("logs out at the API too: the session's token stops working at once", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    expect((await web.api.request.get(`/user/id/${user.id}`).set(user.auth)).status).toBe(200);

    const out = await run(() => logoutAction(args(request("/logout", { cookie, form: {} }), web.context)));

    expect(out.headers.get("Set-Cookie")).toMatch(/inkwell_session=;.*Max-Age=0/);
    expect((await web.api.request.get(`/user/id/${user.id}`).set(user.auth)).status).toBe(401);
  });

  it("keeps the API's device token in a cookie and signs in with it next time", async () => {
    const user = await web.api.register();
    const first = await login({ username: user.username, password: user.password, redirectTo: "" });
    const device = first.headers.getSetCookie().find((c) => c.startsWith("inkwell_device="));
    expect(device).toMatch(/HttpOnly; SameSite=Lax/);

    const again = await run(() =>
      loginAction(
        args(request("/login", { cookie: cookieHeader(device!), form: { username: user.username, password: user.password } }), web.context),
      ),
    );
    expect(again.status).toBe(302);
  });

  it("logs out by clearing the cookie", async () => {
    const out = await run(() => logoutAction(args(request("/logout", { form: {} }), web.context)));
    expect(out.location).toBe("/");
    expect(out.headers.get("Set-Cookie")).toMatch(/inkwell_session=;.*Max-Age=0/);
  });
});

describe("register", () => {
  it.each([
    [{ username: "ab" }, "username", "Username must be at least 3 characters"],
    [{ username: "has space" }, "username", "Username cannot contain spaces"],
    [{ username: "bad-name!" }, "username", "Username can only contain letters, numbers and underscores"],
    [{ email: "not-an-email" }, "email", "Please enter a valid email address"],
    [{ password: "12345" }, "password", "Password must be at least 6 characters"],
  ])("%o: %s says '%s'", async (change, field, message) => {
    const out = await register({ username: "valid_name", email: "valid@example.com", password: "secret123", ...change });
    expect(out.status).toBe(400);
    expect(out.data.fieldErrors[field]).toBe(message);
  });

  it("creates the account, signs in and goes home", async () => {
    const out = await register({ username: "new_artist", email: "new_artist@example.com", password: "secret123" });
    expect(out.status).toBe(302);
    expect(out.location).toBe("/");
    const cookie = cookieHeader(out.headers.get("Set-Cookie")!);
    const again = await run(() => registerLoader(args(request("/register", { cookie }), web.context)));
    expect(again.location).toBe("/");
  });

  it("says 'Username or email already exists' when taken", async () => {
    const user = await web.api.register();
    const out = await register({ username: user.username, email: "other@example.com", password: "secret123" });
    expect(out.status).toBe(409);
    expect(out.data.formError).toBe("Username or email already exists");
    expect(out.data.values).toEqual({ username: user.username, email: "other@example.com" });
  });

  it("says 'Network error' when the API cannot be reached", async () => {
    const down = webContext("http://127.0.0.1:9");
    const out = await run(() =>
      registerAction(args(request("/register", { form: { username: "valid_name", email: "v@example.com", password: "secret123" } }), down)),
    );
    expect(out.data.formError).toBe("Network error");
  });
});
