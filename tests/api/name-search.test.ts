// The name search reads a page in one of several ways, picked from how many names match and which page is asked for
// (server/named-entities/name-search.ts). Whatever the way, every page must equal the plain filter and sort.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchPlan } from "../../server/named-entities/name-search.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";

const HUBS = 400;

let api: TestApi;
let alice: TestUser;
const prefix = `ns${process.pid}`;

describe("searchPlan", () => {
  it("walks the newest-first index when the matches are dense enough for the page", () => {
    expect(searchPlan("trigram", 1573, 100_000, 10)).toBe("walk");
    expect(searchPlan("trigram", 2486, 100_000, 60)).toBe("walk");
  });

  it("sorts the matches when they are few, or the page is deep", () => {
    expect(searchPlan("trigram", 13, 100_000, 10)).toBe("trigram");
    expect(searchPlan("trigram", 1573, 100_000, 1010)).toBe("trigram");
    expect(searchPlan("trigram", 0, 100_000, 10)).toBe("trigram");
  });

  it("keeps LIKE for text too short for trigrams", () => {
    expect(searchPlan("like", 50_000, 100_000, 10)).toBe("like");
  });
});

describe("every page of a search equals the plain filter and sort", () => {
  interface Hub {
    id: number;
    nameKey: string;
    createdAt: number;
  }
  let hubs: Hub[];

  beforeAll(async () => {
    api = await startTestApi({ responseCacheEntries: 0 });
    alice = await api.register();
    // A dense word ("lantern" in every other name), a sparser one ("quill" in 1 of 8: its first pages are walked, its
    // later ones sorted), and dates out of id order, with ties.
    const rows = Array.from({ length: HUBS }, (_, i) => {
      const words = [prefix, `h${i}`, i % 2 === 0 ? "Lantern" : "Candle", i % 8 === 0 ? "Quill" : "Ink", i % 7 === 0 ? "Lant" : ""];
      const name = words.filter(Boolean).join(" ");
      return {
        name,
        nameKey: name.toLowerCase(),
        description: "",
        authorId: alice.id,
        createdAt: 1_700_000_000_000 + ((i * 7919) % HUBS) * 1000 - (i % 3 === 0 ? 1000 : 0),
        memberCount: 0,
        postCount: 0,
      };
    });
    await api.db.kysely.insertInto("Hub").values(rows).execute();
    hubs = await api.db.kysely.selectFrom("Hub").select(["id", "nameKey", "createdAt"]).where("nameKey", "like", `${prefix} %`).execute();
    expect(hubs).toHaveLength(HUBS);
  });

  afterAll(() => api?.close());

  const expected = (text: string) =>
    hubs
      .filter((h) => h.nameKey.includes(text))
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
      .map((h) => h.id);

  it.each([
    ["lantern", [1, 2, 5, 21]],
    ["lant", [1, 3, 20, 22]],
    ["quill", [1, 2, 3, 5, 6]],
    ["candle ink", [1, 4]],
    [`${prefix} h1`, [1, 2, 3]],
  ])("%s", async (text, pages) => {
    const all = expected(text);
    const perPage = 10;
    for (const page of pages) {
      const res = await api.request.get(`/hubs/search?name=${encodeURIComponent(text)}&page=${page}&per_page=${perPage}`);
      expect(res.status).toBe(200);
      const mine = res.body.content.map((h: { id: number }) => h.id);
      expect(mine).toEqual(all.slice((page - 1) * perPage, page * perPage));
      expect(res.body.totalElements).toBe(all.length);
    }
  });
});
