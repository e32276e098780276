// The tag filters read by index (issue 15, docs/decisions/019-reading-and-discovery.md, migration series_tag_order):
// SeriesTag rows carry their series' sort keys, status and rating, SeriesTagCount and SeriesTagPairCount the counts of
// tags and pairs of tags, all kept by triggers. Checked here: every filter, sort and scope against the Series table
// itself; the copies and counts after each kind of write; rows written with only the series and the tag (the seeds);
// the plans read in index order.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { postgresKysely, postgresPool } from "../../server/db/postgres.ts";
import type { ContentRating, SeriesFilters, SeriesSort, SeriesStatus } from "../../server/rules/series.ts";
import type { MatureScope } from "../../server/series/series.queries.ts";
import { createSeriesService } from "../../server/series/series.service.ts";
import { startTestApi, registerUsers, type TestApi, type TestUser } from "../helpers/api.ts";
import { uploadPng } from "../helpers/images.ts";
import { freshTestStore, testEngine, type TestStore } from "../helpers/test-data-dir.ts";

/** Rows of SeriesTag whose copies differ from their series, and SeriesTagCount rows that differ from the tags. */
async function outOfStep(db: Database) {
  const copies = await sql<{ seriesId: number; tag: string }>`SELECT t."seriesId", t."tag" FROM "SeriesTag" t
    JOIN "Series" s ON s."id" = t."seriesId"
    WHERE t."createdAt" <> s."createdAt" OR t."followersCount" <> s."followersCount" OR t."status" <> s."status"
      OR t."contentRating" <> s."contentRating" OR t."lastChapterAt" IS DISTINCT FROM s."lastChapterAt"`.execute(db.kysely);
  const counted = await sql<{ tag: string; contentRating: string; status: string; n: number }>`
    SELECT t."tag", s."contentRating", s."status", COUNT(*) AS n FROM "SeriesTag" t JOIN "Series" s ON s."id" = t."seriesId"
    GROUP BY t."tag", s."contentRating", s."status"`.execute(db.kysely);
  const pairs = await sql<{ tag: string; otherTag: string; contentRating: string; status: string; n: number }>`
    SELECT a."tag", b."tag" AS "otherTag", s."contentRating", s."status", COUNT(*) AS n FROM "SeriesTag" a
    JOIN "SeriesTag" b ON b."seriesId" = a."seriesId" AND a."tag" < b."tag" JOIN "Series" s ON s."id" = a."seriesId"
    GROUP BY a."tag", b."tag", s."contentRating", s."status"`.execute(db.kysely);
  const kept = await db.kysely.selectFrom("SeriesTagCount").selectAll().execute();
  const keptPairs = await db.kysely.selectFrom("SeriesTagPairCount").selectAll().execute();
  const key = (r: { tag: string; otherTag?: string; contentRating: string; status: string }) =>
    [r.tag, r.otherTag, r.contentRating, r.status].filter((part) => part !== undefined).join("/");
  const tally = (rows: { n: number }[]) => Object.fromEntries(rows.map((r) => [key(r as never), Number(r.n)]));
  const nonZero = (rows: { rows: number }[]) =>
    Object.fromEntries(rows.filter((r) => Number(r.rows) !== 0).map((r) => [key(r as never), Number(r.rows)]));
  return {
    copies: copies.rows,
    counts: { expected: tally(counted.rows), actual: nonZero(kept) },
    pairs: { expected: tally(pairs.rows), actual: nonZero(keptPairs) },
  };
}

async function expectInStep(db: Database, when: string) {
  const { copies, counts, pairs } = await outOfStep(db);
  expect(copies, when).toEqual([]);
  expect(counts.actual, when).toEqual(counts.expected);
  expect(pairs.actual, when).toEqual(pairs.expected);
}

describe("lists by tag, against the Series table", () => {
  const TAGS = ["alpha", "beta", "gamma", "delta", "rare"];
  let store: TestStore;
  let db: Database;
  let authors: number[];
  type Row = {
    id: number;
    authorId: number;
    nameKey: string;
    createdAt: number;
    followersCount: number;
    lastChapterAt: number | null;
    status: string;
    contentRating: string;
    tags: string[];
  };
  let rows: Row[];

  beforeAll(async () => {
    store = await freshTestStore();
    db = await store.open();
    const now = Date.now();
    authors = (
      await db.kysely
        .insertInto("User")
        .values(
          [0, 1, 2].map((i) => ({
            username: `tagger${i}`,
            usernameKey: `tagger${i}`,
            email: `tagger${i}@example.com`,
            emailKey: `tagger${i}@example.com`,
            passwordHash: "x",
            joinedAt: now,
          })),
        )
        .returning("id")
        .execute()
    ).map((r) => r.id);
    const statuses: SeriesStatus[] = ["ongoing", "completed", "hiatus"];
    const ratings: ContentRating[] = ["general", "teen", "general", "mature"];
    // A fixed pseudo-random draw: each tag on its share of the series ("rare" on a few). Dates, followers and
    // chapters tie often, so the id decides too.
    let seed = 7;
    const draw = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const shares = [60, 40, 30, 20, 5];
    for (let i = 0; i < 90; i++) {
      const tags = TAGS.filter((_t, k) => draw(100) < shares[k]!);
      const { id } = await db.kysely
        .insertInto("Series")
        .values({
          name: `Series ${i}`,
          nameKey: `series ${i}`,
          authorId: authors[draw(3)]!,
          createdAt: now - draw(9) * 1000,
          tags: JSON.stringify(tags),
          status: statuses[draw(3)]!,
          contentRating: ratings[draw(4)]!,
          lastChapterAt: draw(4) === 0 ? null : now - draw(5) * 10,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // As the seeds write them: the series and the tag only.
      if (tags.length > 0)
        await db.kysely
          .insertInto("SeriesTag")
          .values(tags.map((tag) => ({ seriesId: id, tag })))
          .execute();
    }
    // Writes after the tags: followers, a chapter's date, a new status and rating reach the tags' rows.
    await sql`UPDATE "Series" SET "followersCount" = "id" % 4`.execute(db.kysely);
    await sql`UPDATE "Series" SET "lastChapterAt" = ${now + 5} WHERE "id" % 11 = 0`.execute(db.kysely);
    await sql`UPDATE "Series" SET "status" = 'completed', "contentRating" = 'teen' WHERE "id" % 13 = 0`.execute(db.kysely);
    rows = (await db.kysely.selectFrom("Series").selectAll().execute()).map((s) => ({
      id: s.id,
      authorId: s.authorId,
      nameKey: s.nameKey,
      createdAt: Number(s.createdAt),
      followersCount: s.followersCount,
      lastChapterAt: s.lastChapterAt === null ? null : Number(s.lastChapterAt),
      status: s.status,
      contentRating: s.contentRating,
      tags: JSON.parse(s.tags) as string[],
    }));
  });
  afterAll(async () => {
    await db.close();
    await store.remove();
  });

  const ORDER: Record<SeriesSort, (a: Row, b: Row) => number> = {
    new: (a, b) => b.createdAt - a.createdAt || b.id - a.id,
    popular: (a, b) => b.followersCount - a.followersCount || b.id - a.id,
    updated: (a, b) => (b.lastChapterAt ?? -Infinity) - (a.lastChapterAt ?? -Infinity) || b.id - a.id,
  };

  function expected(filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, name: string): number[] {
    return rows
      .filter(
        (s) =>
          filters.tags.every((t) => s.tags.includes(t)) &&
          (!filters.status || s.status === filters.status) &&
          (!filters.rating || s.contentRating === filters.rating) &&
          (scope.show || s.contentRating !== "mature" || s.authorId === scope.ownerId) &&
          s.nameKey.includes(name),
      )
      .sort(ORDER[sort])
      .map((s) => s.id);
  }

  it("has the copies and counts in step after writes that follow the tags", async () => {
    await expectInStep(db, "after the setup");
    // The draw gives the scopes something to tell apart: the first author's own mature series among the tags'.
    const own = rows.filter((s) => s.authorId === authors[0] && s.contentRating === "mature");
    expect(own.filter((s) => s.tags.includes("alpha") && s.tags.includes("beta")).length).toBeGreaterThan(0);
    expect(rows.filter((s) => s.tags.includes("rare")).length).toBeGreaterThan(1);
  });

  it("answers every tag filter, with status, rating, sort, scope and name, page by page with exact totals", async () => {
    const service = createSeriesService(db);
    const tagSets = [
      [],
      ["alpha"],
      ["rare"],
      ["alpha", "beta"],
      ["beta", "alpha"],
      ["rare", "gamma"],
      ["alpha", "beta", "gamma"],
      ["none"],
      ["alpha", "none"],
    ];
    const scopes: MatureScope[] = [{ show: false, ownerId: null }, { show: true }, { show: false, ownerId: authors[0]! }];
    let compared = 0;
    for (const tags of tagSets)
      for (const status of [undefined, "completed"] as const)
        for (const rating of [undefined, "teen", "mature"] as const)
          for (const sort of ["new", "popular", "updated"] as const)
            for (const scope of scopes)
              for (const name of scope.show ? ["", "es 1"] : [""]) {
                const filters: SeriesFilters = { tags, status, rating };
                const want = expected(filters, sort, scope, name);
                const got: number[] = [];
                for (let page = 1; page <= Math.ceil(want.length / 7) + 1; page++) {
                  const answer =
                    name === ""
                      ? await service.list(filters, sort, scope, { page, perPage: 7 })
                      : await service.search(name, filters, sort, scope, { page, perPage: 7 });
                  const what = JSON.stringify({ filters, sort, scope, name, page });
                  expect(answer.totalElements, what).toBe(want.length);
                  got.push(...answer.content.map((s) => s.id));
                }
                expect(got, JSON.stringify({ filters, sort, scope, name })).toEqual(want);
                compared++;
              }
    expect(compared).toBe(9 * 2 * 3 * 3 * 4);
  });

  if (testEngine === "sqlite")
    it("reads a tag's page in its sort's order from the index (SQLite plan)", async () => {
      // A connection of its own: statements are prepared once per text and connection, so each is seen here once.
      const fresh = await store.open();
      const texts: string[] = [];
      const sqlite = fresh.sqlite!;
      const prepare = sqlite.prepare.bind(sqlite);
      sqlite.prepare = (text: string) => {
        texts.push(text);
        return prepare(text);
      };
      try {
        const service = createSeriesService(fresh);
        for (const sort of ["new", "popular", "updated"] as const) {
          texts.length = 0;
          await service.list(
            { tags: ["beta", "alpha"], status: "ongoing" },
            sort,
            { show: false, ownerId: null },
            { page: 1, perPage: 10 },
          );
          const page = texts.find((t) => t.includes("LIMIT"))!;
          const params = (page.match(/\?/g) ?? []).map(() => null);
          const plan = (prepare(`EXPLAIN QUERY PLAN ${page}`).all(...params) as { detail: string }[]).map((r) => r.detail);
          const index = { new: "createdAt", popular: "followersCount", updated: "lastChapterAt" }[sort];
          expect(plan, sort).toContain(`SEARCH t0 USING COVERING INDEX SeriesTag_tag_${index}_seriesId_contentRating_status_idx (tag=?)`);
          // The one sort is the page's own few cards, after the LIMIT.
          expect(
            plan.filter((d) => d.includes("TEMP B-TREE")),
            sort,
          ).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
          expect(plan.join("\n"), sort).toContain("sqlite_autoindex_SeriesTag_1 (seriesId=? AND tag=?)");
        }
      } finally {
        await fresh.close();
      }
    });

  if (testEngine === "postgres")
    it("reads a tag's page in its sort's order from the index, in the generic plan too (PostgreSQL plan)", async () => {
      // One connection, so the named statements are the ones this test's calls made.
      const kysely = postgresKysely(postgresPool(store.databaseUrl!, 1));
      const one: Database = { engine: "postgres", kysely, close: () => kysely.destroy() };
      try {
        await sql`ANALYZE`.execute(kysely);
        // A table this small would be scanned whole; the index plans are the ones the large sets get.
        await sql`SET enable_seqscan = off`.execute(kysely);
        const service = createSeriesService(one);
        for (const sort of ["new", "popular", "updated"] as const)
          await service.list({ tags: ["alpha", "beta"] }, sort, { show: false, ownerId: null }, { page: 1, perPage: 10 });
        const statements = await sql<{ name: string }>`SELECT "name" FROM pg_prepared_statements
          WHERE "statement" LIKE '%FROM "SeriesTag" t0%EXISTS%LIMIT 10 OFFSET 0%' AND "statement" NOT LIKE '%pg_prepared_statements%'`.execute(
          kysely,
        );
        expect(statements.rows).toHaveLength(3);
        // The plan PostgreSQL keeps once it stops planning each call: the probe of the other tag must not become a join
        // that reads both tags' rows and sorts them.
        await sql`SET plan_cache_mode = force_generic_plan`.execute(kysely);
        type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };
        const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
        for (const { name } of statements.rows) {
          const explained = await sql<{
            "QUERY PLAN": [{ Plan: PlanNode }];
          }>`EXPLAIN (FORMAT JSON) EXECUTE ${sql.id(name)}('alpha', 'beta')`.execute(kysely);
          const plan = explained.rows[0]!["QUERY PLAN"][0].Plan;
          const limit = nodesOf(plan).find((n) => n["Node Type"] === "Limit")!;
          const under = nodesOf(limit);
          expect(
            under.filter((n) => n["Node Type"].includes("Sort") || n["Node Type"].includes("Hash")),
            JSON.stringify(plan),
          ).toEqual([]);
          expect(
            under.some((n) => n["Index Name"]?.startsWith("SeriesTag_tag_")),
            JSON.stringify(plan),
          ).toBe(true);
        }
      } finally {
        await one.close();
      }
    });
});

describe("the copies and counts through the API's writes", () => {
  let api: TestApi;
  let users: TestUser[];
  beforeAll(async () => {
    api = await startTestApi({ adminUsernames: ["root"] });
    users = await registerUsers(api, ["writer", "reader", "leaver", "root"]);
  });
  afterAll(() => api?.close());

  const create = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await api.request.post("/series").set(user.auth).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; name: string };
  };
  const total = async (path: string) => (await api.request.get(path).expect(200)).body.totalElements as number;
  const names = async (path: string) => ((await api.request.get(path).expect(200)).body.content as { name: string }[]).map((s) => s.name);

  it("creating, editing tags, status and rating, following, publishing, removing and deleting", async () => {
    const [writer, reader, leaver, root] = users as [TestUser, TestUser, TestUser, TestUser];
    const inStep = (when: string) => expectInStep(api.db, when);
    const one = await create(writer, { name: "Kept One", tags: ["ink", "sea"], status: "ongoing", contentRating: "general" });
    const two = await create(writer, { name: "Kept Two", tags: ["ink"], status: "completed", contentRating: "teen" });
    await create(leaver, { name: "Leaving", tags: ["ink", "sea"], contentRating: "mature" });
    await inStep("created");
    expect(await total("/series?tag=ink")).toBe(2);
    expect(await total("/series?tag=ink&tag=sea")).toBe(1);

    // Tags edited: old ones counted down, new ones up.
    await api.request
      .put(`/series/${one.id}`)
      .set(writer.auth)
      .send({ name: "Kept One", tags: ["sea", "sky"] })
      .expect(200);
    await inStep("tags edited");
    expect(await names("/series?tag=ink")).toEqual(["Kept Two"]);
    expect(await names("/series?tag=sky&tag=sea")).toEqual(["Kept One"]);

    // Status and rating edited: the counts move from the old pair to the new one.
    await api.request
      .put(`/series/${two.id}`)
      .set(writer.auth)
      .send({ name: "Kept Two", status: "hiatus", contentRating: "mature" })
      .expect(200);
    await inStep("status and rating edited");
    expect(await total("/series?tag=ink")).toBe(0);
    expect(await total("/series?tag=ink&status=hiatus")).toBe(0);
    expect(await total(`/series?tag=ink&status=completed`)).toBe(0);
    await api.request.put(`/series/${two.id}`).set(writer.auth).send({ name: "Kept Two", contentRating: "teen" }).expect(200);
    expect(await total("/series?tag=ink&status=hiatus&rating=teen")).toBe(1);

    // Followers: the popular order of a tag's list follows them.
    await api.request
      .put(`/series/${one.id}`)
      .set(writer.auth)
      .send({ name: "Kept One", tags: ["sea", "sky", "ink"] })
      .expect(200);
    expect(await names("/series?tag=ink&sort=popular")).toEqual(["Kept Two", "Kept One"]);
    await api.request.post(`/user/${reader.id}/followed-series/${one.id}`).set(reader.auth).expect(200);
    await inStep("followed");
    expect(await names("/series?tag=ink&sort=popular")).toEqual(["Kept One", "Kept Two"]);
    await api.request.delete(`/user/${reader.id}/followed-series/${one.id}`).set(reader.auth).expect(200);
    await inStep("unfollowed");
    expect(await names("/series?tag=ink&sort=popular")).toEqual(["Kept Two", "Kept One"]);

    // A chapter: the updated order follows it, and its deletion.
    expect(await names("/series?tag=ink&sort=updated")).toEqual(["Kept Two", "Kept One"]);
    const pic = await uploadPng(api, writer);
    await api.request
      .post("/series/Kept One/chapters")
      .set(writer.auth)
      .send({ title: "One", pages: [pic] })
      .expect(201);
    await inStep("published");
    expect(await names("/series?tag=ink&sort=updated")).toEqual(["Kept One", "Kept Two"]);
    await api.request.delete("/series/Kept One/1").set(writer.auth).expect(200);
    await inStep("chapter deleted");
    expect(await names("/series?tag=ink&sort=updated")).toEqual(["Kept Two", "Kept One"]);

    // A removed series keeps its place in the lists (and its counts).
    await api.request
      .post("/moderation/remove")
      .set(root.auth)
      .send({ subject: { type: "series", id: two.id }, reason: "Test" })
      .expect(200);
    await inStep("removed");
    expect(await total("/series?tag=ink")).toBe(2);

    // Deleted: its tags go by cascade, and their counts with them.
    await api.request.delete(`/series/${two.id}`).set(writer.auth).expect(200);
    await inStep("series deleted");
    expect(await names("/series?tag=ink")).toEqual(["Kept One"]);

    // An account's deletion takes its series.
    await api.request.delete(`/user/${leaver.id}`).set(leaver.auth).send({ password: leaver.password }).expect(200);
    await inStep("account deleted");
    const { counts, pairs } = await outOfStep(api.db);
    expect(counts.actual).toEqual({ "ink/general/ongoing": 1, "sea/general/ongoing": 1, "sky/general/ongoing": 1 });
    expect(pairs.actual).toEqual({ "ink/sea/general/ongoing": 1, "ink/sky/general/ongoing": 1, "sea/sky/general/ongoing": 1 });
  });

  // The rarest-first order of a list's tags is kept for a minute (series.queries.ts); the lists must not depend on it.
  it("answers lists of several tags right while the rarest tag changes, and once a tag gets its first series", async () => {
    const [writer] = users as [TestUser];
    await create(writer, { name: "Moss and Fern", tags: ["moss", "fern"] });
    await create(writer, { name: "Fern Alone", tags: ["fern"] });
    // Kept: moss (1) before fern (2).
    expect(await names("/series?tag=fern&tag=moss")).toEqual(["Moss and Fern"]);

    // Now fern is the rarer; the kept order still reads moss's rows first.
    for (const name of ["Moss A", "Moss B", "Moss C"]) await create(writer, { name, tags: ["moss"] });
    await create(writer, { name: "Moss and Fern Too", tags: ["fern", "moss"] });
    expect(await names("/series?tag=fern&tag=moss")).toEqual(["Moss and Fern Too", "Moss and Fern"]);
    expect(await total("/series?tag=moss&tag=fern")).toBe(2);

    // No series has lichen yet: an empty list, and that is not kept.
    expect(await total("/series?tag=moss&tag=lichen")).toBe(0);
    await create(writer, { name: "Moss and Lichen", tags: ["lichen", "moss"] });
    expect(await names("/series?tag=moss&tag=lichen")).toEqual(["Moss and Lichen"]);
  });
});
