// The first product's addresses (docs/web.md §7) and /home (§2) through the BUILT app: they are not screens in
// app/routes but routes vite.config.ts registers, so this checks that they answer at their addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHub, createPost } from "../helpers/web-seed.ts";
import { startWebServer, type WebServer } from "../helpers/web-server.ts";

let site: WebServer;
let hub: { id: number; name: string };
let post: { id: number };

beforeAll(async () => {
  site = await startWebServer();
  const user = await site.api.register("old_links_user");
  hub = await createHub(site.api, user, { name: "Old Links Hub" });
  post = await createPost(site.api, user, hub.id, { title: "An old link", content: "Hello from the first product" });
});
afterAll(() => site?.close());

const get = (path: string) => fetch(site.url + path, { redirect: "manual" });

async function redirectOf(path: string) {
  const res = await get(path);
  await res.body?.cancel();
  return { status: res.status, location: res.headers.get("location") };
}

describe("the first product's links", () => {
  it("sends /create to the publish menu and /create/{kind} to its form, keeping the query (301)", async () => {
    expect(await redirectOf("/create")).toEqual({ status: 301, location: "/publish" });
    expect(await redirectOf("/create/Series?x=1")).toEqual({ status: 301, location: "/publish/series?x=1" });
    expect((await redirectOf("/create/nothing")).status).toBe(404);
  });

  it("sends /hub/{id} and /hub-posts/{id} to the pages by name (302)", async () => {
    expect(await redirectOf(`/hub/${hub.id}`)).toEqual({ status: 302, location: "/hubs/Old%20Links%20Hub" });
    expect(await redirectOf(`/hub-posts/${post.id}`)).toEqual({ status: 302, location: `/hubs/Old%20Links%20Hub/${post.id}` });
    expect((await redirectOf("/hub/999999")).status).toBe(404);
    expect((await redirectOf("/hub-posts/x")).status).toBe(404);
  });

  it("shows the home screen at /home", async () => {
    const res = await get("/home");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Latest Chapters");
  });
});
