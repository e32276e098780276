// Who may call each mutation (issue 14): every write operation of /openapi.json, for every kind of caller: no token,
// a revoked token, a suspended account, a stranger, the owner of the thing, a moderator of its hub, the author of the
// series it belongs to, a user banned from its hub, and a site admin. One table: a row says who succeeds and with
// which status; every other signed-in caller is refused. A new mutation cannot be added without a row.
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, insertPost, joinHub } from "../helpers/fixtures.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.ts";
import { totpCode } from "../helpers/totp-codes.ts";

/** The signed-in callers, in the order each row's cells run: the owner last, after every refusal. */
const SIGNED_IN = ["stranger", "banned", "seriesAuthor", "hubModerator", "admin", "owner"] as const;
type SignedIn = (typeof SIGNED_IN)[number];

let api: TestApi;
const user = {} as Record<SignedIn | "suspended" | "target", TestUser>;
let revoked: { Authorization: string };
/** The owner's hub (hubModerator moderates it; banned is a member banned from it) and a post in it. */
let hub: { id: number; name: string };
let postId: number;
/** The owner's series with chapter 1, and an image of theirs. */
let series: { id: number; name: string };
let pageId: number;
/** seriesAuthor's series with chapter 1, on which the owner comments. */
let otherSeries: { id: number; name: string };
/** The owner's comment on otherSeries' chapter 1 (edited and liked). */
let commentId: number;
/** The TOTP secret pending on the confirmation row's fresh account. */
let pendingSecret: string;

setUpSharedTestApi(
  [
    "matrix_owner",
    "matrix_stranger",
    "matrix_hub_mod",
    "matrix_series_author",
    "matrix_banned",
    "matrix_suspended",
    "matrix_admin",
    "matrix_target",
  ],
  async (started, users) => {
    api = started;
    [user.owner, user.stranger, user.hubModerator, user.seriesAuthor, user.banned, user.suspended, user.admin, user.target] = users;
    const signedOut = await api.register("matrix_signed_out");
    revoked = signedOut.auth;
    await api.request.post("/auth/logout").set(revoked).expect(200);

    hub = await createHub(api, user.owner);
    postId = (await createPost(api, user.owner, hub.id)).id;
    await api.request.put(`/hubs/${hub.id}/moderators/${user.hubModerator.id}`).set(user.owner.auth).expect(200);
    await joinHub(api, user.banned, hub.id);
    await api.request.put(`/hubs/${hub.id}/bans/${user.banned.id}`).set(user.owner.auth).send({ reason: "Spam" }).expect(200);

    series = (await api.request.post("/series").set(user.owner.auth).send({ name: "Matrix Series", description: "About it" })).body;
    pageId = await uploadImage(api, user.owner);
    await addChapter(user.owner, series.id);
    otherSeries = (await api.request.post("/series").set(user.seriesAuthor.auth).send({ name: "Matrix Other Series" })).body;
    await addChapter(user.seriesAuthor, otherSeries.id, await uploadImage(api, user.seriesAuthor));
    commentId = await chapterComment();

    // Suspended last: the account's token made before the suspension is the one the rows send.
    await api.request.put(`/admin/users/${user.suspended.id}/ban`).set(user.admin.auth).send({ reason: "Spam" }).expect(200);
  },
  { adminUsernames: ["matrix_admin"] },
);

async function addChapter(author: TestUser, seriesId: number, image = pageId): Promise<number> {
  const res = await api.request
    .post(`/series/${seriesId}/chapters`)
    .set(author.auth)
    .send({ title: "A chapter", pages: [image] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.number as number;
}

async function chapterComment(): Promise<number> {
  const res = await api.request.post(`/series/${otherSeries.id}/1/comments`).set(user.owner.auth).send({ content: "Matrix comment" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

async function postComment(): Promise<number> {
  const res = await api.request
    .post(`/hubs/${encodeURIComponent(hub.name)}/${postId}/comments`)
    .set(user.owner.auth)
    .send({ content: "Matrix comment" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const freshPost = async () => ({ id: (await createPost(api, user.owner, hub.id)).id });

/** A post of the hub's added moderator (written as a row: they are not a member, so they could not post it). */
const moderatorsPost = async () => ({
  id: await insertPost(api, { hubId: hub.id, authorId: user.hubModerator.id, title: "The moderator's post", date: Date.now() }),
});

/** A post (`make`) removed by `by`, to be restored. */
const removedBy =
  (by: () => TestUser, make: () => Promise<Target> = freshPost) =>
  async () => {
    const removed = await make();
    const res = await api.request
      .post("/moderation/remove")
      .set(by().auth)
      .send({ subject: { type: "post", id: removed.id }, reason: "Off topic" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return removed;
  };

/** An open report by `target` on a post (`make`). */
const reported = (make: () => Promise<Target>) => async () => {
  const post = await make();
  const res = await api.request
    .post("/reports")
    .set(user.target.auth)
    .send({ subject: { type: "post", id: post.id }, reason: "spam" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number };
};

/** A passkey of the owner's, added with a software authenticator (the app's PUBLIC_URL: the default, localhost:3000). */
async function ownersPasskey(): Promise<number> {
  const options = await api.request.post("/me/passkeys/options").set(user.owner.auth);
  const response = new SoftwareAuthenticator("http://localhost:3000").create(options.body);
  const res = await api.request.post("/me/passkeys").set(user.owner.auth).send({ name: "Matrix key", response });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** A well-formed registration answer to options nobody asked for. */
const unaskedPasskey = () =>
  new SoftwareAuthenticator("http://localhost:3000").create({ challenge: "bm90LWFza2Vk", rp: { id: "localhost" }, user: { id: "MQ" } });

/** What one cell acts on: ids of its subject, and the owner when the row makes its own (an account to delete). */
interface Target {
  id?: number;
  owner?: TestUser;
}

interface Row {
  /** "METHOD /openapi/path" */
  operation: string;
  /** Which case of the operation, when it has more than one row. */
  case?: string;
  /** Makes a fresh subject for each cell, for rows whose success changes it for good (deleting, removing). */
  prepare?: () => Promise<Target>;
  url: (t: Target) => string;
  body?: (t: Target) => object;
  /** The status of a success, and who succeeds. */
  ok: number;
  who: readonly SignedIn[];
  /** The status every other signed-in caller gets (403 unless said). */
  refused?: number;
  /** Acts in the hub `banned` is banned from: they get 403 "You are banned from this hub". */
  inBannedHub?: boolean;
  /** Ends the token it is sent with: each caller sends a token of its own (a fresh login). */
  endsToken?: boolean;
  /** Ends every session of the caller: sent with a fresh login, and the caller signs in again after. */
  endsSessions?: boolean;
}

const EVERYONE = SIGNED_IN;
const ONLY_OWNER = ["owner"] as const;
const png = "upload";

const MATRIX: Row[] = [
  { operation: "POST /auth/logout", url: () => "/auth/logout", ok: 200, who: EVERYONE, endsToken: true },
  { operation: "POST /auth/logout-all", url: () => "/auth/logout-all", ok: 200, who: EVERYONE, endsSessions: true },
  {
    operation: "PUT /user/{id}/password",
    url: () => `/user/${user.owner.id}/password`,
    body: () => ({ currentPassword: user.owner.password, newPassword: user.owner.password }),
    ok: 200,
    who: ONLY_OWNER,
    endsSessions: true,
  },
  { operation: "PUT /user/{id}", url: () => `/user/${user.owner.id}`, body: () => ({}), ok: 200, who: ONLY_OWNER },
  // The owner leaves the hub and joins it again (they post in it below).
  {
    operation: "DELETE /user/{userId}/member-hubs/{hubId}",
    url: () => `/user/${user.owner.id}/member-hubs/${hub.id}`,
    ok: 200,
    who: ONLY_OWNER,
  },
  {
    operation: "POST /user/{userId}/member-hubs/{hubId}",
    url: () => `/user/${user.owner.id}/member-hubs/${hub.id}`,
    ok: 200,
    who: ONLY_OWNER,
  },
  {
    operation: "POST /user/{userId}/followed-series/{seriesId}",
    url: () => `/user/${user.owner.id}/followed-series/${series.id}`,
    ok: 200,
    who: ONLY_OWNER,
  },
  {
    operation: "DELETE /user/{userId}/followed-series/{seriesId}",
    url: () => `/user/${user.owner.id}/followed-series/${series.id}`,
    ok: 200,
    who: ONLY_OWNER,
  },
  { operation: "POST /hubs", url: () => "/hubs", body: () => ({ name: `Matrix ${Math.random()}` }), ok: 201, who: EVERYONE },
  {
    operation: "PUT /hubs/{id}",
    url: () => `/hubs/${hub.id}`,
    body: () => ({ name: hub.name, description: "Edited" }),
    ok: 200,
    who: ONLY_OWNER,
  },
  // The hub's creator (or an admin) adds and removes moderators: here `target`.
  {
    operation: "PUT /hubs/{id}/moderators/{userId}",
    url: () => `/hubs/${hub.id}/moderators/${user.target.id}`,
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "DELETE /hubs/{id}/moderators/{userId}",
    url: () => `/hubs/${hub.id}/moderators/${user.target.id}`,
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "POST /hubs/{hubName}/{postId}/like",
    url: () => `/hubs/${hub.name}/${postId}/like`,
    ok: 200,
    who: ["stranger", "seriesAuthor", "hubModerator", "admin", "owner"],
    inBannedHub: true,
  },
  // A banned user may still take back a like they gave.
  { operation: "DELETE /hubs/{hubName}/{postId}/like", url: () => `/hubs/${hub.name}/${postId}/like`, ok: 200, who: EVERYONE },
  // Posting needs membership: of these callers only the owner (the creator) and `banned` (banned) are members.
  {
    operation: "POST /hub-posts",
    url: () => "/hub-posts",
    body: () => ({ title: "A new post", content: "Long enough content", hubId: hub.id }),
    ok: 201,
    who: ONLY_OWNER,
    inBannedHub: true,
  },
  {
    operation: "PUT /hub-posts/{id}",
    url: () => `/hub-posts/${postId}`,
    body: () => ({ title: "An edited title", content: "Edited content, long enough" }),
    ok: 200,
    who: ONLY_OWNER,
  },
  { operation: "POST /series", url: () => "/series", body: () => ({ name: `Matrix ${Math.random()}` }), ok: 201, who: EVERYONE },
  {
    operation: "PUT /series/{id}",
    url: () => `/series/${series.id}`,
    body: () => ({ name: series.name, description: "Edited" }),
    ok: 200,
    who: ONLY_OWNER,
  },
  // Others name the owner's image: refused for not being the series' author before the page is looked at.
  {
    operation: "POST /series/{name}/chapters",
    url: () => `/series/${series.id}/chapters`,
    body: () => ({ title: "Two", pages: [pageId] }),
    ok: 201,
    who: ONLY_OWNER,
  },
  {
    operation: "PUT /series/{name}/{chapterNumber}",
    url: () => `/series/${series.id}/1`,
    body: () => ({ title: "Edited" }),
    ok: 200,
    who: ONLY_OWNER,
  },
  { operation: "POST /series/{name}/{chapterNumber}/like", url: () => `/series/${series.id}/1/like`, ok: 200, who: EVERYONE },
  { operation: "DELETE /series/{name}/{chapterNumber}/like", url: () => `/series/${series.id}/1/like`, ok: 200, who: EVERYONE },
  { operation: "POST /images", url: () => "/images", body: () => ({ [png]: true }), ok: 201, who: EVERYONE },
  // Acts on the caller's own notifications only (others' ids are ignored).
  { operation: "POST /me/notifications/read", url: () => "/me/notifications/read", body: () => ({ all: true }), ok: 200, who: EVERYONE },
  {
    operation: "POST /hubs/{hubName}/{postId}/comments",
    url: () => `/hubs/${encodeURIComponent(hub.name)}/${postId}/comments`,
    body: () => ({ content: "A comment" }),
    ok: 201,
    who: ["stranger", "seriesAuthor", "hubModerator", "admin", "owner"],
    inBannedHub: true,
  },
  {
    operation: "POST /series/{name}/{chapterNumber}/comments",
    url: () => `/series/${series.id}/1/comments`,
    body: () => ({ content: "A comment" }),
    ok: 201,
    who: EVERYONE,
  },
  { operation: "PUT /comments/{id}", url: () => `/comments/${commentId}`, body: () => ({ content: "Edited" }), ok: 200, who: ONLY_OWNER },
  { operation: "POST /comments/{id}/like", url: () => `/comments/${commentId}/like`, ok: 200, who: EVERYONE },
  { operation: "DELETE /comments/{id}/like", url: () => `/comments/${commentId}/like`, ok: 200, who: EVERYONE },
  {
    operation: "DELETE /comments/{id}",
    case: "on a chapter",
    prepare: async () => ({ id: await chapterComment() }),
    url: (t) => `/comments/${t.id}`,
    ok: 200,
    who: ["seriesAuthor", "admin", "owner"],
  },
  {
    operation: "DELETE /comments/{id}",
    case: "on a hub post",
    prepare: async () => ({ id: await postComment() }),
    url: (t) => `/comments/${t.id}`,
    ok: 200,
    who: ["hubModerator", "admin", "owner"],
  },
  // Deleting (docs/api.md §15): a fresh thing of the owner's for each caller.
  {
    operation: "DELETE /hub-posts/{id}",
    prepare: freshPost,
    url: (t) => `/hub-posts/${t.id}`,
    ok: 200,
    who: ["hubModerator", "admin", "owner"],
  },
  {
    operation: "DELETE /series/{name}/{chapterNumber}",
    prepare: async () => ({ id: await addChapter(user.owner, series.id) }),
    url: (t) => `/series/${series.id}/${t.id}`,
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "DELETE /series/{id}",
    prepare: async () => ({
      id: (
        await api.request
          .post("/series")
          .set(user.owner.auth)
          .send({ name: `Doomed ${Math.random()}` })
      ).body.id,
    }),
    url: (t) => `/series/${t.id}`,
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "DELETE /hubs/{id}",
    prepare: async () => {
      const doomed = await createHub(api, user.owner);
      await api.request.put(`/hubs/${doomed.id}/moderators/${user.hubModerator.id}`).set(user.owner.auth).expect(200);
      return { id: doomed.id };
    },
    url: (t) => `/hubs/${t.id}`,
    ok: 200,
    who: ["admin", "owner"],
  },
  // Moderation (docs/api.md §14, "Removal", "Reports"). Reporting your own post is a 400.
  {
    operation: "POST /reports",
    url: () => "/reports",
    body: () => ({ subject: { type: "post", id: postId }, reason: "spam" }),
    ok: 201,
    who: ["stranger", "banned", "seriesAuthor", "hubModerator", "admin"],
    refused: 400,
  },
  // Reports about one's own content go to the others (docs/api.md "Reports"): here the owner's post, which the owner
  // (the hub's creator) may not judge, then the added moderator's post, which they may not.
  {
    operation: "POST /reports/{id}/resolve",
    case: "the owner's post",
    prepare: reported(freshPost),
    url: (t) => `/reports/${t.id}/resolve`,
    body: () => ({ action: "dismiss", reason: "Fine as it is" }),
    ok: 200,
    who: ["hubModerator", "admin"],
  },
  {
    operation: "POST /reports/{id}/resolve",
    case: "the hub moderator's own post",
    prepare: reported(moderatorsPost),
    url: (t) => `/reports/${t.id}/resolve`,
    body: () => ({ action: "remove", reason: "Spam" }),
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "POST /moderation/remove",
    prepare: freshPost,
    url: () => "/moderation/remove",
    body: (t) => ({ subject: { type: "post", id: t.id }, reason: "Off topic" }),
    ok: 200,
    who: ["hubModerator", "admin", "owner"],
  },
  // Restoring (docs/api.md "Removal"): whoever removed it; else those who moderate it with at least the remover's
  // standing (admin > the hub's creator > an added moderator); never the author of what someone else removed.
  {
    operation: "POST /moderation/restore",
    case: "the owner's own removal of their post",
    prepare: removedBy(() => user.owner),
    url: () => "/moderation/restore",
    body: (t) => ({ subject: { type: "post", id: t.id }, reason: "On topic after all" }),
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "POST /moderation/restore",
    case: "the owner's post, removed by the hub moderator",
    prepare: removedBy(() => user.hubModerator),
    url: () => "/moderation/restore",
    body: (t) => ({ subject: { type: "post", id: t.id }, reason: "On topic after all" }),
    ok: 200,
    who: ["hubModerator", "admin"],
  },
  {
    operation: "POST /moderation/restore",
    case: "the hub moderator's post, removed by the owner",
    prepare: removedBy(() => user.owner, moderatorsPost),
    url: () => "/moderation/restore",
    body: (t) => ({ subject: { type: "post", id: t.id }, reason: "On topic after all" }),
    ok: 200,
    who: ["admin", "owner"],
  },
  {
    operation: "POST /moderation/restore",
    case: "the hub moderator's post, removed by an admin",
    prepare: removedBy(() => user.admin, moderatorsPost),
    url: () => "/moderation/restore",
    body: (t) => ({ subject: { type: "post", id: t.id }, reason: "On topic after all" }),
    ok: 200,
    who: ["admin"],
  },
  {
    operation: "PUT /hubs/{id}/bans/{userId}",
    url: () => `/hubs/${hub.id}/bans/${user.target.id}`,
    body: () => ({ reason: "Spam", days: 7 }),
    ok: 200,
    who: ["hubModerator", "admin", "owner"],
  },
  {
    operation: "DELETE /hubs/{id}/bans/{userId}",
    url: () => `/hubs/${hub.id}/bans/${user.target.id}`,
    ok: 200,
    who: ["hubModerator", "admin", "owner"],
  },
  {
    operation: "PUT /admin/users/{id}/ban",
    url: () => `/admin/users/${user.target.id}/ban`,
    body: () => ({ reason: "Spam" }),
    ok: 200,
    who: ["admin"],
  },
  { operation: "DELETE /admin/users/{id}/ban", url: () => `/admin/users/${user.target.id}/ban`, ok: 200, who: ["admin"] },
  { operation: "PUT /me/blocks/{userId}", url: () => `/me/blocks/${user.target.id}`, ok: 200, who: EVERYONE },
  { operation: "DELETE /me/blocks/{userId}", url: () => `/me/blocks/${user.target.id}`, ok: 200, who: EVERYONE },
  // A new link for the caller's own address (docs/api.md "Verified email addresses"): the matrix accounts never used theirs.
  { operation: "POST /me/verify-email/resend", url: () => "/me/verify-email/resend", ok: 202, who: EVERYONE },
  // Notification mail settings are the caller's own (docs/api.md "Notification mail").
  {
    operation: "PUT /me/email-preferences",
    url: () => "/me/email-preferences",
    body: () => ({ chapter: "weekly" }),
    ok: 200,
    who: EVERYONE,
  },
  // Second factors are the caller's own (docs/api.md "Second factors"). The confirmation's owner is an account made for
  // the cell with a pending secret; the others have none yet (409): this row runs before the set-up's.
  {
    operation: "POST /me/2fa/totp/confirm",
    prepare: async () => {
      const owner = await api.register();
      pendingSecret = (await api.request.post("/me/2fa/totp").set(owner.auth).expect(200)).body.secret;
      return { owner };
    },
    url: () => "/me/2fa/totp/confirm",
    body: () => ({ code: totpCode(pendingSecret, Date.now()) }),
    ok: 200,
    who: ONLY_OWNER,
    refused: 409,
  },
  { operation: "POST /me/2fa/totp", url: () => "/me/2fa/totp", ok: 200, who: EVERYONE },
  // Every matrix account has the same password.
  { operation: "DELETE /me/2fa/totp", url: () => "/me/2fa/totp", body: () => ({ password: user.owner.password }), ok: 200, who: EVERYONE },
  // Passkeys are the caller's own (docs/api.md "Passkeys"): anyone signed in asks for options; adding one needs the
  // answer to the caller's own options, so an answer nobody asked for is a 400 for everyone signed in (never a 403);
  // another's passkey is a 404, as one that does not exist.
  { operation: "POST /me/passkeys/options", url: () => "/me/passkeys/options", ok: 200, who: EVERYONE },
  {
    operation: "POST /me/passkeys",
    url: () => "/me/passkeys",
    body: () => ({ name: "Key", response: unaskedPasskey() }),
    ok: 400,
    who: EVERYONE,
  },
  {
    operation: "DELETE /me/passkeys/{id}",
    prepare: async () => ({ id: await ownersPasskey() }),
    url: (t) => `/me/passkeys/${t.id}`,
    ok: 200,
    who: ONLY_OWNER,
    refused: 404,
  },
  // Reading progress is the caller's own: any signed-in user, in any series they can open.
  {
    operation: "PUT /me/progress/{seriesId}",
    url: () => `/me/progress/${otherSeries.id}`,
    body: () => ({ chapterNumber: 1, page: 1 }),
    ok: 200,
    who: EVERYONE,
  },
  // Each cell's owner is an account made for it: the one that is deleted.
  {
    operation: "DELETE /user/{id}",
    prepare: async () => ({ owner: await api.register() }),
    url: (t) => `/user/${t.owner!.id}`,
    body: (t) => ({ password: t.owner!.password }),
    ok: 200,
    who: ONLY_OWNER,
  },
];

/** Operations anyone may call without a token. */
const PUBLIC_WRITES = [
  // A reset link is asked for and used without signing in (docs/api.md "Password reset"): tests/api/password-reset.test.ts.
  "POST /auth/password-reset",
  "POST /auth/password-reset/confirm",
  "POST /auth/register",
  "POST /auth/verify-email",
  // A mail's signed one-click unsubscribe needs no sign-in (docs/api.md "Notification mail"): tests/api/notification-mail.test.ts.
  "POST /email-preferences/unsubscribe",
  "POST /auth/login",
  "POST /auth/login/second-factor",
  "POST /auth/passkey/options",
  "POST /auth/passkey",
];

async function freshAuth(who: TestUser) {
  const res = await api.request.post("/auth/login").send({ username: who.username, password: who.password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Authorization: `Bearer ${res.body.accessToken}` };
}

function send(row: Row, target: Target, auth?: { Authorization: string }) {
  const [method] = row.operation.split(" ") as [string];
  const test = api.request[method.toLowerCase() as "post" | "put" | "delete"](row.url(target));
  if (auth) test.set(auth);
  const body = row.body?.(target);
  if (body && png in body) return imageBody(test);
  return body ? test.send(body) : test;
}

async function imageBody(test: ReturnType<TestApi["request"]["post"]>) {
  return test.attach("file", await imageBytes(), "matrix.png");
}

function expected(row: Row, caller: SignedIn): { status: number; message?: string } {
  if (caller === "banned" && row.inBannedHub) return { status: 403, message: "You are banned from this hub" };
  return { status: row.who.includes(caller) ? row.ok : (row.refused ?? 403) };
}

describe("authorization matrix", () => {
  it("has a row for every write operation of the API", async () => {
    const doc = (await supertest(api.app).get("/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== "get")
        .map((m) => `${m.toUpperCase()} ${path}`),
    );

    expect([...new Set(MATRIX.map((r) => r.operation)), ...PUBLIC_WRITES].sort()).toEqual(writes.sort());
  });

  for (const row of MATRIX) {
    describe(row.case ? `${row.operation} (${row.case})` : row.operation, () => {
      const target = async (): Promise<Target> => (row.prepare ? row.prepare() : {});

      it("refuses a caller without a token, a revoked token and a suspended account's token (401)", async () => {
        expectError(await send(row, await target()), 401);
        expectError(await send(row, await target(), revoked), 401);
        expectError(await send(row, await target(), user.suspended.auth), 401);
      });

      for (const caller of SIGNED_IN) {
        const { status, message } = expected(row, caller);
        it(`answers ${status} to ${caller}`, async () => {
          const t = await target();
          const actor = caller === "owner" && t.owner ? t.owner : user[caller];
          const res = await send(row, t, row.endsToken || row.endsSessions ? await freshAuth(actor) : actor.auth);
          if (row.endsSessions) actor.auth = await freshAuth(actor);
          if (status >= 400) expectError(res, status, message);
          else expect(res.status, JSON.stringify(res.body)).toBe(status);
        });
      }
    });
  }
});

// The report queue is a read, but it decides who may judge what (docs/api.md "Reports"): a report about the hub
// moderator's own post is in the owner's (the hub's creator) and the admin's queues, not in theirs.
describe("GET /reports: reports about one's own content", () => {
  it("are left out of that moderator's queue and shown to the hub's creator and to admins", async () => {
    // The rows above suspended `target` for a while, which ended its tokens: it signs in again to report.
    user.target.auth = await freshAuth(user.target);
    const { id } = await reported(moderatorsPost)();
    const queue = async (caller: SignedIn) => {
      const res = await api.request.get("/reports?per_page=100").set(user[caller].auth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.content as { id: number }[]).map((r) => r.id);
    };
    expect(await queue("hubModerator")).not.toContain(id);
    expect(await queue("owner")).toContain(id);
    expect(await queue("admin")).toContain(id);
  });
});
