// Notifications (docs/api.md §11): the list, the unread count, marking read, and the follow and join notifications.
import { describe, expect, it, vi } from "vitest";
import { nowMs } from "../../server/db/dates.ts";
import { insertNotifications, type NewNotification } from "../../server/notifications/notify.ts";
import { noNotificationMail } from "../../server/notifications/notification-mail.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { uploadImage } from "../helpers/images.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";

let api: TestApi;
let author: TestUser;
let reader: TestUser;
let other: TestUser;

setUpSharedTestApi(["ntf_author", "ntf_reader", "ntf_other"], (started, users) => {
  api = started;
  [author, reader, other] = users;
});

interface Item {
  id: number;
  kind: string;
  read: boolean;
  createdAt: string;
  actor: { id: number; username: string; profileImageID: number | null } | null;
  subject: { type: string; id: number; title: string; url: string };
}

const list = async (user: TestUser, query = "") => {
  const res = await api.request.get(`/me/notifications${query}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { content: Item[]; page: number; perPage: number; totalPages: number; totalElements: number };
};
const unread = async (user: TestUser) => {
  const res = await api.request.get("/me/notifications/unread-count").set(user.auth);
  expect(res.status).toBe(200);
  return res.body.count as number;
};
const markRead = (user: TestUser, body: object) => api.request.post("/me/notifications/read").set(user.auth).send(body);

/** Notifications made as the comment features make them: in a transaction, with the unread counts. */
const notify = (rows: NewNotification[]) =>
  api.db.kysely.transaction().execute((trx) => insertNotifications(trx, rows, noNotificationMail));

async function newSeries(owner: TestUser) {
  const res = await api.request
    .post("/series")
    .set(owner.auth)
    .send({ name: uniqueName("Série ?#&"), description: "About it" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
}

/** A user of their own, so each test starts from no notifications. */
const freshUser = () => api.register();

describe("signed in only", () => {
  it.each([
    ["get", "/me/notifications"],
    ["get", "/me/notifications/unread-count"],
    ["post", "/me/notifications/read"],
  ] as const)("%s %s without a token is 401", async (method, url) => {
    expectError(await api.request[method](url).send({ all: true }), 401);
  });
});

describe("follow and join notifications", () => {
  it("tells a series' author of a new follower once, with the follower and the series", async () => {
    const owner = await freshUser();
    const series = await newSeries(owner);
    const avatar = await uploadImage(api, reader);
    expect((await api.request.put(`/user/${reader.id}`).set(reader.auth).send({ profileImageID: avatar })).status).toBe(200);

    expect((await api.request.post(`/user/${reader.id}/followed-series/${series.id}`).set(reader.auth)).status).toBe(200);
    expect((await api.request.post(`/user/${reader.id}/followed-series/${series.id}`).set(reader.auth)).status).toBe(200); // a repeat

    const page = await list(owner);
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toEqual({
      id: expect.any(Number),
      kind: "follow",
      read: false,
      createdAt: expect.any(String),
      actor: { id: reader.id, username: reader.username, profileImageID: avatar },
      subject: { type: "series", id: series.id, title: series.name, url: `/series/${encodeURIComponent(series.name)}` },
    });
    expect(await unread(owner)).toBe(1);
  });

  it("tells nobody when the author follows their own series, or on an unfollow", async () => {
    const owner = await freshUser();
    const series = await newSeries(owner);
    await api.request.post(`/user/${owner.id}/followed-series/${series.id}`).set(owner.auth);
    await api.request.delete(`/user/${owner.id}/followed-series/${series.id}`).set(owner.auth);
    await api.request.post(`/user/${other.id}/followed-series/${series.id}`).set(other.auth);
    await api.request.delete(`/user/${other.id}/followed-series/${series.id}`).set(other.auth);
    await api.request.delete(`/user/${other.id}/followed-series/${series.id}`).set(other.auth);

    expect((await list(owner)).content.map((n) => [n.kind, n.actor?.id])).toEqual([["follow", other.id]]);
    expect(await unread(owner)).toBe(1);
  });

  it("tells a hub's creator of a new member once, never of their own join", async () => {
    const owner = await freshUser();
    const hub = await createHub(api, owner, { name: uniqueName("Hub #1 é") });
    await joinHub(api, other, hub.id);
    await joinHub(api, other, hub.id); // a repeat
    // The creator leaves and joins again: their own action.
    await api.request.delete(`/user/${owner.id}/member-hubs/${hub.id}`).set(owner.auth);
    await joinHub(api, owner, hub.id);

    const page = await list(owner);
    expect(page.content).toEqual([
      {
        id: expect.any(Number),
        kind: "join",
        read: false,
        createdAt: expect.any(String),
        actor: { id: other.id, username: other.username, profileImageID: null },
        subject: { type: "hub", id: hub.id, title: hub.name, url: `/hubs/${encodeURIComponent(hub.name)}` },
      },
    ]);
    expect(await unread(owner)).toBe(1);
  });
});

describe("subjects", () => {
  it("names the comment, the post or the chapter, and the web path that opens it", async () => {
    const me = await freshUser();
    const hub = await createHub(api, author, { name: uniqueName("Hub ?&%") });
    const post = await createPost(api, author, hub.id, { title: "A post about ink" });
    const series = await newSeries(author);
    const page = await uploadImage(api, author);
    const chapter = await api.request
      .post(`/series/${series.id}/chapters`)
      .set(author.auth)
      .send({ title: "The start", pages: [page] });
    expect(chapter.status).toBe(201);
    const chapterId = chapter.body.id as number;
    // Comments written straight into the table, with the counts they move (the comment features make them so).
    const [onPost, onChapter] = await api.db.kysely.transaction().execute(async (trx) => {
      const made = await trx
        .insertInto("Comment")
        .values([
          { postId: post.id, authorId: author.id, content: "Hi", createdAt: nowMs() },
          { chapterId, authorId: other.id, content: "Hello", createdAt: nowMs() },
        ])
        .returning("id")
        .execute();
      await trx.updateTable("Post").set({ commentCount: 1, threadCount: 1 }).where("id", "=", post.id).execute();
      await trx.updateTable("Chapter").set({ commentCount: 1, threadCount: 1 }).where("id", "=", chapterId).execute();
      return made;
    });
    const t = Date.UTC(2026, 0, 1);
    await notify([{ userId: me.id, kind: "reply", actorId: author.id, commentId: onPost!.id, postId: post.id, createdAt: t + 1 }]);
    await notify([{ userId: me.id, kind: "comment", actorId: other.id, commentId: onChapter!.id, chapterId, createdAt: t + 2 }]);
    await notify([{ userId: me.id, kind: "mention", actorId: author.id, postId: post.id, createdAt: t + 3 }]);
    await notify([{ userId: me.id, kind: "mention", actorId: other.id, commentId: onChapter!.id, chapterId, createdAt: t + 4 }]);
    await notify([{ userId: me.id, kind: "chapter", actorId: author.id, chapterId, createdAt: t + 5 }]);

    const postUrl = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
    const chapterUrl = `/series/${encodeURIComponent(series.name)}/1`;
    expect((await list(me)).content.map((n) => [n.kind, n.actor?.username, n.subject, n.createdAt])).toEqual([
      [
        "chapter",
        author.username,
        { type: "chapter", id: chapterId, title: `${series.name} – Chapter 1: The start`, url: chapterUrl },
        new Date(t + 5).toISOString(),
      ],
      [
        "mention",
        other.username,
        {
          type: "comment",
          id: onChapter!.id,
          title: `${series.name} – Chapter 1: The start`,
          url: `${chapterUrl}#comment-${onChapter!.id}`,
        },
        new Date(t + 4).toISOString(),
      ],
      ["mention", author.username, { type: "post", id: post.id, title: "A post about ink", url: postUrl }, new Date(t + 3).toISOString()],
      [
        "comment",
        other.username,
        {
          type: "comment",
          id: onChapter!.id,
          title: `${series.name} – Chapter 1: The start`,
          url: `${chapterUrl}#comment-${onChapter!.id}`,
        },
        new Date(t + 2).toISOString(),
      ],
      [
        "reply",
        author.username,
        { type: "comment", id: onPost!.id, title: "A post about ink", url: `${postUrl}#comment-${onPost!.id}` },
        new Date(t + 1).toISOString(),
      ],
    ]);
  });
});

describe("the list, the count and marking read", () => {
  let me: TestUser;
  const seriesIds: number[] = [];
  const base = Date.UTC(2026, 5, 1);

  /** Seven follow notifications; two share a date (ties: the newest id first). */
  async function sevenNotifications() {
    me = await freshUser();
    const series = await newSeries(me);
    seriesIds.push(series.id);
    const dates = [base + 1, base + 5, base + 3, base + 3, base + 7, base + 2, base + 6];
    for (const createdAt of dates) {
      await notify([{ userId: me.id, kind: "follow", actorId: other.id, seriesId: series.id, createdAt }]);
    }
  }

  it("lists newest first, ties by the newest id, in pages with true totals", async () => {
    await sevenNotifications();
    const all = await list(me, "?per_page=100");
    const expected = [...all.content].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
    expect(all.content.map((n) => n.id)).toEqual(expected.map((n) => n.id));
    expect(all.content.map((n) => n.createdAt)).toEqual([7, 6, 5, 3, 3, 2, 1].map((d) => new Date(base + d).toISOString()));

    const second = await list(me, "?page=2&per_page=3");
    expect(second).toMatchObject({ page: 2, perPage: 3, totalPages: 3, totalElements: 7 });
    expect(second.content.map((n) => n.id)).toEqual(all.content.slice(3, 6).map((n) => n.id));
    const past = await list(me, "?page=9&size=3");
    expect(past).toMatchObject({ content: [], totalPages: 3, totalElements: 7 });
  });

  it("marks the caller's own by id, ignoring others' and unknown ids, and answers the unread count", async () => {
    await sevenNotifications();
    const mine = (await list(me)).content;
    const someoneElses = await api.db.kysely.selectFrom("Notification").select("id").where("userId", "<>", me.id).executeTakeFirstOrThrow();
    const othersBefore = await api.db.kysely
      .selectFrom("Notification")
      .select("readAt")
      .where("id", "=", someoneElses.id)
      .executeTakeFirstOrThrow();
    expect(await unread(me)).toBe(7);

    const res = await markRead(me, { ids: [mine[0]!.id, mine[2]!.id, someoneElses.id, 2_000_000_000] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 5 });
    // Again: nothing more to mark.
    expect((await markRead(me, { ids: [mine[0]!.id] })).body).toEqual({ count: 5 });
    expect(await unread(me)).toBe(5);
    expect(
      (await api.db.kysely.selectFrom("Notification").select("readAt").where("id", "=", someoneElses.id).executeTakeFirstOrThrow()).readAt,
    ).toBe(othersBefore.readAt);

    const after = (await list(me)).content;
    expect(after.map((n) => n.read)).toEqual([true, false, true, false, false, false, false]);
    const unreadOnly = await list(me, "?unread=true");
    expect(unreadOnly.totalElements).toBe(5);
    expect(unreadOnly.content.map((n) => n.id)).toEqual(after.filter((n) => !n.read).map((n) => n.id));
    expect((await list(me, "?unread=false")).totalElements).toBe(7);
  });

  it("marks all read, and counts new ones again", async () => {
    await sevenNotifications();
    expect((await markRead(me, { ids: [] })).body).toEqual({ count: 7 });
    const res = await markRead(me, { all: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 0 });
    expect(await unread(me)).toBe(0);
    expect((await list(me, "?unread=true")).totalElements).toBe(0);
    expect((await list(me)).content.every((n) => n.read)).toBe(true);

    await api.request.post(`/user/${reader.id}/followed-series/${seriesIds.at(-1)}`).set(reader.auth);
    expect(await unread(me)).toBe(1);
    expect((await list(me, "?unread=true")).content.map((n) => [n.kind, n.actor?.id])).toEqual([["follow", reader.id]]);
  });

  it("refuses a body with neither ids nor all, and bad ids or filters", async () => {
    expectFieldError(await markRead(reader, {}), "body", "Send ids or all: true");
    expectFieldError(await markRead(reader, { all: false }), "body");
    expectFieldError(await markRead(reader, { ids: ["x"] }), "ids");
    expectFieldError(await markRead(reader, { ids: [0] }), "ids");
    expectFieldError(await markRead(reader, { ids: 5 }), "ids");
    expectFieldError(await api.request.get("/me/notifications?unread=yes").set(reader.auth), "unread");
    expectFieldError(await api.request.get("/me/notifications?per_page=0").set(reader.auth), "per_page");
  });

  it("keeps every unread count equal to the unread rows", async () => {
    await vi.waitFor(async () => expect(await api.db.kysely.selectFrom("Job").select("id").execute()).toEqual([]));
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });
});
