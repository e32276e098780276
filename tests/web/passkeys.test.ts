// The web app's passkey routes (docs/web.md "Passkeys") against the real API, with a software authenticator in the
// browser's place: adding one through /settings/passkeys (the name checked before the ceremony), deleting with the
// plain form (only one's own), and signing in through /login/passkey, whose answer sets the session cookie as the
// password login does and names only a path on this site to go to.
import { describe, expect, it } from "vitest";
import { action as signInAction, loader as signInLoader } from "../../app/routes/login_.passkey.tsx";
import { loader as settingsLoader } from "../../app/routes/settings.tsx";
import { action as passkeysAction, loader as passkeysLoader } from "../../app/routes/settings_.passkeys.tsx";
import { SESSION_COOKIE_NAME } from "../../app/lib/session.server.ts";
import type { TestUser } from "../helpers/api.ts";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.ts";
import { args, cookieHeader, request, run, setUpSharedWebTestApi, WEB_ORIGIN, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
setUpSharedWebTestApi([], (started) => {
  web = started;
});

// The API's PUBLIC_URL in the tests is its default, http://localhost:3000: the origin a browser there reports.
const ORIGIN = "http://localhost:3000";

let seq = 0;
const newUser = () => web.api.register(`webpasskey_${process.pid}_${++seq}`);

function jsonRequest(path: string, body: unknown, cookie?: string): Request {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(WEB_ORIGIN + path, { method: "POST", headers, body: JSON.stringify(body) });
}

async function settingsCall(user: TestUser, body: unknown) {
  const res = await passkeysAction(args(jsonRequest("/settings/passkeys", body, await web.cookieFor(user)), web.context));
  return { status: res.status, body: (await res.json()) as { message?: string; fieldErrors?: Record<string, string>; options?: never } };
}

async function signInCall(body: unknown) {
  const res = await signInAction(args(jsonRequest("/login/passkey", body), web.context));
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { message?: string; redirectTo?: string; options?: never },
  };
}

/** Adds a passkey through the settings route, as the page's script does. */
async function addThroughSettings(user: TestUser, authenticator: SoftwareAuthenticator, name = "Laptop") {
  const options = await settingsCall(user, { intent: "options", name });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return settingsCall(user, { intent: "add", name, response: authenticator.create(options.body.options!) });
}

const passkeysOf = async (user: TestUser) =>
  (await web.api.request.get("/me/passkeys").set(user.auth)).body as { id: number; name: string; lastUsedAt: string | null }[];

describe("adding a passkey through the settings page", () => {
  it("checks the name first, then keeps the authenticator's answer", async () => {
    const user = await newUser();
    const badName = await settingsCall(user, { intent: "options", name: "   " });
    expect(badName.status).toBe(400);
    expect(badName.body.fieldErrors).toEqual({ name: "Name is required" });

    const added = await addThroughSettings(user, new SoftwareAuthenticator(ORIGIN), "Work laptop");
    expect(added).toEqual({ status: 200, body: { message: 'Passkey "Work laptop" added. You can sign in with it from now on.' } });
    expect((await passkeysOf(user)).map((p) => p.name)).toEqual(["Work laptop"]);
    const cookie = await web.cookieFor(user);
    const page = await run(() => settingsLoader(args(request("/settings", { cookie }), web.context)));
    expect(page.data.passkeys).toEqual([expect.objectContaining({ name: "Work laptop", lastUsedAt: null })]);
  });

  it("passes on the API's refusal with its status and words", async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const options = await settingsCall(user, { intent: "options", name: "Key" });
    const response = authenticator.create(options.body.options!, { origin: "https://evil.example.net" });
    const refused = await settingsCall(user, { intent: "add", name: "Key", response });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("The passkey could not be verified. Please try again.");
    expect(await passkeysOf(user)).toEqual([]);
  });

  it("sends a guest to the login page, and a GET back to the settings", async () => {
    const out = await run(() => passkeysAction(args(jsonRequest("/settings/passkeys", { intent: "options", name: "x" }), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toMatch(/^\/login\?redirectTo=/);
    expect((await run(() => passkeysLoader())).location).toBe("/settings#passkeys");
    expect((await run(() => signInLoader())).location).toBe("/login");
  });
});

describe("deleting a passkey with the plain form", () => {
  it("deletes only one's own and lands back on the list either way", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    await addThroughSettings(owner, new SoftwareAuthenticator(ORIGIN));
    const [passkey] = await passkeysOf(owner);
    const remove = async (user: TestUser) =>
      run(async () =>
        passkeysAction(
          args(
            request("/settings/passkeys", { cookie: await web.cookieFor(user), form: { intent: "delete", id: passkey!.id } }),
            web.context,
          ),
        ),
      );
    const foreign = await remove(other);
    expect([foreign.status, foreign.location]).toEqual([302, "/settings#passkeys"]);
    expect(await passkeysOf(owner)).toHaveLength(1);
    const own = await remove(owner);
    expect([own.status, own.location]).toEqual([302, "/settings#passkeys"]);
    expect(await passkeysOf(owner)).toEqual([]);
  });
});

describe("signing in with a passkey through the sign-in page", () => {
  it("sets the session cookie and answers where to go: only a path on this site", async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await addThroughSettings(user, authenticator);

    const options = await signInCall({ intent: "options" });
    expect(options.status).toBe(200);
    const signedIn = await signInCall({
      intent: "sign-in",
      challengeId: (options.body.options as unknown as { challengeId: string }).challengeId,
      response: authenticator.get(options.body.options!),
      redirectTo: "/settings",
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toEqual({ redirectTo: "/settings" });
    const setCookie = signedIn.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toContain(`${SESSION_COOKIE_NAME}=`);
    // The cookie is a session of the user's: the settings page opens with it and shows the passkey used.
    const page = await run(() => settingsLoader(args(request("/settings", { cookie: cookieHeader(setCookie) }), web.context)));
    expect(page.data.userId).toBe(user.id);
    expect(page.data.passkeys?.[0]?.lastUsedAt).not.toBeNull();

    const again = await signInCall({ intent: "options" });
    const elsewhere = await signInCall({
      intent: "sign-in",
      challengeId: (again.body.options as unknown as { challengeId: string }).challengeId,
      response: authenticator.get(again.body.options!),
      redirectTo: "https://evil.example.net/",
    });
    expect(elsewhere.body).toEqual({ redirectTo: "/" });
  });

  it("answers a refusal in the API's words and status, without a cookie", async () => {
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: "AAAA", rp: { id: "localhost" }, user: { id: "MQ" } });
    const options = await signInCall({ intent: "options" });
    const challengeId = (options.body.options as unknown as { challengeId: string }).challengeId;
    const body = { intent: "sign-in", challengeId, response: stranger.get(options.body.options!) };
    const unknown = await signInCall(body);
    expect([unknown.status, unknown.body.message]).toEqual([401, "This passkey could not sign you in"]);
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
    // The challenge went with that try.
    const replayed = await signInCall(body);
    expect([replayed.status, replayed.body.message]).toEqual([
      400,
      "The sign-in request has expired or was already used. Please try again.",
    ]);
    expect((await signInCall({ intent: "nonsense" })).status).toBe(400);
  });
});
