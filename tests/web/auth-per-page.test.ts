// One check of the bearer token per page when the web app calls the API in process (server/http/auth-per-page.ts,
// web/api-in-process.ts; docs/web.md "What a page costs"): the reads of one page share it, the next page checks again,
// a write in the page makes its later reads check again, and a failed check is never shared.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createApi } from "../../app/lib/api.server.ts";
import type { WebContext } from "../../app/lib/context.ts";
import type { User } from "../../server/rules/api-responses.ts";
import { inProcessApi, inProcessPages } from "../../web/api-in-process.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { webContext } from "../helpers/web.ts";

let api: TestApi;
/** A new page: the calls made through one context are one page's. */
let page: () => WebContext;
/** Calls with a check each, as over HTTP (the transport given a plain app). */
let eachCall: WebContext;

beforeAll(async () => {
  api = await startTestApi();
  const base = webContext("http://127.0.0.1:1");
  const pages = inProcessPages(api.app);
  page = () => ({ ...base, apiTransport: pages() });
  eachCall = { ...base, apiTransport: inProcessApi(api.app) };
});
afterAll(() => api?.close());

const me = (context: WebContext, user: TestUser) => createApi(context, { token: user.token }).user(user.username);
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (err: unknown) => {
      if (err instanceof ApiError) return err.status;
      throw err;
    },
  );
const logout = (context: WebContext, user: TestUser) => createApi(context, { token: user.token }).logout();

describe("a page's reads in process", () => {
  it("share one check: reads made at once all answer the viewer", async () => {
    const user = await api.register("per_page_many");
    const one = page();
    const answers: User[] = await Promise.all(Array.from({ length: 5 }, () => me(one, user)));
    for (const answer of answers) expect(answer).toMatchObject({ id: user.id, username: user.username });
  });

  it("keep the page's check for its later reads, and the next page checks the token again", async () => {
    const user = await api.register("per_page_revoked");
    const one = page();
    expect(await statusOf(me(one, user))).toBe(200);
    // The session ends elsewhere (another tab's logout) while this page is being made.
    await logout(eachCall, user);
    expect(await statusOf(me(one, user))).toBe(200);
    expect(await statusOf(me(page(), user))).toBe(401);
    expect(await statusOf(me(eachCall, user))).toBe(401);
  });

  it("stop at the next page for a user suspended meanwhile", async () => {
    const user = await api.register("per_page_suspended");
    const one = page();
    expect(await statusOf(me(one, user))).toBe(200);
    await sql`UPDATE "User" SET "suspendedUntil" = ${Date.now() + 3_600_000} WHERE "id" = ${user.id}`.execute(api.db.kysely);
    const next = createApi(page(), { token: user.token });
    await expect(next.user(user.username)).rejects.toMatchObject({ status: 401, message: expect.stringContaining("suspended") });
  });

  it("check again after a write of the same page (its own logout)", async () => {
    const user = await api.register("per_page_logout");
    const one = page();
    expect(await statusOf(me(one, user))).toBe(200);
    await logout(one, user);
    expect(await statusOf(me(one, user))).toBe(401);
  });

  it("never share a failed check: each read answers its own 401, and another token's check is its own", async () => {
    const [user, other] = [await api.register("per_page_good"), await api.register("per_page_other")];
    const one = page();
    const forged = { ...user, token: `${user.token.slice(0, -4)}AAAA` };
    expect(await Promise.all([statusOf(me(one, forged)), statusOf(me(one, forged)), statusOf(me(one, user))])).toEqual([401, 401, 200]);
    // Two viewers' tokens through one transport (never the case for a page, but the checks are kept by token).
    expect(await createApi(one, { token: other.token }).user(other.username)).toMatchObject({ id: other.id });
    await logout(eachCall, other);
    expect(await statusOf(me(one, user))).toBe(200);
    expect(await statusOf(createApi(one, { token: other.token }).user(other.username))).toBe(200);
    expect(await statusOf(createApi(page(), { token: other.token }).user(other.username))).toBe(401);
  });
});
