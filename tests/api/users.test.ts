import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { uploadImage } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
setUpSharedTestApi(["Alice_Users", "bob_users"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

let nameSeq = 0;
async function createHub(owner: TestUser): Promise<number> {
  const res = await api.request
    .post("/hubs")
    .set(owner.auth)
    .send({ name: `Users Hub ${++nameSeq}`, description: "a hub" });
  expect(res.status).toBe(201);
  return res.body.id;
}
async function createSeries(owner: TestUser): Promise<number> {
  const res = await api.request
    .post("/series")
    .set(owner.auth)
    .send({ name: `Users Series ${++nameSeq}` });
  expect(res.status).toBe(201);
  return res.body.id;
}
const membershipRows = async (hubId: number) =>
  (
    await api.db.kysely
      .selectFrom("Membership")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("hubId", "=", hubId)
      .executeTakeFirstOrThrow()
  ).n;
const followRows = async (seriesId: number) =>
  (
    await api.db.kysely
      .selectFrom("Follow")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("seriesId", "=", seriesId)
      .executeTakeFirstOrThrow()
  ).n;
const memberCount = async (hubId: number) =>
  (await api.db.kysely.selectFrom("Hub").select("memberCount").where("id", "=", hubId).executeTakeFirstOrThrow()).memberCount;
const followersCount = async (seriesId: number) =>
  (await api.db.kysely.selectFrom("Series").select("followersCount").where("id", "=", seriesId).executeTakeFirstOrThrow()).followersCount;

describe("GET /user/{username}", () => {
  it("finds the user case-insensitively with the contract's fields", async () => {
    const res = await api.request.get("/user/alice_USERS");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: alice.id,
      username: "Alice_Users",
      email: null,
      joinedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      profileImageID: null,
      profileBannerID: null,
      role: "user",
      showMature: null,
      emailVerified: null,
      pendingEmail: null,
      twoFactor: null,
    });
  });

  it("shows the email to the user themself", async () => {
    const res = await api.request.get("/user/Alice_Users").set(alice.auth);

    expect(res.body.email).toBe(alice.email);
  });

  it("hides the email from another signed-in user", async () => {
    const res = await api.request.get("/user/Alice_Users").set(bob.auth);

    expect(res.body.email).toBeNull();
  });

  it("hides the email from a guest", async () => {
    const res = await api.request.get("/user/Alice_Users");

    expect(res.body.email).toBeNull();
  });

  it("answers 404 'User not found' for an unknown username", async () => {
    const res = await api.request.get("/user/nobody_at_all");

    expectError(res, 404, "User not found");
  });
});

describe("GET /user/id/{id}", () => {
  it("finds the user by id", async () => {
    const res = await api.request.get(`/user/id/${bob.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: bob.id, username: "bob_users", email: null });
  });

  it("shows the email to the user themself", async () => {
    const res = await api.request.get(`/user/id/${bob.id}`).set(bob.auth);

    expect(res.body.email).toBe(bob.email);
  });

  it("answers 404 'User not found' for an unknown id", async () => {
    const res = await api.request.get("/user/id/999999");

    expectError(res, 404, "User not found");
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "0x10", "99999999999999999999", "2147483648"])("answers 400 for the id %s", async (id) => {
    const res = await api.request.get(`/user/id/${id}`);

    expectFieldError(res, "id");
  });
});

describe("PUT /user/{id}", () => {
  it("sets the user's own avatar and banner to images they uploaded", async () => {
    const avatar = await uploadImage(api, alice);
    const banner = await uploadImage(api, alice);

    const res = await api.request.put(`/user/${alice.id}`).set(alice.auth).send({ profileImageID: avatar, profileBannerID: banner });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.id, email: alice.email, profileImageID: avatar, profileBannerID: banner });
    const reread = await api.request.get(`/user/id/${alice.id}`);
    expect(reread.body).toMatchObject({ profileImageID: avatar, profileBannerID: banner });
  });

  it("keeps a field that is absent and clears one that is null", async () => {
    const avatar = await uploadImage(api, alice);
    const banner = await uploadImage(api, alice);
    await api.request.put(`/user/${alice.id}`).set(alice.auth).send({ profileImageID: avatar, profileBannerID: banner });

    const res = await api.request.put(`/user/${alice.id}`).set(alice.auth).send({ profileBannerID: null });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ profileImageID: avatar, profileBannerID: null });
  });

  it("answers 400 with a field error for another user's image, changing nothing", async () => {
    const own = await uploadImage(api, bob);
    await api.request.put(`/user/${bob.id}`).set(bob.auth).send({ profileImageID: own });
    const alicesImage = await uploadImage(api, alice);

    const res = await api.request.put(`/user/${bob.id}`).set(bob.auth).send({ profileImageID: alicesImage });

    expectFieldError(res, "profileImageID", "Avatar must be an image you uploaded");
    expect((await api.request.get(`/user/id/${bob.id}`)).body.profileImageID).toBe(own);
  });

  it("answers 400 with a field error for an image that does not exist", async () => {
    const res = await api.request.put(`/user/${bob.id}`).set(bob.auth).send({ profileBannerID: 987654 });

    expectFieldError(res, "profileBannerID", "Banner must be an image you uploaded");
  });

  it.each([
    ["a string", "12"],
    ["a fraction", 1.5],
    ["zero", 0],
    ["a negative number", -3],
    ["an object", { id: 1 }],
    ["a list", [1]],
  ])("answers 400 with a field error when the avatar is %s", async (_what, value) => {
    const res = await api.request.put(`/user/${bob.id}`).set(bob.auth).send({ profileImageID: value });

    expectFieldError(res, "profileImageID", "Avatar must be an image id");
  });

  // The email changes only with the current password (tests/api/account.test.ts).
  it("ignores fields other than the images and email: username, id and password stay as they were", async () => {
    const res = await api.request
      .put(`/user/${bob.id}`)
      .set(bob.auth)
      .send({ id: alice.id, username: "hijacked", passwordHash: "x", password: "hijacked1", joinedAt: "2000-01-01T00:00:00.000Z" });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: bob.id, username: "bob_users", email: bob.email });
    const row = await api.db.kysely
      .selectFrom("User")
      .select(["username", "email", "passwordHash"])
      .where("id", "=", bob.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: "bob_users", email: bob.email });
    expect(row.passwordHash).not.toBe("x");
  });

  it("answers 403 for another user's id, changing nothing", async () => {
    const image = await uploadImage(api, bob);

    const res = await api.request.put(`/user/${alice.id}`).set(bob.auth).send({ profileImageID: image });

    expectError(res, 403);
    expect((await api.request.get(`/user/id/${alice.id}`)).body.profileImageID).not.toBe(image);
  });

  it("answers 401 without a token", async () => {
    const res = await api.request.put(`/user/${alice.id}`).send({ profileImageID: null });

    expectError(res, 401);
  });

  it("answers 404 for an unknown user id", async () => {
    const res = await api.request.put("/user/999999").set(alice.auth).send({ profileImageID: null });

    expectError(res, 404, "User not found");
  });
});

describe("GET /user/{id}/... lists", () => {
  let carol: TestUser;
  let carolsHub: number;
  let carolsSeries: number;
  let joinedHub: number;
  let followedSeries: number;
  beforeAll(async () => {
    carol = await api.register("carol_lists");
    carolsHub = await createHub(carol);
    carolsSeries = await createSeries(carol);
    joinedHub = await createHub(alice);
    followedSeries = await createSeries(alice);
    await api.request.post(`/user/${carol.id}/member-hubs/${joinedHub}`).set(carol.auth);
    await api.request.post(`/user/${carol.id}/followed-series/${followedSeries}`).set(carol.auth);
  });

  it("member-hubs lists the hubs joined, the created one included, as cards", async () => {
    const res = await api.request.get(`/user/${carol.id}/member-hubs`);

    expect(res.status).toBe(200);
    expect(res.body.map((h: { id: number }) => h.id).sort()).toEqual([carolsHub, joinedHub].sort());
    expect(res.body.find((h: { id: number }) => h.id === joinedHub)).toMatchObject({
      name: expect.any(String),
      memberCount: 2,
      followersCount: 2,
      authorName: "Alice_Users",
      profileImageId: null,
      profileBannerId: null,
    });
  });

  it("followed-series lists the series followed as cards", async () => {
    const res = await api.request.get(`/user/${carol.id}/followed-series`);

    expect(res.body).toEqual([expect.objectContaining({ id: followedSeries, followersCount: 1, authorName: "Alice_Users" })]);
  });

  it("created-series lists only the user's own series", async () => {
    const res = await api.request.get(`/user/${carol.id}/created-series`);

    expect(res.body).toEqual([expect.objectContaining({ id: carolsSeries, author: carol.id, name: expect.any(String) })]);
  });

  it("created-hubs lists only the user's own hubs", async () => {
    const res = await api.request.get(`/user/${carol.id}/created-hubs`);

    expect(res.body).toEqual([expect.objectContaining({ id: carolsHub, authorId: carol.id, memberCount: 1 })]);
  });

  it.each(["member-hubs", "followed-series", "created-series", "created-hubs"])(
    "%s is an empty list for a user with none",
    async (list) => {
      const newcomer = await api.register();

      const res = await api.request.get(`/user/${newcomer.id}/${list}`);

      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    },
  );

  it.each(["member-hubs", "followed-series", "created-series", "created-hubs"])(
    "%s answers 404 'User not found' for an unknown user",
    async (list) => {
      const res = await api.request.get(`/user/999999/${list}`);

      expectError(res, 404, "User not found");
    },
  );

  it.each(["member-hubs", "created-hubs"])("%s answers 400 for a non-numeric user id", async (list) => {
    const res = await api.request.get(`/user/carol_lists/${list}`);

    expectFieldError(res, "id");
  });
});

describe("POST/DELETE /user/{userId}/member-hubs/{hubId}", () => {
  it("makes a hub's creator its first member", async () => {
    const hubId = await createHub(alice);

    const hub = await api.request.get(`/hubs/id/${hubId}`).set(alice.auth);
    const list = await api.request.get(`/user/${alice.id}/member-hubs`);

    expect(hub.body).toMatchObject({ memberCount: 1, joinedByMe: true });
    expect(list.body.map((h: { id: number }) => h.id)).toContain(hubId);
  });

  it("joins a hub and answers the new state", async () => {
    const hubId = await createHub(alice);

    const res = await api.request.post(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member: true, memberCount: 2 });
  });

  it("counts a second join once", async () => {
    const hubId = await createHub(alice);
    await api.request.post(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    const res = await api.request.post(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    expect(res.body).toEqual({ member: true, memberCount: 2 });
    expect(await membershipRows(hubId)).toBe(2);
  });

  it("leaves a hub and answers the new state", async () => {
    const hubId = await createHub(alice);
    await api.request.post(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    const res = await api.request.delete(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member: false, memberCount: 1 });
    expect((await api.request.get(`/user/${bob.id}/member-hubs`)).body.map((h: { id: number }) => h.id)).not.toContain(hubId);
  });

  it("changes nothing when leaving a hub never joined", async () => {
    const hubId = await createHub(alice);

    const res = await api.request.delete(`/user/${bob.id}/member-hubs/${hubId}`).set(bob.auth);

    expect(res.body).toEqual({ member: false, memberCount: 1 });
    expect(await memberCount(hubId)).toBe(1);
  });

  it("answers 403 for another user's id, changing nothing", async () => {
    const hubId = await createHub(alice);

    const res = await api.request.post(`/user/${alice.id}/member-hubs/${hubId}`).set(bob.auth);
    const leave = await api.request.delete(`/user/${alice.id}/member-hubs/${hubId}`).set(bob.auth);

    expectError(res, 403);
    expectError(leave, 403);
    expect(await memberCount(hubId)).toBe(1);
  });

  it("answers 404 for an unknown hub", async () => {
    const res = await api.request.post(`/user/${bob.id}/member-hubs/999999`).set(bob.auth);

    expectError(res, 404);
    expect(await membershipRows(999999)).toBe(0);
  });

  it("answers 401 without a token", async () => {
    const hubId = await createHub(alice);

    const res = await api.request.post(`/user/${bob.id}/member-hubs/${hubId}`);

    expectError(res, 401);
  });

  it("answers 400 for a non-numeric hub id", async () => {
    const res = await api.request.post(`/user/${bob.id}/member-hubs/abc`).set(bob.auth);

    expectFieldError(res, "hubId");
  });
});

describe("POST/DELETE /user/{userId}/followed-series/{seriesId}", () => {
  it("follows a series and answers the new state", async () => {
    const seriesId = await createSeries(alice);

    const res = await api.request.post(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ following: true, followersCount: 1 });
    expect((await api.request.get(`/series/id/${seriesId}`).set(bob.auth)).body).toMatchObject({ followersCount: 1, followedByMe: true });
  });

  it("counts a second follow once", async () => {
    const seriesId = await createSeries(alice);
    await api.request.post(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    const res = await api.request.post(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    expect(res.body).toEqual({ following: true, followersCount: 1 });
    expect(await followRows(seriesId)).toBe(1);
  });

  it("unfollows and answers the new state", async () => {
    const seriesId = await createSeries(alice);
    await api.request.post(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    const res = await api.request.delete(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    expect(res.body).toEqual({ following: false, followersCount: 0 });
  });

  it("changes nothing when unfollowing a series never followed", async () => {
    const seriesId = await createSeries(alice);
    await api.request.post(`/user/${alice.id}/followed-series/${seriesId}`).set(alice.auth);

    const res = await api.request.delete(`/user/${bob.id}/followed-series/${seriesId}`).set(bob.auth);

    expect(res.body).toEqual({ following: false, followersCount: 1 });
  });

  it("answers 403 for another user's id", async () => {
    const seriesId = await createSeries(alice);

    const res = await api.request.post(`/user/${alice.id}/followed-series/${seriesId}`).set(bob.auth);

    expectError(res, 403);
    expect(await followersCount(seriesId)).toBe(0);
  });

  it("answers 404 for an unknown series", async () => {
    const res = await api.request.delete(`/user/${bob.id}/followed-series/999999`).set(bob.auth);

    expectError(res, 404);
  });

  it("answers 401 without a token", async () => {
    const seriesId = await createSeries(alice);

    const res = await api.request.delete(`/user/${bob.id}/followed-series/${seriesId}`);

    expectError(res, 401);
  });
});
