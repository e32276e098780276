// Test data for hubs and posts. The API helpers go through the real endpoints; the insert*
// helpers write rows straight into SQLite (fast, with chosen dates and likes) and keep every
// counter equal to the rows behind it: Hub.memberCount, Hub.postCount and Post.likes.
import { expect } from "vitest";
import { nowMs, prepare } from "../../server/db/sql.ts";
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
export function insertUsers(api: TestApi, count: number): number[] {
  const insert = prepare(
    api.db.sqlite,
    `INSERT INTO User (username, usernameKey, email, emailKey, passwordHash, joinedAt) VALUES (?, ?, ?, ?, 'x', ?)`,
  );
  api.dataChanged();
  return Array.from({ length: count }, () => {
    const username = `fx${process.pid}_${++userSeq}`;
    const email = `${username}@example.com`;
    return Number(insert.run(username, username.toLowerCase(), email, email, nowMs()).lastInsertRowid);
  });
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
export function insertHub(api: TestApi, spec: HubRowSpec): number {
  const { sqlite } = api.db;
  const createdAt = spec.createdAt ?? nowMs();
  const memberIds = [spec.authorId, ...insertUsers(api, spec.extraMembers ?? 0)];
  const hubId = Number(
    prepare(
      sqlite,
      `INSERT INTO Hub (id, name, nameKey, description, memberCount, postCount, authorId, createdAt) VALUES (?, ?, ?, '', ?, 0, ?, ?)`,
    ).run(spec.id ?? null, spec.name, nameKey(spec.name), memberIds.length, spec.authorId, createdAt).lastInsertRowid,
  );
  const join = prepare(sqlite, "INSERT INTO Membership (userId, hubId, createdAt) VALUES (?, ?, ?)");
  for (const userId of memberIds) join.run(userId, hubId, createdAt);
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
export function insertPost(api: TestApi, spec: PostRowSpec): number {
  const { sqlite } = api.db;
  const likers = insertUsers(api, spec.likes ?? 0);
  const postId = Number(
    prepare(
      sqlite,
      `INSERT INTO Post (title, content, description, date, likes, authorId, hubId) VALUES (?, 'Inserted content body', '', ?, ?, ?, ?)`,
    ).run(spec.title, spec.date, likers.length, spec.authorId, spec.hubId).lastInsertRowid,
  );
  prepare(sqlite, "UPDATE Hub SET postCount = postCount + 1 WHERE id = ?").run(spec.hubId);
  const like = prepare(sqlite, "INSERT INTO PostLike (userId, postId) VALUES (?, ?)");
  for (const userId of likers) like.run(userId, postId);
  api.dataChanged();
  return postId;
}

/** The path of a hub, `/hubs/{name}`, its name URL-encoded. */
export const hubPath = (name: string) => `/hubs/${encodeURIComponent(name)}`;

/** The ids of a paged body's items, in order. */
export const ids = (body: { content: { id: number }[] }) => body.content.map((item) => item.id);

/** How many rows a table holds: proof that a refused request changed nothing. */
export const countRows = (api: TestApi, table: "Hub" | "Post" | "PostLike" | "Membership") =>
  prepare<[], { n: number }>(api.db.sqlite, `SELECT COUNT(*) AS n FROM ${table}`).get()!.n;
