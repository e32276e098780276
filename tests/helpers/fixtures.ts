// Test data for hubs and posts. The API helpers go through the real endpoints; the insert* helpers write
// rows straight into the database (fast, with chosen dates and likes) and keep every counter equal to the
// rows behind it: Hub.memberCount, Hub.postCount and Post.likes.
import { expect } from "vitest";
import { sql } from "kysely";
import type { DB } from "../../server/db/schema.ts";
import { nowMs } from "../../server/db/dates.ts";
import { nameKey } from "../../server/rules/text.ts";
import type { TestApi, TestUser } from "./api.ts";

let nameSeq = 0;

/** A hub name no other test in the run uses. */
export const uniqueName = (prefix = "Hub") => `${prefix} ${process.pid}-${++nameSeq}`;

export const VALID_POST = {
  title: "A valid title",
  content: "Content that is long enough.",
  description: "A short description",
} as const;

/** Creates a hub through the API and answers its body. */
export async function createHub(api: TestApi, author: TestUser, body: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/hubs")
    .set(author.auth)
    .send({ name: uniqueName(), description: "About it", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string; memberCount: number };
}

export async function joinHub(api: TestApi, user: TestUser, hubId: number) {
  const res = await api.request.post(`/user/${user.id}/member-hubs/${hubId}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Creates a post through the API (the author must be a member) and answers its body. */
export async function createPost(api: TestApi, author: TestUser, hubId: number, body: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/hub-posts")
    .set(author.auth)
    .send({ ...VALID_POST, hubId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; title: string; hubId: number; hubName: string; likes: number };
}

let userSeq = 0;

/** Users written straight into the table (no password hashing): fast members and likers. */
export async function insertUsers(api: TestApi, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = Array.from({ length: count }, () => {
    const username = `fx${process.pid}_${++userSeq}`;
    const email = `${username}@example.com`;
    return { username, usernameKey: username.toLowerCase(), email, emailKey: email, passwordHash: "x", joinedAt: nowMs() };
  });
  const inserted = await api.db.kysely.insertInto("User").values(rows).returning("id").execute();
  api.dataChanged();
  return inserted.map((row) => row.id);
}

export interface HubRowSpec {
  /** A chosen id (for the numeric-id lookup); the next free one when absent. */
  id?: number;
  name: string;
  authorId: number;
  createdAt?: number;
  /** Members besides the author (the author is always the first member). */
  extraMembers?: number;
}

/** A hub row with its author and `extraMembers` inserted users as members. */
export async function insertHub(api: TestApi, spec: HubRowSpec): Promise<number> {
  const createdAt = spec.createdAt ?? nowMs();
  const memberIds = [spec.authorId, ...(await insertUsers(api, spec.extraMembers ?? 0))];
  const hubId = await api.db.kysely.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("Hub")
      .values({
        ...(spec.id === undefined ? {} : { id: spec.id }),
        name: spec.name,
        nameKey: nameKey(spec.name),
        description: "",
        memberCount: memberIds.length,
        postCount: 0,
        authorId: spec.authorId,
        createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("Membership")
      .values(memberIds.map((userId) => ({ userId, hubId: id, createdAt })))
      .execute();
    return id;
  });
  // A chosen id does not move PostgreSQL's sequence (SQLite's AUTOINCREMENT follows the largest id): move it past.
  if (spec.id !== undefined && api.db.engine === "postgres")
    await sql`SELECT setval(pg_get_serial_sequence('"Hub"', 'id'), (SELECT MAX(id) FROM "Hub"))`.execute(api.db.kysely);
  api.dataChanged();
  return hubId;
}

export interface PostRowSpec {
  hubId: number;
  authorId: number;
  title: string;
  date: number;
  /** Number of likes, each by a fresh inserted user. */
  likes?: number;
}

/** A post row, counted in its hub's postCount, with `likes` real PostLike rows. */
export async function insertPost(api: TestApi, spec: PostRowSpec): Promise<number> {
  const likers = await insertUsers(api, spec.likes ?? 0);
  const postId = await api.db.kysely.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("Post")
      .values({
        title: spec.title,
        content: "Inserted content body",
        description: "",
        date: spec.date,
        likes: likers.length,
        authorId: spec.authorId,
        hubId: spec.hubId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("Hub")
      .set((eb) => ({ postCount: eb("postCount", "+", 1) }))
      .where("id", "=", spec.hubId)
      .execute();
    if (likers.length > 0)
      await trx
        .insertInto("PostLike")
        .values(likers.map((userId) => ({ userId, postId: id })))
        .execute();
    return id;
  });
  api.dataChanged();
  return postId;
}

/** The path of a hub, `/hubs/{name}`, its name URL-encoded. */
export const hubPath = (name: string) => `/hubs/${encodeURIComponent(name)}`;

/** The ids of a paged body's items, in order. */
export const ids = (body: { content: { id: number }[] }) => body.content.map((item) => item.id);

/** How many rows a table holds: proof that a refused request changed nothing. */
export async function countRows(api: TestApi, table: keyof DB): Promise<number> {
  const { n } = await api.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return n;
}
