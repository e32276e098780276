// The API limits logins per client address; the web app calls it from its own address, so it must
// forward the visitor's (X-Forwarded-For), or one visitor's failed logins lock out everybody.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";

const LIMIT = 3;
let site: WebServer;
let user: TestUser;

beforeAll(async () => {
  site = await startWebServer({ api: { authRateLimit: LIMIT } });
  user = await site.api.register("address_user");
});
afterAll(() => site?.close());

// The test reaches the web server from loopback, which WEB_TRUST_PROXY trusts by default (a proxy
// in front of it), so X-Forwarded-For names the visitor.
const loginFrom = (visitor: string, password: string) =>
  postForm(site, "/login", { username: user.username, password, redirectTo: "/" }, { "X-Forwarded-For": visitor });

describe("the visitor's address reaches the API", () => {
  it("throttles one visitor's failed logins, shows the API's reason, and still lets another visitor in", async () => {
    for (let i = 0; i < LIMIT; i++) {
      const failed = await loginFrom("203.0.113.7", "wrong-password");
      expect(failed.status).toBe(400);
      expect(await failed.text()).toContain("Invalid credentials");
    }

    const throttled = await loginFrom("203.0.113.7", user.password);
    const page = await throttled.text();
    expect(throttled.status).toBe(429);
    expect(page).toContain("Too many");
    expect(page).not.toContain("Login failed. Please try again.");

    const other = await loginFrom("198.51.100.20", user.password);
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).toBe("/");
    expect(other.headers.get("set-cookie")).toContain("inkwell_session=");
  });
});

describe("WEB_TRUST_PROXY=false", () => {
  let direct: WebServer;
  beforeAll(async () => {
    direct = await startWebServer({ api: { authRateLimit: LIMIT }, env: { WEB_TRUST_PROXY: "false" } });
  });
  afterAll(() => direct?.close());

  it("believes no X-Forwarded-For: a visitor cannot pick another's bucket by claiming an address", async () => {
    const target = await direct.api.register("direct_user");
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const res = await postForm(
        direct,
        "/login",
        { username: target.username, password: "wrong-password" },
        { "X-Forwarded-For": `192.0.2.${i + 1}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
