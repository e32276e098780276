import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { isDatabaseEmpty, seedDemo, type DemoResult } from "../../seed/demo.ts";
import { DEMO_UNREAD } from "../../seed/demo-discussion-plan.ts";
import { imageFilesFor, imagePath } from "../../seed/image-store.ts";
import { testConfig } from "../helpers/api.ts";
import { NO_COUNTER_MISMATCHES, plainQueries, setUpSeededFolder } from "../helpers/seeded-folder.ts";

// The whole demo is drawn once (about 340 images); every test reads the same seeded folder.
const NOW = Date.UTC(2025, 5, 1, 12);

let dataDir: string;
let db: Database;
let result: DemoResult;
setUpSeededFolder(
  (database, folder) => seedDemo(database, folder, { bcryptCost: 4, now: NOW }),
  (seeded) => ({ dataDir, db, result } = seeded),
  300_000,
);
const { all, one, count } = plainQueries(() => db);

describe("seedDemo", () => {
  it("writes the content the issue asks for", () => {
    expect(result.seeded).toBe(true);
    expect(count("SELECT COUNT(*) AS n FROM User")).toBeGreaterThanOrEqual(8);
    expect(count("SELECT COUNT(*) AS n FROM Hub")).toBe(12);
    expect(count("SELECT COUNT(*) AS n FROM Post")).toBe(60);
    expect(count("SELECT COUNT(*) AS n FROM Series")).toBe(10);
    expect(count("SELECT COUNT(*) AS n FROM Chapter")).toBe(40);
    // Verified addresses (docs/api.md "Verified email addresses"): the demo's members post under REQUIRE_VERIFIED_EMAIL too.
    expect(count("SELECT COUNT(*) AS n FROM User WHERE emailVerified <> 1")).toBe(0);
  });

  it("has a hub with more than 10 posts and a series with more than 10 chapters, so paging shows", () => {
    expect(count("SELECT MAX(postCount) AS n FROM Hub")).toBeGreaterThan(10);
    expect(count("SELECT MAX(chapterCount) AS n FROM Series")).toBeGreaterThan(10);
  });

  it("gives every chapter 3 to 8 pages whose images exist on disk", () => {
    const pages = all<{ chapterId: number; n: number }>("SELECT chapterId, COUNT(*) AS n FROM ChapterPage GROUP BY chapterId");
    expect(pages).toHaveLength(40);
    for (const { n } of pages) {
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(8);
    }
    const files = imageFilesFor(dataDir);
    const rows = all<{ id: number; contentType: string }>("SELECT i.id, i.contentType FROM ChapterPage p JOIN Image i ON i.id = p.imageId");
    expect(rows.length).toBe(count("SELECT COUNT(*) AS n FROM ChapterPage"));
    for (const row of rows) expect(fs.existsSync(imagePath(files, row)), `page image ${row.id}`).toBe(true);
  });

  it("makes every page, cover, logo and banner an image of the artist who uses it", () => {
    expect(
      count(
        "SELECT COUNT(*) AS n FROM ChapterPage p JOIN Chapter c ON c.id = p.chapterId JOIN Image i ON i.id = p.imageId WHERE i.authorId <> c.authorId",
      ),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Chapter c JOIN Image i ON i.id = c.coverId WHERE i.authorId <> c.authorId")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Chapter WHERE coverId IS NULL")).toBe(0);
    for (const table of ["Hub", "Series", "User"]) {
      expect(
        count(
          `SELECT COUNT(*) AS n FROM ${table} t JOIN Image i ON i.id IN (t.profileImageId, t.profileBannerId) WHERE i.authorId <> ${table === "User" ? "t.id" : "t.authorId"}`,
        ),
      ).toBe(0);
    }
  });

  it("records a use of every image it publishes, so deleting or removing what uses it takes it down (decisions 018, 025)", () => {
    expect(count("SELECT COUNT(*) AS n FROM Image i WHERE NOT EXISTS (SELECT 1 FROM ImageUse u WHERE u.imageId = i.id)")).toBe(0);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM ChapterPage p WHERE NOT EXISTS (SELECT 1 FROM ImageUse u WHERE u.userType = 'chapter' AND u.userId = p.chapterId AND u.imageId = p.imageId)",
      ),
    ).toBe(0);
  });

  it("sets logos and banners on every hub and series, avatars and banners on every user, with files present", () => {
    const files = imageFilesFor(dataDir);
    for (const table of ["Hub", "Series", "User"]) {
      expect(count(`SELECT COUNT(*) AS n FROM ${table} WHERE profileImageId IS NULL OR profileBannerId IS NULL`), table).toBe(0);
      const images = all<{ id: number; contentType: string; width: number; height: number; kind: string }>(
        `SELECT i.id, i.contentType, i.width, i.height, CASE WHEN i.id = t.profileBannerId THEN 'banner' ELSE 'logo' END AS kind
         FROM ${table} t JOIN Image i ON i.id IN (t.profileImageId, t.profileBannerId)`,
      );
      for (const image of images) {
        expect(fs.existsSync(imagePath(files, image)), `${table} image ${image.id}`).toBe(true);
        if (image.kind === "banner") expect([image.width, image.height]).toEqual([1500, 500]);
      }
    }
  });

  it("stores valid images whose metadata matches their rows, and not all the same picture", async () => {
    const files = imageFilesFor(dataDir);
    const rows = all<{ id: number; contentType: string; size: number; width: number; height: number }>(
      "SELECT id, contentType, size, width, height FROM Image",
    );
    const digests = new Set<string>();
    for (const row of rows) {
      const bytes = fs.readFileSync(imagePath(files, row));
      const meta = await sharp(bytes).metadata();
      expect(`image/${meta.format}`).toBe(row.contentType);
      expect([meta.width, meta.height, bytes.length]).toEqual([row.width, row.height, row.size]);
      digests.add(crypto.createHash("sha1").update(bytes).digest("hex"));
    }
    expect(rows.length).toBeGreaterThan(300);
    expect(digests.size).toBe(rows.length);
  });

  it("draws pages at about 900 x 1350", () => {
    const sizes = all<{ width: number; height: number }>(
      "SELECT DISTINCT i.width, i.height FROM ChapterPage p JOIN Image i ON i.id = p.imageId",
    );
    expect(sizes).toEqual([{ width: 900, height: 1350 }]);
  });

  it("keeps every counter equal to its rows", async () => {
    expect(await counterMismatches(db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
    expect(count("SELECT COUNT(*) AS n FROM PostLike")).toBeGreaterThan(100);
    expect(count("SELECT COUNT(*) AS n FROM Follow")).toBeGreaterThan(50);
    expect(count("SELECT COUNT(*) AS n FROM Notification")).toBeGreaterThan(300);
  });

  it("adds comment threads with replies, mentions and likes, some places with more than a page of them", () => {
    expect(result.seeded && result.counts.comments).toBe(count("SELECT COUNT(*) AS n FROM Comment"));
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE parentId IS NULL")).toBeGreaterThan(120);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE parentId IS NOT NULL")).toBeGreaterThan(60);
    expect(count("SELECT COUNT(*) AS n FROM CommentLike")).toBeGreaterThan(400);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE likes >= 5")).toBeGreaterThan(10);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE content LIKE '%@%'")).toBeGreaterThan(15);
    expect(count("SELECT COUNT(DISTINCT postId) AS n FROM Comment")).toBeGreaterThan(15);
    expect(count("SELECT COUNT(DISTINCT chapterId) AS n FROM Comment")).toBeGreaterThan(15);
    const pages = all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM Comment WHERE parentId IS NULL GROUP BY postId, chapterId HAVING COUNT(*) > 20",
    );
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // A reply to a reply is stored in its thread and tells the person it answered (docs/decisions/017).
    expect(
      count(`SELECT COUNT(*) AS n FROM Notification n JOIN Comment c ON c.id = n.commentId JOIN Comment t ON t.id = c.parentId
             WHERE n.kind = 'reply' AND n.userId <> t.authorId`),
    ).toBeGreaterThan(3);
    expect(
      count("SELECT COUNT(*) AS n FROM Comment WHERE deletedAt IS NOT NULL AND replyCount > 0 AND content = '' AND authorId IS NULL"),
    ).toBe(1);
  });

  it("dates every comment after what it answers and its author's joining, before now, in whole milliseconds", () => {
    expect(
      count(`SELECT COUNT(*) AS n FROM Comment c LEFT JOIN Post p ON p.id = c.postId LEFT JOIN Chapter ch ON ch.id = c.chapterId
             WHERE c.createdAt <= COALESCE(p.date, ch.date)`),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Comment c JOIN Comment t ON t.id = c.parentId WHERE c.createdAt <= t.createdAt")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Comment c JOIN User u ON u.id = c.authorId WHERE c.createdAt <= u.joinedAt")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE MAX(createdAt, COALESCE(deletedAt, 0)) >= ?", NOW)).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Notification WHERE createdAt >= ? OR readAt >= ? OR readAt < createdAt", NOW, NOW)).toBe(0);
    for (const column of ["Comment.createdAt", "Comment.deletedAt", "Notification.createdAt", "Notification.readAt"]) {
      const [table, name] = column.split(".");
      expect(count(`SELECT COUNT(*) AS n FROM ${table} WHERE typeof(${name}) NOT IN ('integer', 'null')`), column).toBe(0);
    }
  });

  it("makes the notifications of every kind, each naming something that exists; the demo login has unread and read ones", () => {
    expect(all<{ kind: string }>("SELECT DISTINCT kind FROM Notification ORDER BY kind").map((r) => r.kind)).toEqual([
      "chapter",
      "comment",
      "follow",
      "join",
      "mention",
      "reply",
    ]);
    expect(
      count(`SELECT COUNT(*) AS n FROM Notification n
             LEFT JOIN Comment c ON c.id = n.commentId LEFT JOIN Post p ON p.id = n.postId LEFT JOIN Chapter ch ON ch.id = n.chapterId
             LEFT JOIN Series s ON s.id = n.seriesId LEFT JOIN Hub h ON h.id = n.hubId
             WHERE CASE n.kind WHEN 'chapter' THEN ch.id IS NULL WHEN 'follow' THEN s.id IS NULL WHEN 'join' THEN h.id IS NULL
                   ELSE c.id IS NULL OR (p.id IS NULL AND ch.id IS NULL) OR c.deletedAt IS NOT NULL END`),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Notification WHERE actorId = userId")).toBe(0);
    const demo = one<{ unread: number; read: number }>(
      `SELECT u.unreadNotifications AS unread, (SELECT COUNT(*) FROM Notification WHERE userId = u.id AND readAt IS NOT NULL) AS read
       FROM User u WHERE username = 'demo'`,
    );
    expect(demo.unread).toBe(DEMO_UNREAD);
    expect(demo.read).toBeGreaterThan(50);
    expect(count("SELECT COUNT(*) AS n FROM User WHERE unreadNotifications > 0")).toBeGreaterThan(10);
  });

  it("makes every post's author a member of its hub", () => {
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Post p LEFT JOIN Membership m ON m.userId = p.authorId AND m.hubId = p.hubId WHERE m.userId IS NULL",
      ),
    ).toBe(0);
  });

  it("writes markdown posts with headings, lists, links, inline code, code blocks and a table", () => {
    const contents = all<{ content: string }>("SELECT content FROM Post").map((r) => r.content);
    const some = (re: RegExp) => contents.filter((c) => re.test(c)).length;
    expect(some(/^#{2,3} /m)).toBeGreaterThan(10);
    expect(some(/^(- |1\. )/m)).toBeGreaterThan(20);
    expect(some(/\]\((https?:\/\/|\/)[^)]+\)/)).toBeGreaterThan(5);
    expect(some(/`[^`\n]+`/)).toBeGreaterThan(5);
    expect(some(/^```/m)).toBeGreaterThan(3);
    expect(some(/^\|.*\|\n\|[-| ]+\|$/m)).toBeGreaterThan(1);
  });

  it("spreads dates over months, in the past, so 'latest' and 'most liked' differ", () => {
    const span = one<{ first: number; last: number }>("SELECT MIN(date) AS first, MAX(date) AS last FROM Post");
    expect(span.last - span.first).toBeGreaterThan(90 * 86_400_000);
    expect(span.last).toBeLessThan(NOW);
    const hub = one<{ id: number }>("SELECT id FROM Hub ORDER BY postCount DESC LIMIT 1").id;
    const latest = all<{ id: number }>("SELECT id FROM Post WHERE hubId = ? ORDER BY date DESC, id DESC LIMIT 10", hub).map((r) => r.id);
    const liked = all<{ id: number }>("SELECT id FROM Post WHERE hubId = ? ORDER BY likes DESC, id DESC LIMIT 10", hub).map((r) => r.id);
    expect(liked).not.toEqual(latest);
    expect(new Set(all<{ likes: number }>("SELECT likes FROM Post").map((r) => r.likes)).size).toBeGreaterThan(5);
  });

  it("makes the top lists differ from the newest lists", () => {
    const ids = (sql: string) => all<{ id: number }>(sql).map((r) => r.id);
    expect(ids("SELECT id FROM Hub ORDER BY memberCount DESC, id DESC LIMIT 5")).not.toEqual(
      ids("SELECT id FROM Hub ORDER BY createdAt DESC, id DESC LIMIT 5"),
    );
    expect(ids("SELECT id FROM Series ORDER BY followersCount DESC, id DESC LIMIT 5")).not.toEqual(
      ids("SELECT id FROM Series ORDER BY createdAt DESC, id DESC LIMIT 5"),
    );
    const series = one<{ id: number }>("SELECT id FROM Series ORDER BY chapterCount DESC LIMIT 1").id;
    expect(ids(`SELECT id FROM Chapter WHERE seriesId = ${series} ORDER BY likes DESC, id DESC LIMIT 5`)).not.toEqual(
      ids(`SELECT id FROM Chapter WHERE seriesId = ${series} ORDER BY number DESC LIMIT 5`),
    );
  });

  it("lets the demo user sign in through the API and shows their series and hubs", async () => {
    const api = supertest(createApp({ db, config: testConfig(dataDir) }));
    const login = await api.post("/auth/login").send({ username: "demo", password: "demo1234" });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.accessToken}` };
    const me = await api.get("/user/demo").set(auth);
    expect(me.body.email).toBe("demo@example.com");
    const series = await api.get(`/user/${me.body.id}/created-series`);
    const hubs = await api.get(`/user/${me.body.id}/created-hubs`);
    expect(series.body.length).toBeGreaterThanOrEqual(2);
    expect(hubs.body.length).toBeGreaterThanOrEqual(2);
    expect((await api.post("/auth/login").send({ username: "demo", password: "wrong-password" })).status).toBe(401);
  });

  it("serves a chapter with its pages in order through the API", async () => {
    const api = supertest(createApp({ db, config: testConfig(dataDir) }));
    const chapter = await api.get(`/series/${encodeURIComponent("Lanterns Over Kessel Bay")}/12`);
    expect(chapter.status).toBe(200);
    expect(chapter.body.pages.length).toBeGreaterThanOrEqual(3);
    expect(chapter.body.previousNumber).toBe(11);
    const image = await api.get(`/images/${chapter.body.pages[0].imageId}`);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);
  });

  it("skips a database that already has content and changes nothing", async () => {
    const before = count("SELECT (SELECT COUNT(*) FROM User) + (SELECT COUNT(*) FROM Post) + (SELECT COUNT(*) FROM Image) AS n");
    const filesBefore = fs.readdirSync(path.join(dataDir, "images", "originals")).length;
    expect(await isDatabaseEmpty(db.kysely)).toBe(false);
    const again = await seedDemo(db, dataDir, { bcryptCost: 4, now: NOW });
    expect(again.seeded).toBe(false);
    expect(count("SELECT (SELECT COUNT(*) FROM User) + (SELECT COUNT(*) FROM Post) + (SELECT COUNT(*) FROM Image) AS n")).toBe(before);
    expect(fs.readdirSync(path.join(dataDir, "images", "originals")).length).toBe(filesBefore);
    expect(fs.readdirSync(path.join(dataDir, "images")).filter((f) => f.startsWith(".seed-"))).toEqual([]);
  });
});
