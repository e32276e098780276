import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe("hubs list", () => {
  it("answers an empty paged body on a fresh database", async () => {
    const res = await api.request.get("/hubs");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 });
  });

  it("lists a created hub with its creator as first member", async () => {
    const alice = await api.register("alice");
    const created = await api.request.post("/hubs").set(alice.auth).send({ name: "Manga Lovers", description: "All about manga" });
    expect(created.status).toBe(201);
    const res = await api.request.get("/hubs?page=1&per_page=10");
    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0]).toMatchObject({ name: "Manga Lovers", memberCount: 1, authorName: "alice" });
  });
});
