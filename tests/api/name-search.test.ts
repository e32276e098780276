// The name search reads a page in one of several ways, picked from how many names match and which page is asked for,
// and on PostgreSQL from a table of the names' suffixes kept by triggers (server/named-entities/name-search.ts). Whatever
// the way, every page must equal the plain filter and sort.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameSearch, prefixEnd, searchPlan } from "../../server/named-entities/name-search.ts";
import { nameKey } from "../../server/rules/text.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";

const HUBS = 400;

let api: TestApi;
let alice: TestUser;
const prefix = `ns${process.pid}`;

beforeAll(async () => {
  api = await startTestApi({ responseCacheEntries: 0 });
  alice = await api.register();
});

afterAll(() => api?.close());

/** Hubs written straight into the table (the search's triggers and indexes see them as they see the API's). */
async function insertHubs(names: string[], createdAt: (i: number) => number) {
  const rows = names.map((name, i) => ({
    name,
    nameKey: nameKey(name),
    description: "",
    authorId: alice.id,
    createdAt: createdAt(i),
    memberCount: 0,
    postCount: 0,
  }));
  await api.db.kysely.insertInto("Hub").values(rows).execute();
}

/** The search's whole answer, page by page: ids in order and the total. */
async function searchAll(text: string, perPage = 10): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await api.request.get(`/hubs/search?name=${encodeURIComponent(text)}&page=${page}&per_page=${perPage}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.content.map((h: { id: number }) => h.id));
    if (res.body.content.length < perPage) return { ids, total: res.body.totalElements };
  }
}

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
    // A dense word ("lantern" in every other name), a sparser one ("quill" in 1 of 8: its first pages are walked, its
    // later ones sorted), and dates out of id order, with ties.
    const names = Array.from({ length: HUBS }, (_, i) =>
      [prefix, `h${i}`, i % 2 === 0 ? "Lantern" : "Candle", i % 8 === 0 ? "Quill" : "Ink", i % 7 === 0 ? "Lant" : ""]
        .filter(Boolean)
        .join(" "),
    );
    await insertHubs(names, (i) => 1_700_000_000_000 + ((i * 7919) % HUBS) * 1000 - (i % 3 === 0 ? 1000 : 0));
    hubs = await api.db.kysely.selectFrom("Hub").select(["id", "nameKey", "createdAt"]).where("nameKey", "like", `${prefix} %`).execute();
    expect(hubs).toHaveLength(HUBS);
  });

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

describe("what a name contains", () => {
  // Names where a text occurs twice or overlaps itself (one hub each, counted once), other scripts, LIKE's wildcards.
  const tag = `nc${process.pid}`;
  const names = [
    `${tag} Lumen and Lumen`,
    `${tag} aaaa`,
    `${tag} abcabcab`,
    `${tag} Ünïcödé Drache 🐉 Flamme`,
    `${tag} 50%_off`,
    `${tag} 50x off`,
    `${tag} ｆｕｌｌｗｉｄｔｈ ＳＴＲＡＳＳＥ Straße`,
  ];

  beforeAll(() => insertHubs(names, (i) => 1_700_100_000_000 + (i % 3) * 1000));

  /** Every hub whose name key contains the text's key, newest first: the plain filter and sort over the whole table. */
  async function expected(text: string): Promise<number[]> {
    const key = nameKey(text);
    const all = await api.db.kysely.selectFrom("Hub").select(["id", "nameKey", "createdAt"]).execute();
    return all
      .filter((h) => h.nameKey.includes(key))
      .sort((a, b) => Number(b.createdAt) - Number(a.createdAt) || b.id - a.id)
      .map((h) => h.id);
  }

  it.each([
    ["lumen", 1],
    ["LUMEN AND", 1],
    ["aaa", 1],
    ["aaaa", 1],
    ["aaaaa", 0],
    ["abcab", 1],
    ["cab", 1],
    ["bcabcab", 1],
    ["dé drache 🐉", 1],
    ["🐉 f", 1],
    ["ünï", 1],
    ["50%", 1],
    ["%_o", 1],
    ["50_", 0],
    ["x o", 1],
    ["strasse", 1],
    ["fullwidth", 1],
    [tag, 7],
    [`${tag} a`, 2],
    ["ab", 1],
    ["zzzz-nowhere", 0],
  ])("%s", async (text, mine) => {
    const want = await expected(text);
    const got = await searchAll(text, 2);
    expect(got.ids).toEqual(want);
    expect(got.total).toBe(want.length);
    const ours = (await api.db.kysely.selectFrom("Hub").select("id").where("nameKey", "like", `${tag} %`).execute()).map((h) => h.id);
    expect(want.filter((id) => ours.includes(id))).toHaveLength(mine);
  });

  it("follows a rename and a deletion", async () => {
    const [hub] = await api.db.kysely
      .selectFrom("Hub")
      .select("id")
      .where("nameKey", "=", nameKey(`${tag} 50x off`))
      .execute();
    await api.db.kysely
      .updateTable("Hub")
      .set({ name: `${tag} Moonrise`, nameKey: nameKey(`${tag} Moonrise`) })
      .where("id", "=", hub!.id)
      .execute();
    expect((await searchAll("moonrise")).ids).toEqual([hub!.id]);
    expect((await searchAll("x off")).ids).toEqual([]);
    await api.db.kysely.deleteFrom("Hub").where("id", "=", hub!.id).execute();
    expect(await searchAll("moonrise")).toEqual({ ids: [], total: 0 });
  });

  it("answers a page past the end with the total", async () => {
    const res = await api.request.get(`/hubs/search?name=${encodeURIComponent(tag)}&page=9&per_page=5`);
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([]);
    expect(res.body.totalElements).toBe((await expected(tag)).length);
  });

  it("reads the suffix index alone on PostgreSQL", async () => {
    if (api.db.engine !== "postgres") return expect(nameSearch("sqlite", "lumen").kind).toBe("trigram");
    const { values } = nameSearch("postgres", "lumen");
    expect(values).toEqual({ arg: "lumen", argEnd: "lumeo", argLength: 5 });
    // Once vacuumed (autovacuum, or copy-site after a copy) the table's pages are all visible: the index answers alone.
    await sql`VACUUM (ANALYZE) "HubNameSuffix"`.execute(api.db.kysely);
    const plan = (
      await sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT COUNT(*) FROM "HubNameSuffix"
        WHERE "suffix" >= 'lumen' AND "suffix" < 'lumeo' AND "repeatLength" < 5`.execute(api.db.kysely)
    ).rows
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain('Index Only Scan using "HubNameSuffix_suffix_idx"');
  });
});

describe("prefixEnd", () => {
  it("is the first string after every string that starts with the text", () => {
    expect(prefixEnd("lumen")).toBe("lumeo");
    expect(prefixEnd("a🐉")).toBe("a\u{1F40A}");
    expect(prefixEnd("a\u{D7FF}")).toBe("a\u{E000}");
    expect(prefixEnd("a\u{10FFFF}")).toBe("b");
    expect(prefixEnd("\u{10FFFF}\u{10FFFF}")).toBeNull();
  });

  it("leaves a text with no such string to LIKE", () => {
    expect(nameSearch("postgres", "\u{10FFFF}\u{10FFFF}\u{10FFFF}").kind).toBe("like");
    expect(nameSearch("postgres", "ab").kind).toBe("like");
    expect(nameSearch("postgres", "abc").kind).toBe("suffix");
  });
});
