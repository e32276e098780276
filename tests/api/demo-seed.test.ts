// The demo's rows on this run's engine, PostgreSQL included (tests/seed/demo.test.ts draws the whole demo, on SQLite
// only: the `postgres` project runs tests/api). Images are stub rows here; drawing them is tests/seed's job.
import bcrypt from "bcryptjs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import type { DB } from "../../server/db/schema.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { DEMO_ADMIN, DEMO_HUB_MODERATOR, DEMO_PASSWORD, DEMO_RESOLVED_REPORT, DEMO_USERNAME } from "../../seed/content/users.ts";
import { buildDiscussionPlan, DEMO_UNREAD } from "../../seed/demo-discussion-plan.ts";
import { demoImageJobs, type OwnedImage } from "../../seed/demo-images.ts";
import { buildDemoPlan } from "../../seed/demo-plan.ts";
import { writeDemo } from "../../seed/demo-write.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";
import { freshDataDir } from "../helpers/test-data-dir.ts";

const NOW = Date.UTC(2025, 5, 1, 12);

/** The whole demo written as the seed writes it, with image rows that have no files. */
async function writeStubDemo(db: Database, passwordHash: string) {
  const plan = buildDemoPlan(NOW);
  const images = new Map<string, OwnedImage>(
    demoImageJobs(plan, "webp").map((job, i) => [
      job.key,
      {
        owner: job.owner,
        image: {
          id: i + 1,
          format: "webp",
          fileName: job.fileName,
          contentType: "image/webp",
          size: 1000,
          width: 900,
          height: 1350,
          createdAt: job.createdAt,
        },
      },
    ]),
  );
  return db.kysely.transaction().execute((trx) => writeDemo(trx, db, plan, buildDiscussionPlan(plan), images, passwordHash));
}

// Every table the demo writes, in a stable order.
const TABLES: Partial<Record<keyof DB, string>> = {
  User: `"id"`,
  Image: `"id"`,
  Hub: `"id"`,
  Membership: `"userId", "hubId"`,
  Post: `"id"`,
  PostLike: `"userId", "postId"`,
  Series: `"id"`,
  SeriesTag: `"seriesId", "tag"`,
  Follow: `"userId", "seriesId"`,
  Chapter: `"id"`,
  ChapterPage: `"chapterId", "position"`,
  ChapterLike: `"userId", "chapterId"`,
  Comment: `"id"`,
  CommentLike: `"userId", "commentId"`,
  Notification: `"id"`,
  HubModerator: `"hubId", "userId"`,
  ModLogEntry: `"id"`,
};
const rowsOf = async (db: Database, table: string) =>
  (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.raw(TABLES[table as keyof DB]!)}`.execute(db.kysely))
    .rows;

let api: TestApi;
let onSqlite: Database;
let sqliteDir: string;
let passwordHash: string;

beforeAll(async () => {
  passwordHash = await bcrypt.hash(DEMO_PASSWORD, 4);
  api = await startTestApi();
  await writeStubDemo(api.db, passwordHash);
  api.dataChanged();
  sqliteDir = freshDataDir();
  onSqlite = await openDatabase(sqliteDir);
  await writeStubDemo(onSqlite, passwordHash);
});
afterAll(async () => {
  await onSqlite?.close();
  await api?.close();
});

async function signIn(username: string = DEMO_USERNAME) {
  const res = await api.request.post("/auth/login").send({ username, password: DEMO_PASSWORD });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${res.body.accessToken}` };
}

describe("the demo's rows", () => {
  it("are the same on this engine as on SQLite, row for row", async () => {
    for (const table of Object.keys(TABLES)) expect(await rowsOf(api.db, table), table).toEqual(await rowsOf(onSqlite, table));
  });

  it("keep every counter equal to its rows, comments and notifications included", async () => {
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
    const [comments, likes, notifications] = await Promise.all(
      (["Comment", "CommentLike", "Notification"] as const).map(async (t) => (await rowsOf(api.db, t)).length),
    );
    expect(comments).toBeGreaterThan(200);
    expect(likes).toBeGreaterThan(300);
    expect(notifications).toBeGreaterThan(300);
  });
});

describe("the demo through the API", () => {
  it("gives its series tags, statuses, ratings and directions: an rtl manga, a mature series left out of guests' lists", async () => {
    const all = (await api.request.get("/series?per_page=100")).body.content as {
      name: string;
      tags: string[];
      status: string;
      contentRating: string;
      readingDirection: string;
      lastChapterAt: string | null;
    }[];
    expect(all.every((s) => s.tags.length > 0 && s.lastChapterAt !== null)).toBe(true);
    expect(all.find((s) => s.name === "The Moth Courier")).toMatchObject({
      readingDirection: "rtl",
      tags: expect.arrayContaining(["manga"]),
    });
    expect(new Set(all.map((s) => s.status))).toEqual(new Set(["ongoing", "completed", "hiatus"]));
    expect(all.some((s) => s.contentRating === "mature")).toBe(false);
    const mature = (await api.request.get("/series/The Last Ferry to Aubade")).body;
    expect(mature).toMatchObject({ contentRating: "mature", tags: ["horror", "drama", "mystery"] });
    expect((await api.request.get("/tags")).body.content[0]).toEqual({ name: "fantasy", seriesCount: 5 });
  });

  it("gives the demo login unread notifications, and read ones, each opening something that exists", async () => {
    const auth = await signIn();
    const unread = await api.request.get("/me/notifications/unread-count").set(auth);
    expect(unread.body).toEqual({ count: DEMO_UNREAD });
    const page = await api.request.get("/me/notifications?per_page=1000").set(auth);
    expect(page.status).toBe(200);
    const items = page.body.content as { kind: string; read: boolean; subject: { type: string; id: number; url: string } }[];
    expect(items.filter((n) => !n.read)).toHaveLength(DEMO_UNREAD);
    expect(items.filter((n) => n.read).length).toBeGreaterThan(20);
    expect(new Set(items.map((n) => n.kind))).toEqual(new Set(["reply", "comment", "mention", "chapter", "follow", "join"]));
    // Web paths are the API's paths of the same things (docs/web.md); a comment's opens its post or chapter.
    for (const url of new Set(items.map((n) => n.subject.url.split("#")[0]!))) expect((await api.request.get(url)).status, url).toBe(200);
    // A comment's replies answer 404 when the comment does not exist.
    for (const n of items.filter((i) => i.subject.type === "comment"))
      expect((await api.request.get(`/comments/${n.subject.id}/replies`)).status, `comment ${n.subject.id}`).toBe(200);
  });

  it("shows more than a page of comments under the finale of Lanterns Over Kessel Bay, with replies and likes", async () => {
    const place = `/series/${encodeURIComponent("Lanterns Over Kessel Bay")}/12`;
    const top = await api.request.get(`${place}/comments?sort=top&per_page=20`);
    expect(top.body.totalElements).toBeGreaterThan(20);
    expect(top.body.totalPages).toBeGreaterThan(1);
    const oldest = await api.request.get(`${place}/comments?sort=oldest&per_page=20`);
    const ids = (body: { content: { id: number }[] }) => body.content.map((c) => c.id);
    expect(ids(top.body)).not.toEqual(ids(oldest.body));
    const thread = (top.body.content as { id: number; replyCount: number }[]).find((c) => c.replyCount > 0)!;
    const replies = await api.request.get(`/comments/${thread.id}/replies`);
    expect(replies.body.content).toHaveLength(thread.replyCount);
    expect((await api.request.get(place)).body.commentCount).toBeGreaterThan(25);
  });

  it("has a site admin and a moderator added to the demo login's hub, which the demo login manages", async () => {
    expect((await api.request.get(`/user/${DEMO_ADMIN}`)).body.role).toBe("admin");
    expect((await api.request.get(`/user/${DEMO_USERNAME}`)).body.role).toBe("user");
    const list = await api.request.get(`/hubs/${encodeURIComponent(DEMO_HUB_MODERATOR.hub)}/moderators`);
    expect(list.body.items.map((m: { username: string }) => m.username)).toEqual([DEMO_USERNAME, DEMO_HUB_MODERATOR.username]);
    const auth = await signIn();
    expect((await api.request.get(`/hubs/${encodeURIComponent(DEMO_HUB_MODERATOR.hub)}`).set(auth)).body.moderatedByMe).toBe(true);
  });

  it("has a report on a comment in that hub, dismissed by the moderator, in the moderator's queue and the hub's mod log", async () => {
    const resolved = await api.request.get("/reports?status=resolved").set(await signIn(DEMO_HUB_MODERATOR.username));
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.content).toHaveLength(1);
    const [report] = resolved.body.content;
    expect(report).toMatchObject({ subject: { type: "comment" }, reason: DEMO_RESOLVED_REPORT.reason, status: "resolved" });
    const log = await api.request.get(`/hubs/${encodeURIComponent(DEMO_HUB_MODERATOR.hub)}/modlog`);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    expect(log.body.content.map((e: { action: string; moderator: { username: string } }) => [e.action, e.moderator.username])).toEqual([
      ["report-dismissed", DEMO_HUB_MODERATOR.username],
      ["moderator-added", DEMO_USERNAME],
    ]);
    expect(log.body.content[0]).toMatchObject({
      subject: { type: "comment", id: report.subject.id },
      reason: DEMO_RESOLVED_REPORT.resolutionReason,
    });
  });

  it("keeps a deleted comment with replies as a tombstone", async () => {
    const place = `/series/${encodeURIComponent("Ghostlight Diner")}/3`;
    const listed = (await api.request.get(`${place}/comments?sort=oldest`)).body.content as { id: number; deleted: boolean }[];
    const tombstones = listed.filter((c) => c.deleted);
    expect(tombstones).toHaveLength(1);
    expect(tombstones[0]).toMatchObject({ content: "", authorId: null, authorName: null });
    const replies = await api.request.get(`/comments/${tombstones[0]!.id}/replies`);
    expect(replies.body.content.length).toBeGreaterThan(0);
  });
});
