import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";

// docs/api.md §6: after any burst of toggles, each count equals the number of rows behind it.
const CROWD = 50;

let api: TestApi;
let owner: TestUser;
let crowd: TestUser[];
setUpSharedTestApi(["burst_owner"], async (started, users) => {
  api = started;
  [owner] = users;
  // Registered concurrently too: bcrypt cost is 4 in tests.
  crowd = await Promise.all(Array.from({ length: CROWD }, () => api.register()));
});

/** A target's stored counter, and the link rows behind it. */
const counterOf = async (table: "Post" | "Hub" | "Series", column: "likes" | "memberCount" | "followersCount", id: number) =>
  (await sql<{ n: number }>`SELECT ${sql.ref(column)} AS n FROM ${sql.table(table)} WHERE id = ${id}`.execute(api.db.kysely)).rows[0]!.n;
const rowsOf = async (table: "PostLike" | "Membership" | "Follow", column: "postId" | "hubId" | "seriesId", id: number) =>
  (await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${id}`.execute(api.db.kysely)).rows[0]!
    .n;

let seq = 0;
async function createHub(): Promise<{ id: number; name: string }> {
  const res = await api.request
    .post("/hubs")
    .set(owner.auth)
    .send({ name: `Burst Hub ${++seq}` });
  expect(res.status).toBe(201);
  return res.body;
}
async function createPost(): Promise<{ hubName: string; postId: number }> {
  const hub = await createHub();
  const res = await api.request
    .post("/hub-posts")
    .set(owner.auth)
    .send({ title: "A burst of likes", content: "Everybody likes this post at once.", hubId: hub.id });
  expect(res.status).toBe(201);
  return { hubName: encodeURIComponent(hub.name), postId: res.body.id };
}
async function createSeries(): Promise<number> {
  const res = await api.request
    .post("/series")
    .set(owner.auth)
    .send({ name: `Burst Series ${++seq}` });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe("concurrent registrations", () => {
  it("of one username in different cases: one 201, the rest 409, one row", async () => {
    const spellings = Array.from({ length: 10 }, (_x, i) => (i % 2 === 0 ? "RaceName" : "racename"));

    const responses = await Promise.all(
      spellings.map((username, i) =>
        api.request.post("/auth/register").send({ username, email: `race${i}@example.com`, password: "secret123" }),
      ),
    );

    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await api.db.kysely.selectFrom("User").select("id").where("usernameKey", "=", "racename").execute()).toHaveLength(1);
  });

  it("of one email: one 201, the rest 409, one row", async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_x, i) =>
        api.request.post("/auth/register").send({ username: `race_mail_${i}`, email: "Race.Mail@example.com", password: "secret123" }),
      ),
    );

    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await api.db.kysely.selectFrom("User").select("id").where("emailKey", "=", "race.mail@example.com").execute()).toHaveLength(1);
  });
});

describe("concurrent toggles keep counts equal to rows", () => {
  it(`${CROWD} users liking one post at once give ${CROWD} likes and ${CROWD} rows`, async () => {
    const { hubName, postId } = await createPost();

    const responses = await Promise.all(crowd.map((u) => api.request.post(`/hubs/${hubName}/${postId}/like`).set(u.auth)));

    expect(responses.every((r) => r.status === 200 && r.body.liked === true)).toBe(true);
    const post = await api.request.get(`/hubs/${hubName}/${postId}`);
    expect(post.body.likes).toBe(CROWD);
    expect(await counterOf("Post", "likes", postId)).toBe(CROWD);
    expect(await rowsOf("PostLike", "postId", postId)).toBe(CROWD);
  });

  it("each user liking the same post twice at once still counts each user once", async () => {
    const { hubName, postId } = await createPost();

    await Promise.all(crowd.flatMap((u) => [1, 2].map(() => api.request.post(`/hubs/${hubName}/${postId}/like`).set(u.auth))));

    expect(await counterOf("Post", "likes", postId)).toBe(CROWD);
    expect(await rowsOf("PostLike", "postId", postId)).toBe(CROWD);
  });

  it(`${CROWD} users joining one hub at once give memberCount ${CROWD + 1} (the creator included) and as many rows`, async () => {
    const hub = await createHub();

    const responses = await Promise.all(crowd.map((u) => api.request.post(`/user/${u.id}/member-hubs/${hub.id}`).set(u.auth)));

    expect(responses.every((r) => r.status === 200 && r.body.member === true)).toBe(true);
    expect(await counterOf("Hub", "memberCount", hub.id)).toBe(CROWD + 1);
    expect(await rowsOf("Membership", "hubId", hub.id)).toBe(CROWD + 1);
    expect((await api.request.get(`/hubs/id/${hub.id}`)).body.memberCount).toBe(CROWD + 1);
  });

  it(`${CROWD} users following one series at once give ${CROWD} followers and ${CROWD} rows`, async () => {
    const seriesId = await createSeries();

    const responses = await Promise.all(crowd.map((u) => api.request.post(`/user/${u.id}/followed-series/${seriesId}`).set(u.auth)));

    expect(responses.every((r) => r.status === 200 && r.body.following === true)).toBe(true);
    expect(await counterOf("Series", "followersCount", seriesId)).toBe(CROWD);
    expect(await rowsOf("Follow", "seriesId", seriesId)).toBe(CROWD);
  });

  it("a mixed burst of joins and leaves ends with memberCount equal to the rows", async () => {
    const hub = await createHub();
    const ops = crowd.flatMap((u, i) => [
      api.request.post(`/user/${u.id}/member-hubs/${hub.id}`).set(u.auth),
      ...(i % 3 === 0 ? [api.request.delete(`/user/${u.id}/member-hubs/${hub.id}`).set(u.auth)] : []),
    ]);

    await Promise.all(ops);

    const rows = await rowsOf("Membership", "hubId", hub.id);
    expect(await counterOf("Hub", "memberCount", hub.id)).toBe(rows);
  });

  it("a mixed burst of like/unlike toggles ends with likes equal to the rows and to the users whose last toggle was a like", async () => {
    const { hubName, postId } = await createPost();
    // Each user alternates like, unlike, like, ... 1 to 4 times in sequence, while all users run at once.
    const plans = crowd.map((_u, i) => Array.from({ length: 1 + (i % 4) }, (_x, k) => k % 2 === 0));
    const toggle = (u: TestUser, like: boolean) =>
      like
        ? api.request.post(`/hubs/${hubName}/${postId}/like`).set(u.auth)
        : api.request.delete(`/hubs/${hubName}/${postId}/like`).set(u.auth);

    await Promise.all(
      crowd.map(async (u, i) => {
        for (const like of plans[i]!) expect((await toggle(u, like)).status).toBe(200);
      }),
    );

    const expected = plans.filter((plan) => plan[plan.length - 1]).length;
    const rows = await rowsOf("PostLike", "postId", postId);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(CROWD);
    expect(rows).toBe(expected);
    expect(await counterOf("Post", "likes", postId)).toBe(rows);
  });

  it("a fully concurrent burst of likes and unlikes from the same users ends with likes equal to the rows", async () => {
    const { hubName, postId } = await createPost();

    await Promise.all(
      crowd.flatMap((u) => [
        api.request.post(`/hubs/${hubName}/${postId}/like`).set(u.auth),
        api.request.delete(`/hubs/${hubName}/${postId}/like`).set(u.auth),
        api.request.post(`/hubs/${hubName}/${postId}/like`).set(u.auth),
      ]),
    );

    const rows = await rowsOf("PostLike", "postId", postId);
    expect(await counterOf("Post", "likes", postId)).toBe(rows);
  });
});
