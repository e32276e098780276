// Who may call each mutation: no token, a revoked token, a stranger's token and the owner's token. The
// list must name every write operation of /openapi.json, so a new mutation cannot be added without a row.
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost } from "../helpers/fixtures.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";

let api: TestApi;
let owner: TestUser;
let stranger: TestUser;
let revoked: { Authorization: string };
let hub: { id: number; name: string };
let postId: number;
let series: { id: number; name: string };
let pageId: number;
// Comments: one the owner edits and likes, one the owner deletes.
let commentId: number;
let deletableCommentId: number;
// Deleted by the last rows (CONTRACT.md 12): a hub with a post, a series with a chapter, apart from those above.
let doomedHub: { id: number; name: string };
let doomedPostId: number;
let doomedSeries: { id: number; name: string };

setUpSharedTestApi(["matrix_owner", "matrix_stranger"], async (started, users) => {
  api = started;
  [owner, stranger] = users;
  const signedOut = await api.register("matrix_signed_out");
  revoked = signedOut.auth;
  await api.request.post("/auth/logout").set(revoked);
  hub = await createHub(api, owner);
  postId = (await createPost(api, owner, hub.id)).id;
  series = (await api.request.post("/series").set(owner.auth).send({ name: "Matrix Series", description: "About it" })).body;
  pageId = await uploadImage(api, owner);
  const chapter = await api.request
    .post(`/series/${series.id}/chapters`)
    .set(owner.auth)
    .send({ title: "One", pages: [pageId] });
  expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
  const comment = (content: string) => api.request.post(`/series/${series.id}/1/comments`).set(owner.auth).send({ content });
  commentId = (await comment("Matrix comment")).body.id;
  deletableCommentId = (await comment("Matrix comment to delete")).body.id;
  doomedHub = await createHub(api, owner);
  doomedPostId = (await createPost(api, owner, doomedHub.id)).id;
  doomedSeries = (await api.request.post("/series").set(owner.auth).send({ name: "Matrix Doomed Series" })).body;
  await api.request
    .post(`/series/${doomedSeries.id}/chapters`)
    .set(owner.auth)
    .send({ title: "One", pages: [pageId] })
    .expect(201);
});

interface Row {
  /** "METHOD /openapi/path" */
  operation: string;
  url: () => string;
  body?: () => object;
  /** Status for a signed-in user who is not the owner (or acts for someone else). */
  stranger: number;
  /** Status for the owner. */
  owner: number;
  /** Ends the token it is sent with: sent with a token of its own (a fresh login), not the user's main one. */
  endsToken?: boolean;
  /** Ends every session of the caller (password change, log out everywhere): sent with a fresh login, and the caller signs in again after. */
  endsSessions?: boolean;
}

const png = "upload";
const MATRIX: Row[] = [
  { operation: "POST /auth/logout", url: () => "/auth/logout", stranger: 200, owner: 200, endsToken: true },
  { operation: "POST /auth/logout-all", url: () => "/auth/logout-all", stranger: 200, owner: 200, endsSessions: true },
  {
    operation: "PUT /user/{id}/password",
    url: () => `/user/${owner.id}/password`,
    body: () => ({ currentPassword: owner.password, newPassword: owner.password }),
    stranger: 403,
    owner: 200,
    endsSessions: true,
  },
  { operation: "PUT /user/{id}", url: () => `/user/${owner.id}`, body: () => ({}), stranger: 403, owner: 200 },
  // The owner leaves the hub and joins it again (they post in it below).
  {
    operation: "DELETE /user/{userId}/member-hubs/{hubId}",
    url: () => `/user/${owner.id}/member-hubs/${hub.id}`,
    stranger: 403,
    owner: 200,
  },
  { operation: "POST /user/{userId}/member-hubs/{hubId}", url: () => `/user/${owner.id}/member-hubs/${hub.id}`, stranger: 403, owner: 200 },
  {
    operation: "POST /user/{userId}/followed-series/{seriesId}",
    url: () => `/user/${owner.id}/followed-series/${series.id}`,
    stranger: 403,
    owner: 200,
  },
  {
    operation: "DELETE /user/{userId}/followed-series/{seriesId}",
    url: () => `/user/${owner.id}/followed-series/${series.id}`,
    stranger: 403,
    owner: 200,
  },
  { operation: "POST /hubs", url: () => "/hubs", body: () => ({ name: `Matrix ${Math.random()}` }), stranger: 201, owner: 201 },
  {
    operation: "PUT /hubs/{id}",
    url: () => `/hubs/${hub.id}`,
    body: () => ({ name: hub.name, description: "Edited" }),
    stranger: 403,
    owner: 200,
  },
  // The hub's creator (or an admin) adds and removes moderators: here the stranger, who may not do it themselves.
  {
    operation: "PUT /hubs/{id}/moderators/{userId}",
    url: () => `/hubs/${hub.id}/moderators/${stranger.id}`,
    stranger: 403,
    owner: 200,
  },
  {
    operation: "DELETE /hubs/{id}/moderators/{userId}",
    url: () => `/hubs/${hub.id}/moderators/${stranger.id}`,
    stranger: 403,
    owner: 200,
  },
  { operation: "POST /hubs/{hubName}/{postId}/like", url: () => `/hubs/${hub.name}/${postId}/like`, stranger: 200, owner: 200 },
  { operation: "DELETE /hubs/{hubName}/{postId}/like", url: () => `/hubs/${hub.name}/${postId}/like`, stranger: 200, owner: 200 },
  // Posting needs membership: the stranger never joined this hub.
  {
    operation: "POST /hub-posts",
    url: () => "/hub-posts",
    body: () => ({ title: "A new post", content: "Long enough content", hubId: hub.id }),
    stranger: 403,
    owner: 201,
  },
  {
    operation: "PUT /hub-posts/{id}",
    url: () => `/hub-posts/${postId}`,
    body: () => ({ title: "An edited title", content: "Edited content, long enough" }),
    stranger: 403,
    owner: 200,
  },
  { operation: "POST /series", url: () => "/series", body: () => ({ name: `Matrix ${Math.random()}` }), stranger: 201, owner: 201 },
  {
    operation: "PUT /series/{id}",
    url: () => `/series/${series.id}`,
    body: () => ({ name: series.name, description: "Edited" }),
    stranger: 403,
    owner: 200,
  },
  // The stranger names the owner's image: refused for not being the series' author before the page is looked at.
  {
    operation: "POST /series/{name}/chapters",
    url: () => `/series/${series.id}/chapters`,
    body: () => ({ title: "Two", pages: [pageId] }),
    stranger: 403,
    owner: 201,
  },
  {
    operation: "PUT /series/{name}/{chapterNumber}",
    url: () => `/series/${series.id}/1`,
    body: () => ({ title: "Edited" }),
    stranger: 403,
    owner: 200,
  },
  { operation: "POST /series/{name}/{chapterNumber}/like", url: () => `/series/${series.id}/1/like`, stranger: 200, owner: 200 },
  { operation: "DELETE /series/{name}/{chapterNumber}/like", url: () => `/series/${series.id}/1/like`, stranger: 200, owner: 200 },
  { operation: "POST /images", url: () => "/images", body: () => ({ [png]: true }), stranger: 201, owner: 201 },
  // Acts on the caller's own notifications only (others' ids are ignored): everyone signed in gets 200.
  { operation: "POST /me/notifications/read", url: () => "/me/notifications/read", body: () => ({ all: true }), stranger: 200, owner: 200 },
  // Anyone signed in may comment (docs/api.md §10); only the author edits; the author (or the place's owner) deletes.
  {
    operation: "POST /hubs/{hubName}/{postId}/comments",
    url: () => `/hubs/${encodeURIComponent(hub.name)}/${postId}/comments`,
    body: () => ({ content: "A comment" }),
    stranger: 201,
    owner: 201,
  },
  {
    operation: "POST /series/{name}/{chapterNumber}/comments",
    url: () => `/series/${series.id}/1/comments`,
    body: () => ({ content: "A comment" }),
    stranger: 201,
    owner: 201,
  },
  { operation: "PUT /comments/{id}", url: () => `/comments/${commentId}`, body: () => ({ content: "Edited" }), stranger: 403, owner: 200 },
  { operation: "DELETE /comments/{id}", url: () => `/comments/${deletableCommentId}`, stranger: 403, owner: 200 },
  { operation: "POST /comments/{id}/like", url: () => `/comments/${commentId}/like`, stranger: 200, owner: 200 },
  { operation: "DELETE /comments/{id}/like", url: () => `/comments/${commentId}/like`, stranger: 200, owner: 200 },
  // Deleting (moderators and admins: tests/api/deleting.test.ts): last, on things of their own.
  { operation: "DELETE /hub-posts/{id}", url: () => `/hub-posts/${doomedPostId}`, stranger: 403, owner: 200 },
  { operation: "DELETE /series/{name}/{chapterNumber}", url: () => `/series/${doomedSeries.id}/1`, stranger: 403, owner: 200 },
  { operation: "DELETE /series/{id}", url: () => `/series/${doomedSeries.id}`, stranger: 403, owner: 200 },
  { operation: "DELETE /hubs/{id}", url: () => `/hubs/${doomedHub.id}`, stranger: 403, owner: 200 },
];

/** Operations anyone may call without a token. */
const PUBLIC_WRITES = ["POST /auth/register", "POST /auth/login"];

async function freshAuth(user: TestUser) {
  const res = await api.request.post("/auth/login").send({ username: user.username, password: user.password });
  return { Authorization: `Bearer ${res.body.accessToken}` };
}

function send(row: Row, auth?: { Authorization: string }) {
  const [method] = row.operation.split(" ") as [string];
  const test = api.request[method.toLowerCase() as "post" | "put" | "delete"](row.url());
  if (auth) test.set(auth);
  const body = row.body?.();
  if (body && png in body) return imageBody(test);
  return body ? test.send(body) : test;
}

async function imageBody(test: ReturnType<TestApi["request"]["post"]>) {
  return test.attach("file", await imageBytes(), "matrix.png");
}

describe("authorization matrix", () => {
  it("has a row for every write operation of the API", async () => {
    const doc = (await supertest(api.app).get("/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== "get")
        .map((m) => `${m.toUpperCase()} ${path}`),
    );

    expect([...MATRIX.map((r) => r.operation), ...PUBLIC_WRITES].sort()).toEqual(writes.sort());
  });

  for (const row of MATRIX) {
    describe(row.operation, () => {
      it("refuses a caller without a token (401)", async () => {
        expectError(await send(row), 401);
      });

      it("refuses a revoked token (401)", async () => {
        expectError(await send(row, revoked), 401);
      });

      it(`answers ${row.stranger} to someone else`, async () => {
        const res = await send(row, row.endsToken || row.endsSessions ? await freshAuth(stranger) : stranger.auth);
        if (row.endsSessions) stranger.auth = await freshAuth(stranger);
        if (row.stranger >= 400) expectError(res, row.stranger);
        else expect(res.status, JSON.stringify(res.body)).toBe(row.stranger);
      });

      it(`answers ${row.owner} to the owner`, async () => {
        const res = await send(row, row.endsToken || row.endsSessions ? await freshAuth(owner) : owner.auth);
        if (row.endsSessions) owner.auth = await freshAuth(owner);
        expect(res.status, JSON.stringify(res.body)).toBe(row.owner);
      });
    });
  }
});
