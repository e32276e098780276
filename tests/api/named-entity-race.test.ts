import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { uploadPng } from "../helpers/images.ts";

// A name is unique case-insensitively; writers racing for one name get one 201 and 409s, on both engines.
const RACERS = 10;

let api: TestApi;
let alice: TestUser;
let bob: TestUser;
setUpSharedTestApi(["race_alice", "race_bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

const spelling = (name: string, i: number) => (i % 2 === 0 ? name : name.toUpperCase());

describe.each([
  { path: "/hubs", table: "Hub" as const, taken: "A hub with this name already exists" },
  { path: "/series", table: "Series" as const, taken: "A series with this name already exists" },
])("$table names under concurrent writes", ({ path, table, taken }) => {
  it("creating one name at once from many requests makes one row; the others get 409", async () => {
    const name = `${table} race create`;
    const responses = await Promise.all(
      Array.from({ length: RACERS }, (_x, i) =>
        api.request
          .post(path)
          .set((i % 2 === 0 ? alice : bob).auth)
          .send({ name: spelling(name, i) }),
      ),
    );

    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.message === taken)).toBe(true);
    const rows = await api.db.kysely.selectFrom(table).select("id").where("nameKey", "=", name.toLowerCase()).execute();
    expect(rows).toHaveLength(1);
  });

  it("renaming many at once to one name leaves one row with it; the others get 409", async () => {
    const ids: number[] = [];
    for (let i = 0; i < RACERS; i++) {
      ids.push(
        (
          await api.request
            .post(path)
            .set(alice.auth)
            .send({ name: `${table} race rename ${i}` })
        ).body.id as number,
      );
    }
    const name = `${table} race target`;

    const responses = await Promise.all(
      ids.map((id, i) =>
        api.request
          .put(`${path}/${id}`)
          .set(alice.auth)
          .send({ name: spelling(name, i) }),
      ),
    );

    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.message === taken)).toBe(true);
    const rows = await api.db.kysely.selectFrom(table).select("id").where("nameKey", "=", name.toLowerCase()).execute();
    expect(rows).toHaveLength(1);
  });

  it("a refused create publishes none of its images", async () => {
    const name = `${table} race images`;
    const logos = await Promise.all(Array.from({ length: 4 }, () => uploadPng(api, alice)));
    const responses = await Promise.all(logos.map((logo) => api.request.post(path).set(alice.auth).send({ name, profileImageId: logo })));

    const created = responses.find((r) => r.status === 201)!;
    const published = await api.db.kysely
      .selectFrom("Image")
      .select("id")
      .where("id", "in", logos)
      .where("publishedAt", "is not", null)
      .execute();
    expect(published.map((r) => r.id)).toEqual([created.body.profileImageId]);
  });

  it("the list's total counts every row written by concurrent creates and none refused, and follows a delete", async () => {
    // A new URL each time: the response cache would not know of the direct delete below.
    let asked = 0;
    const total = async () => (await api.request.get(`${path}?per_page=${++asked}`)).body.totalElements as number;
    const rows = async () =>
      (
        await api.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await total();
    expect(before).toBe(Number(await rows()));

    // Ten distinct names and five taken ones, at once: ten 201s, five 409s.
    const names = [
      ...Array.from({ length: RACERS }, (_x, i) => `${table} count ${i}`),
      ...Array.from({ length: 5 }, (_x, i) => `${table} count ${i}`),
    ];
    const responses = await Promise.all(
      names.map((name, i) =>
        api.request
          .post(path)
          .set((i % 2 === 0 ? alice : bob).auth)
          .send({ name }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(RACERS);
    expect(await total()).toBe(before + RACERS);
    expect(await total()).toBe(Number(await rows()));

    // Rows removed by any writer leave the count right (the triggers keep it, not the API).
    const gone = responses.find((r) => r.status === 201)!.body.id as number;
    if (table === "Hub") await api.db.kysely.deleteFrom("Membership").where("hubId", "=", gone).execute();
    await api.db.kysely.deleteFrom(table).where("id", "=", gone).execute();
    expect(await total()).toBe(before + RACERS - 1);
  });
});

describe("a hub's creator is its first member, written with the hub", () => {
  it("racing creates leave exactly one membership row, the winner's, and memberCount 1", async () => {
    const name = "hub race members";
    const responses = await Promise.all(
      Array.from({ length: RACERS }, (_x, i) =>
        api.request
          .post("/hubs")
          .set((i % 2 === 0 ? alice : bob).auth)
          .send({ name }),
      ),
    );

    const created = responses.find((r) => r.status === 201)!;
    expect(created.body).toMatchObject({ memberCount: 1, joinedByMe: true });
    const members = await api.db.kysely
      .selectFrom("Membership")
      .select("userId")
      .where("hubId", "=", created.body.id as number)
      .execute();
    expect(members.map((m) => m.userId)).toEqual([created.body.authorId]);
  });
});
