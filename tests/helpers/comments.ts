// Test data for comments: a post or a chapter to comment on, comments through the API, many signed-in users fast.
import { expect } from "vitest";
import { signAccessToken } from "../../server/http/auth.ts";
import type { TestApi, TestUser } from "./api.ts";
import { createHub, createPost, hubPath, insertUsers, joinHub, uniqueName } from "./fixtures.ts";
import { uploadPng } from "./images.ts";

/** A new hub of `creator` with one post by `author` (a member; the creator by default): the post's path and ids. */
export async function newPost(api: TestApi, creator: TestUser, author: TestUser = creator) {
  const hub = await createHub(api, creator);
  if (author !== creator) await joinHub(api, author, hub.id);
  const post = await createPost(api, author, hub.id);
  return { hub, post, path: `${hubPath(hub.name)}/${post.id}` };
}

/** A new series of `author` with one chapter: the chapter's path (`/series/{name}/1`) and id. */
export async function newChapter(api: TestApi, author: TestUser) {
  const series = await api.request
    .post("/series")
    .set(author.auth)
    .send({ name: uniqueName("Series") });
  expect(series.status, JSON.stringify(series.body)).toBe(201);
  const page = await uploadPng(api, author);
  const path = `/series/${encodeURIComponent(series.body.name as string)}`;
  const chapter = await api.request
    .post(`${path}/chapters`)
    .set(author.auth)
    .send({ title: "One", pages: [page] });
  expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
  return { seriesPath: path, path: `${path}/1`, id: chapter.body.id as number };
}

/** Comments through the API (201 expected) and answers the comment. */
export async function addComment(api: TestApi, user: TestUser, placePath: string, content: string, parentId?: number) {
  const res = await api.request
    .post(`${placePath}/comments`)
    .set(user.auth)
    .send(parentId === undefined ? { content } : { content, parentId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; parentId: number | null; content: string };
}

/** `count` users written straight into the table, each with a valid access token. */
export async function signedInUsers(api: TestApi, count: number): Promise<{ id: number; auth: { Authorization: string } }[]> {
  const ids = await insertUsers(api, count);
  const rows = await api.db.kysely.selectFrom("User").select(["id", "username", "email"]).where("id", "in", ids).execute();
  return rows.map((u) => ({
    id: u.id,
    auth: { Authorization: `Bearer ${signAccessToken({ ...u, tokenGeneration: 0 }, api.config)}` },
  }));
}

/** The notification rows about a comment or a post (kind, recipient, actor, subject), in id order. */
export async function notificationsAbout(api: TestApi, subject: { commentId: number } | { postId: number; commentId: null }) {
  let query = api.db.kysely
    .selectFrom("Notification")
    .select(["userId", "kind", "actorId", "commentId", "postId", "chapterId"])
    .orderBy("id");
  if (subject.commentId === null) query = query.where("postId", "=", (subject as { postId: number }).postId).where("commentId", "is", null);
  else query = query.where("commentId", "=", subject.commentId);
  return query.execute();
}

export async function unreadOf(api: TestApi, userId: number): Promise<number> {
  return (await api.db.kysely.selectFrom("User").select("unreadNotifications").where("id", "=", userId).executeTakeFirstOrThrow())
    .unreadNotifications;
}
