// Calls from the web server to the API give up after API_TIMEOUT_MS (uploads get longer), so a
// stuck API turns into an error page or form message, never a request that hangs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createApi, TIMEOUT_MESSAGE, UPLOAD_TIMEOUT_FACTOR } from "../../app/lib/api.server.ts";
import { action as loginAction } from "../../app/routes/login.tsx";
import { args, request, run, webContext } from "../helpers/web.ts";

const TIMEOUT_MS = 300;
let standIn: http.Server;
let url: string;

beforeAll(async () => {
  // Never answers, except POST /images, after twice the normal timeout (within the uploads' one).
  standIn = http.createServer((req, res) => {
    req.resume();
    if (req.method === "POST" && req.url === "/images") {
      setTimeout(() => res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ id: 7 })), TIMEOUT_MS * 2);
    }
  });
  standIn.listen(0, "127.0.0.1");
  await new Promise((resolve) => standIn.once("listening", resolve));
  url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

const context = () => webContext(url, { apiTimeoutMs: TIMEOUT_MS });

describe("API call timeouts", () => {
  it("turns a call the API never answers into an ApiError with a clear message", async () => {
    const started = performance.now();
    const err = await createApi(context())
      .hubs(1)
      .catch((e: unknown) => e);
    const ms = performance.now() - started;

    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 504, message: TIMEOUT_MESSAGE });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 2_000);
  });

  it("shows the reason on the login form", async () => {
    const out = await run(() => loginAction(args(request("/login", { form: { username: "someone", password: "secret123" } }), context())));
    expect(out.data.formError).toBe(TIMEOUT_MESSAGE);
  });

  it("gives uploads longer", async () => {
    expect(UPLOAD_TIMEOUT_FACTOR).toBeGreaterThan(2);
    const image = await createApi(context(), { token: "t" }).uploadImage(new Blob([new Uint8Array(10)]), "a.png");
    expect(image).toEqual({ id: 7 });
  });

  it("still ends at once when the browser goes away (the request's own signal)", async () => {
    const browser = new AbortController();
    const call = createApi(context(), { signal: browser.signal })
      .hubs(1)
      .catch((e: unknown) => e);
    browser.abort();
    const err = await call;
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).name).toBe("AbortError");
  });
});
