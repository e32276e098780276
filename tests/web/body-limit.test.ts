// Remix reads form bodies whole (request.formData()): web/body-limit.ts refuses oversized ones
// before Remix sees them, whether they declare their length or come chunked.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { imageBytes } from "../helpers/images.ts";
import { createHub } from "../helpers/web-seed.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";
import { bodyLimitFor, CHAPTER_FILES_PER_REQUEST } from "../../web/body-limit.ts";

let site: WebServer;
let user: TestUser;
let cookie: string;

beforeAll(async () => {
  site = await startWebServer();
  user = await site.api.register("body_limit_user");
  const login = await postForm(site, "/login", { username: user.username, password: user.password });
  cookie = login.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => site?.close());

interface Sent {
  status: number;
  /** Bytes written before the answer came (or the connection was cut). */
  sent: number;
  ms: number;
}

/**
 * POSTs `total` bytes of a form field in 64 KB chunks, with a Content-Length or chunked, and stops
 * writing as soon as an answer arrives. status 0: the connection was cut without an answer.
 */
function sendLarge(path: string, total: number, opts: { chunked: boolean; cookie?: string; contentType?: string }): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      "Content-Type": opts.contentType ?? "application/x-www-form-urlencoded",
      Origin: site.url,
    };
    if (opts.cookie) headers.Cookie = opts.cookie;
    if (!opts.chunked) headers["Content-Length"] = total;
    const req = http.request(site.url + path, { method: "POST", headers });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let answered = false;
    const finish = (status: number) => {
      if (answered) return;
      answered = true;
      resolve({ status, sent, ms: performance.now() - started });
      req.destroy();
    };
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on("error", () => finish(0));
    req.write("text=");
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const MB = 1024 * 1024;

describe("request body limits", () => {
  it.each([
    ["with a Content-Length", false],
    ["chunked", true],
  ])("refuses a 200 MB form post %s with 413 at once, without holding it in memory", async (_, chunked) => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const out = await sendLarge("/markdown-preview", 200 * MB, { chunked, cookie });
    const grown = process.memoryUsage().rss - before;

    expect(out.status).toBe(413);
    expect(out.sent).toBeLessThan(20 * MB);
    expect(out.ms).toBeLessThan(5_000);
    expect(grown).toBeLessThan(50 * MB);
  });

  it("refuses a guest's markdown preview without rendering it", async () => {
    const res = await postForm(site, "/markdown-preview", { text: "**bold**" });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("<strong>");
  });

  it("renders a signed-in user's preview of a 10,000-character post", async () => {
    const text = "word ".repeat(2_000);
    const res = await postForm(site, "/markdown-preview", { text }, { Cookie: cookie });
    expect(res.status).toBe(200);
  });

  it("still takes a 10,000-character post, even in four-byte characters", async () => {
    const hub = await createHub(site.api, user, { name: "Limits Hub", description: "Room for posts" });
    const res = await postForm(
      site,
      "/publish/post",
      { hubId: String(hub.id), title: "A long post", description: "", content: "🙂".repeat(9_999) + "." },
      { Cookie: cookie },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Post published successfully!");
  });

  it("still takes a chapter's pages sent in one form post without JavaScript", async () => {
    const series = (await site.api.request.post("/series").set(user.auth).send({ name: "Limits Series", description: "Pages in one go" }))
      .body as { name: string };
    const form = new FormData();
    form.append("series", series.name);
    form.append("title", "Many pages");
    for (let i = 1; i <= 3; i++)
      form.append("pageFiles", new Blob([(await imageBytes("png", 60, 80 + i)) as BlobPart], { type: "image/png" }), `0${i}.png`);
    const res = await fetch(`${site.url}/publish/chapter`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: site.url },
      body: form,
      redirect: "manual",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Chapter published successfully!");
    const chapter = await site.api.request.get(`/series/${encodeURIComponent(series.name)}/1`);
    expect(chapter.body.pages).toHaveLength(3);
  });
});

describe("limits by form", () => {
  const config = { formMaxBytes: 256 * 1024, uploadMaxBytes: 10 * MB };

  it("gives plain forms the small limit and image forms room for their files at the upload limit", () => {
    expect(bodyLimitFor("/login", config)).toBe(256 * 1024);
    expect(bodyLimitFor("/publish/post", config)).toBe(256 * 1024);
    expect(bodyLimitFor("/markdown-preview", config)).toBe(256 * 1024);
    expect(bodyLimitFor("/uploads", config)).toBe(10 * MB + 64 * 1024);
    for (const path of ["/profile", "/publish/hub", "/publish/Series/3"]) expect(bodyLimitFor(path, config)).toBe(20 * MB + 256 * 1024);
    expect(bodyLimitFor("/publish/chapter/My%20Series/2", config)).toBe(CHAPTER_FILES_PER_REQUEST * 10 * MB + 256 * 1024);
  });

  it("cuts off a chunked upload past one file's limit", async () => {
    const out = await sendLarge("/uploads", 40 * MB, { chunked: true, cookie, contentType: "multipart/form-data; boundary=never-sent" });
    expect(out.status).toBe(413);
    expect(out.sent).toBeLessThan(20 * MB);
  });
});
