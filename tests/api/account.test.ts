// Account settings (docs/api.md §12): password change, email change, log out everywhere, export.
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, joinHub } from "../helpers/fixtures.ts";
import { imageBytes, keptImageBytes, removeKeptOriginal, uploadImage } from "../helpers/images.ts";
import { unzip } from "../helpers/zip.ts";

const FAILURE_LIMIT = 3;
let api: TestApi;
let other: TestUser;
setUpSharedTestApi(
  ["account_other"],
  (started, users) => {
    api = started;
    [other] = users;
  },
  { loginFailureLimit: FAILURE_LIMIT },
);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const login = (username: string, password: string) => api.request.post("/auth/login").send({ username, password });
const signIn = async (user: TestUser) => bearer((await login(user.username, user.password)).body.accessToken as string);
const me = (user: TestUser, auth = user.auth) => api.request.get(`/user/${user.username}`).set(auth);
let seq = 0;
const newUser = () => api.register(`account_${process.pid}_${++seq}`);

describe("PUT /user/{id}/password", () => {
  it("changes the password: every other token stops working, the answered one works", async () => {
    const user = await newUser();
    const laptop = await signIn(user);

    const res = await api.request
      .put(`/user/${user.id}/password`)
      .set(user.auth)
      .send({ currentPassword: user.password, newPassword: "a-new-secret" });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(["accessToken"]);
    expectError(await me(user), 401, "Your session has ended. Please sign in again.");
    expectError(await me(user, laptop), 401);
    expect((await me(user, bearer(res.body.accessToken))).body.email).toBe(user.email);
    expectError(await login(user.username, user.password), 401);
    expect((await login(user.username, "a-new-secret")).status).toBe(200);
  });

  it("ends the old tokens on another API instance on the same database too", async () => {
    const user = await newUser();
    const second = supertest(createApp({ db: api.db, config: api.config }));
    expect((await second.get(`/user/${user.username}`).set(user.auth)).status).toBe(200);

    await api.request.put(`/user/${user.id}/password`).set(user.auth).send({ currentPassword: user.password, newPassword: "another1" });

    expect((await second.get(`/user/${user.username}`).set(user.auth)).status).toBe(401);
  });

  it("refuses a wrong current password with a field error, and changes nothing", async () => {
    const user = await newUser();
    const res = await api.request
      .put(`/user/${user.id}/password`)
      .set(user.auth)
      .send({ currentPassword: "wrong-one", newPassword: "a-new-secret" });

    expectError(res, 400, "Current password is incorrect");
    expect(res.body.errors).toEqual([{ field: "currentPassword", message: "Current password is incorrect" }]);
    expect((await me(user)).status).toBe(200);
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it("holds the new password to the registration rules", async () => {
    const user = await newUser();
    const short = await api.request
      .put(`/user/${user.id}/password`)
      .set(user.auth)
      .send({ currentPassword: user.password, newPassword: "abc" });
    expectError(short, 400);
    expect(short.body.errors).toEqual([{ field: "newPassword", message: "Password must be at least 6 characters" }]);
    const long = await api.request
      .put(`/user/${user.id}/password`)
      .set(user.auth)
      .send({ currentPassword: user.password, newPassword: "é".repeat(37) });
    expect(long.body.errors).toEqual([{ field: "newPassword", message: "Password must be at most 72 bytes" }]);
    const missing = await api.request.put(`/user/${user.id}/password`).set(user.auth).send({ newPassword: "a-new-secret" });
    expect(missing.body.errors).toEqual([{ field: "currentPassword", message: "Current password is required" }]);
  });

  it("is the user's own only (403), and needs a token (401)", async () => {
    const user = await newUser();
    const body = { currentPassword: user.password, newPassword: "a-new-secret" };
    expectError(
      await api.request.put(`/user/${user.id}/password`).set(other.auth).send(body),
      403,
      "You can only change your own password",
    );
    expectError(await api.request.put(`/user/${user.id}/password`).send(body), 401);
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it("throttles guessing with a stolen token: after the failures allowed, even the right password waits (429)", async () => {
    const user = await newUser();
    const guess = (currentPassword: string) =>
      api.request.put(`/user/${user.id}/password`).set(user.auth).send({ currentPassword, newPassword: "stolen-now" });
    for (let i = 0; i < FAILURE_LIMIT; i++) expectError(await guess(`guess-${i}`), 400);

    const res = await guess(user.password);

    expectError(res, 429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect((await login(user.username, user.password)).status).toBe(200);
  });
});

describe("PUT /user/{id} with an email", () => {
  it("with the right current password, sends the new address a link; the account keeps its own until it is verified", async () => {
    const user = await newUser();
    const newEmail = `Changed.${user.username}@Example.com`;

    const res = await api.request.put(`/user/${user.id}`).set(user.auth).send({ email: newEmail, currentPassword: user.password });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The change takes effect once verified (docs/api.md "Verified email addresses", tests/api/email-verification.test.ts).
    expect(res.body).toMatchObject({ email: user.email, pendingEmail: newEmail });
    // Tokens signed before keep working (docs/api.md §12): the API reads the email from the account.
    expect((await me(user)).body).toMatchObject({ email: user.email, pendingEmail: newEmail });
    const stillTaken = await api.request
      .post("/auth/register")
      .send({ username: `${user.username}_c`, email: user.email, password: "secret123" });
    expectError(stillTaken, 409, "Email is already registered");
  });

  it("needs the current password, and the right one (400 field errors); nothing changes", async () => {
    const user = await newUser();
    const without = await api.request.put(`/user/${user.id}`).set(user.auth).send({ email: "someone.new@example.com" });
    expectError(without, 400);
    expect(without.body.errors).toEqual([{ field: "currentPassword", message: "Current password is required to change your email" }]);
    const wrong = await api.request
      .put(`/user/${user.id}`)
      .set(user.auth)
      .send({ email: "someone.new@example.com", currentPassword: "not-it" });
    expectError(wrong, 400, "Current password is incorrect");
    expect(wrong.body.errors).toEqual([{ field: "currentPassword", message: "Current password is incorrect" }]);
    const invalid = await api.request
      .put(`/user/${user.id}`)
      .set(user.auth)
      .send({ email: "not an email", currentPassword: user.password });
    expect(invalid.body.errors).toEqual([{ field: "email", message: "Please enter a valid email address" }]);
    expect((await me(user)).body.email).toBe(user.email);
  });

  it("keeps emails unique case-insensitively (409), and lets the user keep their own in another case", async () => {
    const user = await newUser();
    const res = await api.request
      .put(`/user/${user.id}`)
      .set(user.auth)
      .send({ email: other.email.toUpperCase(), currentPassword: user.password });
    expectError(res, 409, "Email is already registered");
    expect((await me(user)).body.email).toBe(user.email);

    const own = await api.request
      .put(`/user/${user.id}`)
      .set(user.auth)
      .send({ email: user.email.toUpperCase(), currentPassword: user.password });
    expect(own.status).toBe(200);
    expect(own.body.email).toBe(user.email.toUpperCase());
  });

  it("is the user's own only", async () => {
    const user = await newUser();
    const res = await api.request
      .put(`/user/${user.id}`)
      .set(other.auth)
      .send({ email: "x.y@example.com", currentPassword: other.password });
    expectError(res, 403);
  });
});

describe("POST /auth/logout-all", () => {
  it("ends every session of the caller, this one included; other users are untouched", async () => {
    const user = await newUser();
    const phone = await signIn(user);

    const res = await api.request.post("/auth/logout-all").set(user.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ loggedOut: true });
    expectError(await me(user), 401);
    expectError(await me(user, phone), 401);
    expect((await me(other)).status).toBe(200);
    expect((await me(user, await signIn(user))).status).toBe(200);
  });
});

const download = (userId: number, auth: { Authorization: string }) =>
  api.request
    .get(`/user/${userId}/export`)
    .set(auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });

describe("GET /user/{id}/export", () => {
  it("is a zip of account.json and the original bytes of every image the user uploaded", async () => {
    const user = await newUser();
    // Someone else's hub and series, for the memberships, follows, likes and comments.
    const theirHub = await createHub(api, other);
    const theirPost = await createPost(api, other, theirHub.id);
    const theirPage = await uploadImage(api, other);
    const theirSeries = (
      await api.request
        .post("/series")
        .set(other.auth)
        .send({ name: `Theirs ${process.pid} ${++seq}` })
    ).body;
    await api.request
      .post(`/series/${theirSeries.id}/chapters`)
      .set(other.auth)
      .send({ title: "Their one", pages: [theirPage] });
    const theirComment = (await api.request.post(`/series/${theirSeries.id}/1/comments`).set(other.auth).send({ content: "Theirs" })).body;

    // What the user does: images, a profile, a hub and a post, a series with a chapter, joins, follows, likes, comments.
    const avatar = await uploadImage(api, user, await imageBytes("png", 50, 50), "me.png");
    const banner = await uploadImage(api, user, await imageBytes("jpeg", 120, 40), "banner.jpg");
    const pages = [await uploadImage(api, user, await imageBytes("webp", 30, 60), "p1.webp"), await uploadImage(api, user)];
    const unused = await uploadImage(api, user, await imageBytes("gif", 10, 10), "unused.gif");
    expect(
      (await api.request.put(`/user/${user.id}`).set(user.auth).send({ profileImageID: avatar, profileBannerID: banner })).status,
    ).toBe(200);
    const myHub = await createHub(api, user);
    const myPost = await createPost(api, user, myHub.id, { title: "My own post" });
    await joinHub(api, user, theirHub.id);
    const postInTheirs = await createPost(api, user, theirHub.id, { title: "In their hub" });
    const mySeries = (
      await api.request
        .post("/series")
        .set(user.auth)
        .send({ name: `Mine ${process.pid} ${++seq}`, description: "Mine" })
    ).body;
    const chapter = await api.request.post(`/series/${mySeries.id}/chapters`).set(user.auth).send({ title: "My one", pages });
    expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
    await api.request.post(`/user/${user.id}/followed-series/${theirSeries.id}`).set(user.auth);
    await api.request.post(`/hubs/${encodeURIComponent(theirHub.name)}/${theirPost.id}/like`).set(user.auth);
    await api.request.post(`/series/${theirSeries.id}/1/like`).set(user.auth);
    expect((await api.request.put(`/me/progress/${theirSeries.id}`).set(user.auth).send({ chapterNumber: 1, page: 1 })).status).toBe(200);
    await api.request.post(`/comments/${theirComment.id}/like`).set(user.auth);
    const comment1 = (await api.request.post(`/series/${theirSeries.id}/1/comments`).set(user.auth).send({ content: "Lovely pages" })).body;
    const comment2 = (
      await api.request
        .post(`/hubs/${encodeURIComponent(theirHub.name)}/${theirPost.id}/comments`)
        .set(user.auth)
        .send({ content: "Agreed" })
    ).body;

    const res = await download(user.id, user.auth);

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="inkwell-${user.username}.zip"`);
    const entries = await unzip(res.body as Buffer);
    const account = JSON.parse(entries.find((e) => e.name === "account.json")!.bytes.toString("utf8"));

    const myImages = [avatar, banner, ...pages, unused];
    expect(account.images.map((i: { id: number }) => i.id)).toEqual(myImages);
    for (const image of account.images as { id: number; file: string; missing?: boolean }[]) {
      const entry = entries.find((e) => e.name === image.file);
      expect(entry, image.file).toBeDefined();
      expect(image.missing).toBeUndefined();
      expect(entry!.bytes.equals((await keptImageBytes(api, image.id))!)).toBe(true);
    }
    expect(entries.map((e) => e.name).sort()).toEqual(["account.json", ...account.images.map((i: { file: string }) => i.file)].sort());
    expect(entries.find((e) => e.name.startsWith(`images/${unused}.`))!.name).toBe(`images/${unused}.gif`);

    expect(account.profile).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      profileImageId: avatar,
      profileBannerId: banner,
    });
    expect(account.memberships.map((m: { hubId: number }) => m.hubId).sort()).toEqual([myHub.id, theirHub.id].sort());
    expect(account.follows).toEqual([expect.objectContaining({ seriesId: theirSeries.id, seriesName: theirSeries.name })]);
    expect(account.likes.posts).toEqual([{ postId: theirPost.id, hubName: theirHub.name, title: theirPost.title }]);
    expect(account.likes.chapters).toEqual([{ chapterId: expect.any(Number), seriesName: theirSeries.name, number: 1 }]);
    expect(account.likes.comments).toEqual([{ commentId: theirComment.id }]);
    expect(account.posts.map((p: { id: number; title: string }) => [p.id, p.title])).toEqual([
      [myPost.id, "My own post"],
      [postInTheirs.id, "In their hub"],
    ]);
    expect(account.comments.map((c: { id: number; content: string }) => [c.id, c.content])).toEqual([
      [comment1.id, "Lovely pages"],
      [comment2.id, "Agreed"],
    ]);
    expect(account.series).toEqual([expect.objectContaining({ id: mySeries.id, name: mySeries.name, description: "Mine" })]);
    expect(account.chapters).toEqual([expect.objectContaining({ seriesId: mySeries.id, number: 1, title: "My one", pageImageIds: pages })]);
    // Chapter 1 of their series has one page: saving it reads the chapter.
    expect(account.readingProgress).toEqual([
      { seriesId: theirSeries.id, seriesName: theirSeries.name, chapterNumber: 1, page: 1, updatedAt: expect.any(String) },
    ]);
    expect(account.chaptersRead).toEqual([
      { chapterId: expect.any(Number), seriesName: theirSeries.name, chapterNumber: 1, readAt: expect.any(String) },
    ]);
    // Nothing of anyone else's.
    expect(JSON.stringify(account)).not.toContain(`"${theirSeries.name}","description"`);
    expect(account.images.map((i: { id: number }) => i.id)).not.toContain(theirPage);
  });

  it("is an empty account's zip for a user who did nothing", async () => {
    const user = await newUser();
    const res = await download(user.id, user.auth);
    const entries = await unzip(res.body as Buffer);
    expect(entries.map((e) => e.name)).toEqual(["account.json"]);
    const account = JSON.parse(entries[0]!.bytes.toString("utf8"));
    expect(account).toMatchObject({
      posts: [],
      comments: [],
      images: [],
      memberships: [],
      likes: { posts: [], chapters: [], comments: [] },
    });
  });

  it("marks an image whose bytes the store lost, and still answers a whole zip", async () => {
    const user = await newUser();
    const kept = await uploadImage(api, user);
    const lost = await uploadImage(api, user);
    await removeKeptOriginal(api, lost);

    const entries = await unzip((await download(user.id, user.auth)).body as Buffer);

    const account = JSON.parse(entries.find((e) => e.name === "account.json")!.bytes.toString("utf8"));
    expect(account.images.map((i: { id: number; missing?: boolean }) => [i.id, i.missing ?? false])).toEqual([
      [kept, false],
      [lost, true],
    ]);
    expect(entries.find((e) => e.name === `images/${kept}.png`)!.bytes.equals((await keptImageBytes(api, kept))!)).toBe(true);
  });

  it("is limited per account: three an hour, then 429 with Retry-After and no zip; others still export", async () => {
    const user = await newUser();
    await uploadImage(api, user);
    for (let i = 0; i < 3; i++) {
      const res = await download(user.id, user.auth);
      expect(res.status).toBe(200);
      expect((await unzip(res.body as Buffer)).map((e) => e.name)).toContain("account.json");
    }

    const refused = await api.request.get(`/user/${user.id}/export`).set(user.auth);

    expectError(refused, 429);
    expect(refused.body.message).toMatch(/^You can download your data at most 3 times an hour\. Please try again in \d+ minutes?\.$/);
    const wait = Number(refused.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    // The count is the account's own: someone else's exports are untouched.
    const someoneElse = await newUser();
    expect((await download(someoneElse.id, someoneElse.auth)).status).toBe(200);
  });

  it("is the user's own only: 403 for others, 401 without a token, 404 for no such user", async () => {
    const user = await newUser();
    expectError(await api.request.get(`/user/${user.id}/export`).set(other.auth), 403, "You can only export your own data");
    expectError(await api.request.get(`/user/${user.id}/export`), 401);
    expectError(await api.request.get(`/user/99999999/export`).set(user.auth), 404);
  });
});
