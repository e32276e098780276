import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { ids, insertHub, insertPost, insertUsers } from "../helpers/fixtures.ts";

// A database of its own: exactly 25 hubs, and 25 posts in the first of them.
let api: TestApi;
let postsHubName: string;
beforeAll(async () => {
  api = await startTestApi();
  const [authorId] = (await insertUsers(api, 1)) as [number];
  const T = Date.UTC(2025, 2, 1);
  for (let i = 1; i <= 25; i++) await insertHub(api, { name: `Paged hub ${i}`, authorId, createdAt: T + i, extraMembers: i % 3 });
  postsHubName = "Paged hub 1";
  const hubId = (await api.request.get(`/hubs/${encodeURIComponent(postsHubName)}`)).body.id as number;
  for (let i = 1; i <= 25; i++) await insertPost(api, { hubId, authorId, title: `Post number ${i}`, date: T + (i % 7), likes: i % 4 });
});
afterAll(() => api.close());

const lists = () => [
  "/hubs",
  "/hubs/top",
  "/hubs/search?name=paged",
  `/hubs/${encodeURIComponent(postsHubName)}/posts/latest`,
  `/hubs/${encodeURIComponent(postsHubName)}/posts/by-likes`,
];
const LIST_NAMES = ["hubs", "top hubs", "hub search", "latest posts", "most liked posts"];
const withQuery = (url: string, query: string) => `${url}${url.includes("?") ? "&" : "?"}${query}`;

describe.each(LIST_NAMES.map((name, i) => [name, i] as const))("paging of %s", (_name, index) => {
  const url = () => lists()[index]!;

  it.each([
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["page=", "page"],
    ["page=100000001", "page"],
    ["per_page=0", "per_page"],
    ["per_page=1001", "per_page"],
    ["per_page=ten", "per_page"],
    ["size=0", "size"],
    ["size=1001", "size"],
  ])("answers 400 with a field error for %s", async (query, field) => {
    const res = await api.request.get(withQuery(url(), query));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: "Bad Request" });
    expect(res.body.errors).toEqual([{ field, message: expect.any(String) }]);
  });

  it("answers 400 for a page given twice", async () => {
    const res = await api.request.get(withQuery(url(), "page=1&page=2"));

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("page");
  });

  it("defaults to page 1 of 10 items", async () => {
    const res = await api.request.get(url());

    expect(res.body.content).toHaveLength(10);
    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalPages: 3, totalElements: 25 });
  });

  it("splits 25 items into pages of 10, 10 and 5 with no item twice", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => api.request.get(withQuery(url(), `page=${page}&per_page=10`))));
    const all = await api.request.get(withQuery(url(), "per_page=25"));

    expect(pages.map((p) => p.body.content.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((p) => ids(p.body))).toEqual(ids(all.body));
    expect(new Set(ids(all.body)).size).toBe(25);
  });

  it("reports the same totals on every page", async () => {
    const res = await api.request.get(withQuery(url(), "page=3&per_page=10"));

    expect(res.body).toMatchObject({ page: 3, perPage: 10, totalPages: 3, totalElements: 25 });
  });

  it("answers an empty page with the true totals past the end", async () => {
    const res = await api.request.get(withQuery(url(), "page=4&per_page=10"));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: [], page: 4, perPage: 10, totalPages: 3, totalElements: 25 });
  });

  it("answers an empty page for the largest page number", async () => {
    const res = await api.request.get(withQuery(url(), "page=100000000"));

    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([]);
  });

  it("accepts per_page=1000", async () => {
    const res = await api.request.get(withQuery(url(), "per_page=1000"));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ perPage: 1000, totalPages: 1, totalElements: 25 });
    expect(res.body.content).toHaveLength(25);
  });

  it("takes the page size from the size alias", async () => {
    const res = await api.request.get(withQuery(url(), "page=2&size=7"));

    expect(res.body.content).toHaveLength(7);
    expect(res.body).toMatchObject({ page: 2, perPage: 7, totalPages: 4 });
  });

  it("prefers per_page over size when both are given", async () => {
    const res = await api.request.get(withQuery(url(), "per_page=5&size=7"));

    expect(res.body.perPage).toBe(5);
  });
});

describe("empty lists", () => {
  // A database of its own, with one hub and no posts.
  let empty: TestApi;
  let hubId: number;
  beforeAll(async () => {
    empty = await startTestApi();
    hubId = await insertHub(empty, { name: "Lonely hub", authorId: (await insertUsers(empty, 1))[0]! });
  });
  afterAll(() => empty.close());

  it.each(["/hubs/search?name=nothing-like-this", "/hubs/{id}/posts/latest", "/hubs/{id}/posts/by-likes?page=3"])(
    "have totalPages 1 at %s",
    async (url) => {
      const res = await empty.request.get(url.replace("{id}", String(hubId)));

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ content: [], totalPages: 1, totalElements: 0 });
    },
  );
});
