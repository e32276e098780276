// The page queries' plans (docs/decisions/014-data-layer.md "PostgreSQL read speed"): on either engine the comment and
// unread-notification pages answer the rows of their order, and `prepareSized` the same rows whatever the size; on
// PostgreSQL each page reads its sort index in order (no sort of every row under the LIMIT), and a page query with a
// usual size settles on a generic plan instead of being planned at every call, and so does the name search.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCommentQueries } from "../../server/comments/comments.queries.ts";
import type { Database } from "../../server/db/database.ts";
import { postgresKysely, postgresPool } from "../../server/db/postgres.ts";
import { LITERAL_PAGE_SIZES, prepareSized } from "../../server/db/prepared.ts";
import { createHubQueries } from "../../server/hubs/hubs.queries.ts";
import { createNotificationQueries } from "../../server/notifications/notifications.queries.ts";
import { createPostQueries } from "../../server/posts/posts.queries.ts";
import type { CommentSort } from "../../server/rules/comment.ts";
import { freshTestStore, testEngine, type TestStore } from "../helpers/test-data-dir.ts";

const THREADS = 240;
const NOTIFICATIONS = 180;

let store: TestStore;
let db: Database;
let userId: number;
let hubId: number;
let postId: number;
/** The post's top-level comments: id, likes, createdAt. */
let threads: { id: number; likes: number; createdAt: number }[];
/** The user's unread notifications, newest first. */
let unreadIds: number[];

beforeAll(async () => {
  store = await freshTestStore();
  db = await store.open();
  const now = Date.now();
  const user = await db.kysely
    .insertInto("User")
    .values({
      username: "planner",
      usernameKey: "planner",
      email: "planner@example.com",
      emailKey: "planner@example.com",
      passwordHash: "x",
      joinedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  userId = user.id;
  const hub = await db.kysely
    .insertInto("Hub")
    .values({ name: "Plans", nameKey: "plans", authorId: userId, createdAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  hubId = hub.id;
  const posts = await db.kysely
    .insertInto("Post")
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        title: `P${i}`,
        content: "Text",
        date: now + (i % 7) * 1000 + i,
        likes: i % 5,
        authorId: userId,
        hubId,
      })),
    )
    .returning("id")
    .execute();
  postId = posts[0]!.id;
  await db.kysely.updateTable("Hub").set({ postCount: posts.length }).where("id", "=", hubId).execute();
  // Likes repeat and dates tie, so the later keys of each order decide too.
  threads = (
    await db.kysely
      .insertInto("Comment")
      .values(
        Array.from({ length: THREADS }, (_, i) => ({
          postId,
          authorId: userId,
          content: `C${i}`,
          likes: (i * 7) % 11,
          createdAt: now + (i % 13),
        })),
      )
      .returning(["id", "likes", "createdAt"])
      .execute()
  ).map((row) => ({ id: row.id, likes: row.likes, createdAt: row.createdAt }));
  // Replies share the post's column and must stay out of the top-level pages.
  await db.kysely
    .insertInto("Comment")
    .values(
      threads.slice(0, 40).map((t, i) => ({ postId, parentId: t.id, authorId: userId, content: `R${i}`, likes: 50, createdAt: now - 1 })),
    )
    .execute();
  const made = await db.kysely
    .insertInto("Notification")
    .values(
      Array.from({ length: NOTIFICATIONS }, (_, i) => ({
        userId,
        kind: "follow",
        actorId: userId,
        createdAt: now + (i % 17),
        readAt: i % 3 === 0 ? now : null,
      })),
    )
    .returning(["id", "createdAt", "readAt"])
    .execute();
  unreadIds = made
    .filter((n) => n.readAt === null)
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
    .map((n) => n.id);
  if (db.engine === "postgres") await sql`ANALYZE`.execute(db.kysely);
});

afterAll(async () => {
  await db.close();
  await store.remove();
});

const ORDERS: Record<CommentSort, (a: (typeof threads)[number], b: (typeof threads)[number]) => number> = {
  top: (a, b) => b.likes - a.likes || a.createdAt - b.createdAt || a.id - b.id,
  oldest: (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  newest: (a, b) => b.createdAt - a.createdAt || b.id - a.id,
};

describe("page queries", () => {
  it("page a post's top-level comments in each order, the second half read from the end, replies left out", async () => {
    const comments = createCommentQueries(db);
    for (const sort of ["top", "oldest", "newest"] as const) {
      const expected = [...threads].sort(ORDERS[sort]).map((t) => t.id);
      for (const size of [10, 7]) {
        const pages: number[] = [];
        for (let offset = 0; offset < THREADS; offset += size) {
          pages.push(
            ...(await comments.topLevelPage({ column: "postId", id: postId }, sort, size, offset, threads.length)).map((row) => row.id),
          );
        }
        expect(pages, `${sort} by ${size}`).toEqual(expected);
      }
    }
  });

  it("page the unread notifications newest first", async () => {
    const notifications = createNotificationQueries(db);
    const pages: number[] = [];
    for (let offset = 0; offset < unreadIds.length; offset += 20) {
      pages.push(...(await notifications.page(userId, true, 20, offset)).rows.map((row) => row.id));
    }
    expect(pages).toEqual(unreadIds);
  });

  it("prepareSized answers the same rows for a size and a first page written into the text and for values", async () => {
    expect(LITERAL_PAGE_SIZES.has(10) && !LITERAL_PAGE_SIZES.has(7)).toBe(true);
    const page = prepareSized<{ hubId: number; limit: number; offset: number }, { id: number }>(
      db,
      (p, limit, offset) =>
        sql`SELECT "id" FROM "Post" WHERE "hubId" = ${p("hubId")} ORDER BY "date" DESC, "id" DESC LIMIT ${limit} OFFSET ${offset}`,
    );
    const all = (
      await db.kysely.selectFrom("Post").select("id").where("hubId", "=", hubId).orderBy("date", "desc").orderBy("id", "desc").execute()
    ).map((row) => row.id);
    for (const size of [10, 7, 100, 1000]) {
      for (const offset of [0, 3, 55, 60]) {
        expect(
          (await page.all({ hubId, limit: size, offset })).map((row) => row.id),
          `size ${size} offset ${offset}`,
        ).toEqual(all.slice(offset, offset + size));
      }
    }
  });
});

if (testEngine === "postgres") {
  describe("PostgreSQL plans", () => {
    // One connection, so the named statements and their plan counts are the ones this test's calls made.
    let one: Database;
    beforeAll(() => {
      const kysely = postgresKysely(postgresPool(store.databaseUrl!, 1));
      one = { engine: "postgres", kysely, close: () => kysely.destroy() };
    });
    afterAll(() => one.close());

    type PlanNode = { "Node Type": string; Plans?: PlanNode[] };
    const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
    /** The sorts under a LIMIT: each one reads and sorts every row of the place before the page is cut. */
    const sortsUnderLimits = (plan: PlanNode) =>
      nodesOf(plan)
        .filter((node) => node["Node Type"] === "Limit")
        .flatMap((limit) => nodesOf(limit).filter((node) => node["Node Type"].includes("Sort")));

    async function plansOf(statementLike: string, values: string) {
      const statements = await sql<{
        name: string;
      }>`SELECT "name" FROM pg_prepared_statements WHERE "statement" LIKE ${statementLike}`.execute(one.kysely);
      return Promise.all(
        statements.rows.map(async ({ name }) => {
          const explained = await sql<{
            "QUERY PLAN": [{ Plan: PlanNode }];
          }>`EXPLAIN (FORMAT JSON) EXECUTE ${sql.id(name)}${sql.raw(values)}`.execute(one.kysely);
          return explained.rows[0]!["QUERY PLAN"][0].Plan;
        }),
      );
    }

    it("read the comment and unread-notification pages in index order", async () => {
      // A table this small would be scanned whole; the index plans are the ones the large sets get.
      await sql`SET enable_seqscan = off`.execute(one.kysely);
      const comments = createCommentQueries(one);
      for (const sort of ["top", "oldest", "newest"] as const) {
        await comments.topLevelPage({ column: "postId", id: postId }, sort, 10, 0, threads.length);
        // The last page: the same index read backwards.
        await comments.topLevelPage({ column: "postId", id: postId }, sort, 10, THREADS - 10, threads.length);
      }
      await createNotificationQueries(one).page(userId, true, 10, 0);

      const commentPlans = await plansOf(`%"parentId" IS NULL%LIMIT%`, `(${postId}, 10, 0)`);
      const notificationPlans = await plansOf(`%"readAt" IS NULL%LIMIT%`, `(${userId}, 10, 0)`);
      expect(commentPlans).toHaveLength(6);
      expect(notificationPlans).toHaveLength(1);
      for (const plan of [...commentPlans, ...notificationPlans]) expect(sortsUnderLimits(plan), JSON.stringify(plan)).toEqual([]);
      await sql`RESET enable_seqscan`.execute(one.kysely);
    });

    /** The generic and custom plans of the named statements whose text is like `statementLike`. */
    const planCounts = async (statementLike: string) =>
      (
        await sql<{ generic_plans: number; custom_plans: number }>`
          SELECT "generic_plans", "custom_plans" FROM pg_prepared_statements WHERE "statement" LIKE ${statementLike}
            AND "statement" NOT LIKE '%pg_prepared_statements%'`.execute(one.kysely)
      ).rows.map((row) => ({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }));

    it("write a usual page size into the text of a hub's page of posts, and keep its generic plan", async () => {
      const posts = createPostQueries(one);
      for (let i = 0; i < 8; i++) await posts.page(hubId, "latest", 10, 0);
      const counts = await planCounts(`%"Post" WHERE "hubId" = $1%LIMIT 10 OFFSET%`);
      expect(counts).toHaveLength(1);
      expect(counts[0]!.generic).toBeGreaterThanOrEqual(3);
    });

    it("keep one plan for the name search, whatever the text", async () => {
      // Planned with the text's values, the range's rows were estimated anew and every call was planned (decision 014).
      const hubs = createHubQueries(one);
      for (const text of ["plans", "pla", "lantern", "ans", "xyz", "plan", "lan", "lans"]) {
        const { rows, total } = await hubs.search(text, { limit: 10, offset: 0 });
        expect(rows.map((row) => row.id)).toEqual("plans".includes(text) ? [hubId] : []);
        expect(total).toBe(rows.length);
      }
      const counts = await planCounts(`%"HubNameSuffix"%LIMIT%`);
      expect(counts).toHaveLength(1);
      expect(counts[0]!.generic).toBeGreaterThanOrEqual(3);
    });

    it("write the first page into the text of the hub lists, newest and top, and keep their generic plans", async () => {
      // With OFFSET $n the generic plan guessed 10,000 of 100,000 hubs skipped, and every call was planned anew.
      const hubs = createHubQueries(one);
      const hubIds = (await one.kysely.selectFrom("Hub").select("id").orderBy("createdAt", "desc").orderBy("id", "desc").execute()).map(
        (row) => row.id,
      );
      expect(hubIds).toContain(hubId);
      for (let i = 0; i < 8; i++) {
        expect((await hubs.newest.all({ limit: 10, offset: 0 })).map((row) => row.id)).toEqual(hubIds.slice(0, 10));
        expect((await hubs.top.all({ limit: 5, offset: 0 })).map((row) => row.id)).toHaveLength(Math.min(5, hubIds.length));
      }
      expect((await hubs.newest.all({ limit: 10, offset: 1 })).map((row) => row.id)).toEqual(hubIds.slice(1, 11));
      for (const [size, order] of [
        [10, `"createdAt" DESC`],
        [5, `"memberCount" DESC`],
      ] as const) {
        const counts = await planCounts(`%FROM "Hub"%ORDER BY ${order}, "id" DESC LIMIT ${size} OFFSET 0)%`);
        expect(counts, order).toHaveLength(1);
        expect(counts[0]!.generic, order).toBeGreaterThanOrEqual(3);
      }
    });
  });
}
