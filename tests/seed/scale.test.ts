import bcrypt from "bcryptjs";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { imageFilesFor, imagePath } from "../../seed/image-store.ts";
import { BIG_HUB_NAME, BENCHMARK_COUNTS, parseScaleCounts, seedScale, type ScaleResult } from "../../seed/scale.ts";
import { CROWD_SERIES_NAME, DEMO_HUBS, DEMO_NOTIFICATIONS, QUIET_SERIES_NAME } from "../../seed/scale-counts.ts";
import { BENCH_ADMIN, BENCH_BLOCKER, BENCH_MODERATOR, governanceCounts } from "../../seed/scale-governance.ts";
import { NO_COUNTER_MISMATCHES, plainQueries, setUpSeededFolder } from "../helpers/seeded-folder.ts";

const COUNTS = {
  users: 200,
  hubs: 500,
  posts: 3000,
  bigHubPosts: 1000,
  series: 60,
  chapters: 300,
  comments: 4000,
  bigPostComments: 500,
  readers: 100,
};

let dataDir: string;
let db: Database;
let result: ScaleResult;
setUpSeededFolder(
  (database, folder) => seedScale(database, folder, COUNTS, { bcryptCost: 4, now: Date.UTC(2025, 5, 1) }),
  (seeded) => ({ dataDir, db, result } = seeded),
  180_000,
);
const { all, count } = plainQueries(() => db);
/** The users, the readers and the bench's three governance accounts (seed/scale-governance.ts). */
const ALL_USERS = COUNTS.users + COUNTS.readers + 3;
/** The demo user's id (user 0 of the seed); readers come after the `users` ones. */
const firstUserId = () => count("SELECT id AS n FROM User WHERE username = 'demo'");

describe("seedScale", () => {
  it("writes exactly the counts asked for", () => {
    expect(count("SELECT COUNT(*) AS n FROM User")).toBe(ALL_USERS);
    // Verified, as the demo's members (docs/api.md "Verified email addresses").
    expect(count("SELECT COUNT(*) AS n FROM User WHERE emailVerified <> 1")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Hub")).toBe(500);
    expect(count("SELECT COUNT(*) AS n FROM Post")).toBe(3000);
    expect(count("SELECT COUNT(*) AS n FROM Series")).toBe(60);
    expect(count("SELECT COUNT(*) AS n FROM Chapter")).toBe(300);
    expect(count("SELECT COUNT(*) AS n FROM Comment")).toBe(4000);
    expect(result.rows).toMatchObject({ users: ALL_USERS, hubs: 500, posts: 3000, series: 60, chapters: 300, comments: 4000 });
  });

  it("puts bigHubPosts posts in the big hub and leaves most hubs empty", () => {
    expect(count("SELECT COUNT(*) AS n FROM Post p JOIN Hub h ON h.id = p.hubId WHERE h.name = ?", BIG_HUB_NAME)).toBe(1000);
    expect(result.bigHub).toMatchObject({ name: BIG_HUB_NAME, posts: 1000 });
    expect(count("SELECT COUNT(*) AS n FROM Hub WHERE postCount = 0")).toBeGreaterThan(400);
    expect(count("SELECT MAX(postCount) AS n FROM Hub WHERE name <> ?", BIG_HUB_NAME)).toBeLessThan(1000);
  });

  it("keeps every counter equal to its rows", async () => {
    expect(await counterMismatches(db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
    expect(count("SELECT COUNT(*) AS n FROM PostLike")).toBe(result.rows.postLikes);
    expect(count("SELECT COUNT(*) AS n FROM Membership")).toBe(result.rows.memberships);
  });

  it("follows the app's rules: authors are members, creators are members, pages belong to the publisher", () => {
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Post p LEFT JOIN Membership m ON m.userId = p.authorId AND m.hubId = p.hubId WHERE m.userId IS NULL",
      ),
    ).toBe(0);
    expect(
      count("SELECT COUNT(*) AS n FROM Hub h LEFT JOIN Membership m ON m.userId = h.authorId AND m.hubId = h.id WHERE m.userId IS NULL"),
    ).toBe(0);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM ChapterPage p JOIN Chapter c ON c.id = p.chapterId JOIN Image i ON i.id = p.imageId WHERE i.authorId <> c.authorId",
      ),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM PostLike l JOIN Post p ON p.id = l.postId WHERE l.userId = p.authorId")).toBe(0);
  });

  it("gives every chapter 3 to 8 pages and a cover, numbered 1..n in each series", () => {
    const pages = all<{ n: number }>("SELECT COUNT(*) AS n FROM ChapterPage GROUP BY chapterId");
    expect(pages).toHaveLength(300);
    expect(Math.min(...pages.map((p) => p.n))).toBeGreaterThanOrEqual(3);
    expect(Math.max(...pages.map((p) => p.n))).toBeLessThanOrEqual(8);
    expect(count("SELECT COUNT(*) AS n FROM Chapter WHERE coverId IS NULL")).toBe(0);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Series s WHERE s.chapterCount > 0 AND (SELECT MAX(number) FROM Chapter c WHERE c.seriesId = s.id) <> s.chapterCount",
      ),
    ).toBe(0);
  });

  it("stores image files for every image row", () => {
    const files = imageFilesFor(dataDir);
    const rows = all<{ id: number; contentType: string }>("SELECT id, contentType FROM Image");
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(fs.existsSync(imagePath(files, row)), `image ${row.id}`).toBe(true);
  });

  it("varies likes, so 'by likes' differs from 'latest'", () => {
    const hubId = all<{ id: number }>("SELECT id FROM Hub WHERE name = ?", BIG_HUB_NAME)[0]!.id;
    const latest = all<{ id: number }>("SELECT id FROM Post WHERE hubId = ? ORDER BY date DESC, id DESC LIMIT 10", hubId);
    const liked = all<{ id: number }>("SELECT id FROM Post WHERE hubId = ? ORDER BY likes DESC, id DESC LIMIT 10", hubId);
    expect(liked).not.toEqual(latest);
    expect(count("SELECT COUNT(DISTINCT likes) AS n FROM Post")).toBeGreaterThan(5);
  });

  it("shares one password hash that verifies demo1234, and names are unique case-insensitively", async () => {
    const hashes = all<{ passwordHash: string }>("SELECT DISTINCT passwordHash FROM User");
    expect(hashes).toHaveLength(1);
    expect(await bcrypt.compare("demo1234", hashes[0]!.passwordHash)).toBe(true);
    expect(count("SELECT COUNT(*) AS n FROM User WHERE username = 'demo'")).toBe(1);
    expect(count("SELECT COUNT(DISTINCT nameKey) AS n FROM Hub")).toBe(500);
    expect(count("SELECT COUNT(DISTINCT lower(usernameKey)) AS n FROM User")).toBe(ALL_USERS);
  });

  it("gives the big hub's newest post exactly bigPostComments top-level comments, and spreads the rest over posts and chapters", () => {
    const newest = all<{ id: number; commentCount: number }>(
      "SELECT p.id, p.commentCount FROM Post p JOIN Hub h ON h.id = p.hubId WHERE h.name = ? ORDER BY p.date DESC, p.id DESC LIMIT 1",
      BIG_HUB_NAME,
    )[0]!;
    expect(result.bigPost).toEqual({ id: newest.id, topLevelComments: 500 });
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE postId = ? AND parentId IS NULL", newest.id)).toBe(500);
    expect(count("SELECT MAX(commentCount) AS n FROM Post WHERE id <> ?", newest.id)).toBeLessThan(newest.commentCount);
    expect(count("SELECT COUNT(DISTINCT postId) AS n FROM Comment")).toBeGreaterThan(100);
    expect(count("SELECT COUNT(DISTINCT chapterId) AS n FROM Comment")).toBeGreaterThan(20);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE parentId IS NOT NULL AND chapterId IS NOT NULL")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE (postId IS NULL) = (chapterId IS NULL)")).toBe(0);
    // A reply belongs to a top-level comment of the same place, and comes after it.
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Comment r JOIN Comment t ON t.id = r.parentId
         WHERE t.parentId IS NOT NULL OR t.postId IS NOT r.postId OR t.chapterId IS NOT r.chapterId OR r.createdAt < t.createdAt`,
      ),
    ).toBe(0);
    expect(
      count("SELECT COUNT(*) AS n FROM Comment r LEFT JOIN Comment t ON t.id = r.parentId WHERE r.parentId IS NOT NULL AND t.id IS NULL"),
    ).toBe(0);
    // Readers write nothing; likes vary, and nobody likes their own comment.
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE authorId > ?", 200 + firstUserId() - 1)).toBe(0);
    expect(count("SELECT COUNT(DISTINCT likes) AS n FROM Comment")).toBeGreaterThan(5);
    expect(count("SELECT COUNT(*) AS n FROM CommentLike l JOIN Comment c ON c.id = l.commentId WHERE l.userId = c.authorId")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM CommentLike")).toBe(result.rows.commentLikes);
  });

  it("notifies the authors answered, never for one's own comment, with read and unread ones", () => {
    expect(count("SELECT COUNT(*) AS n FROM Notification")).toBe(result.rows.notifications);
    expect(result.rows.notifications).toBeGreaterThan(3000);
    expect(count("SELECT COUNT(*) AS n FROM Notification WHERE userId = actorId")).toBe(0);
    // A comment notifies its place's author; a reply the author of the comment it answers.
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Notification n JOIN Comment c ON c.id = n.commentId
         LEFT JOIN Post p ON p.id = c.postId LEFT JOIN Chapter ch ON ch.id = c.chapterId LEFT JOIN Comment t ON t.id = c.parentId
         WHERE n.actorId <> c.authorId
            OR (n.kind = 'comment' AND (c.parentId IS NOT NULL OR n.userId <> COALESCE(p.authorId, ch.authorId)))
            OR (n.kind = 'reply' AND n.userId IS NOT t.authorId)
            OR n.postId IS NOT c.postId OR n.chapterId IS NOT c.chapterId`,
      ),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Notification WHERE readAt IS NULL")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM Notification WHERE readAt IS NOT NULL")).toBeGreaterThan(0);
  });

  it("has demo follow its series, join DEMO_HUBS hubs besides the big one, and be told of its series' newest chapters only", () => {
    const demo = firstUserId();
    // 60 series by 3 artists: every one but demo's own and the quiet one.
    const followable = count("SELECT COUNT(*) AS n FROM Series WHERE authorId <> ? AND name <> ?", demo, QUIET_SERIES_NAME);
    expect(count("SELECT COUNT(*) AS n FROM Follow WHERE userId = ?", demo)).toBe(followable);
    expect(result.demo.follows).toBe(followable);
    expect(count("SELECT COUNT(*) AS n FROM Membership WHERE userId = ?", demo)).toBe(1 + DEMO_HUBS);
    expect(result.demo.hubs).toBe(1 + DEMO_HUBS);
    const kinds = all<{ kind: string; n: number }>("SELECT kind, COUNT(*) AS n FROM Notification WHERE userId = ? GROUP BY kind", demo);
    expect(kinds).toEqual([{ kind: "chapter", n: result.demo.notifications }]);
    expect(result.demo.notifications).toBeGreaterThan(100);
    const chapters = count(
      "SELECT COUNT(*) AS n FROM Chapter c JOIN Follow f ON f.seriesId = c.seriesId AND f.userId = ? WHERE f.createdAt <= c.date",
      demo,
    );
    expect(result.demo.notifications).toBe(Math.min(DEMO_NOTIFICATIONS, chapters));
    expect(count("SELECT unreadNotifications AS n FROM User WHERE id = ?", demo)).toBeGreaterThan(0);
  });

  it("has a crowd series that every user and reader follows and a quiet one nobody follows, each with a chapter", () => {
    const crowd = all<{ followersCount: number; chapterCount: number; authorId: number }>(
      "SELECT followersCount, chapterCount, authorId FROM Series WHERE name = ?",
      CROWD_SERIES_NAME,
    )[0]!;
    expect(crowd.followersCount).toBe(299);
    expect(result.crowdSeries).toMatchObject({ name: CROWD_SERIES_NAME, followers: 299 });
    expect(crowd.chapterCount).toBeGreaterThan(0);
    expect(count("SELECT MAX(followersCount) AS n FROM Series WHERE name <> ?", CROWD_SERIES_NAME)).toBeLessThan(200);
    const quiet = all<{ followersCount: number; chapterCount: number }>(
      "SELECT followersCount, chapterCount FROM Series WHERE name = ?",
      QUIET_SERIES_NAME,
    )[0]!;
    expect(quiet).toMatchObject({ followersCount: 0 });
    expect(quiet.chapterCount).toBeGreaterThan(0);
    // Readers follow the crowd series and nothing else.
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Follow f JOIN Series s ON s.id = f.seriesId WHERE f.userId >= ? AND s.name <> ?",
        firstUserId() + 200,
        CROWD_SERIES_NAME,
      ),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM Membership WHERE userId >= ?", firstUserId() + 200)).toBe(0);
  });

  it("ends with the app's indexes on the comment and notification tables (made again after the bulk load)", () => {
    const names = all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('Comment', 'CommentLike', 'Notification') ORDER BY name",
    ).map((r) => r.name);
    expect(names).toEqual([
      "CommentLike_commentId_idx",
      "Comment_authorId_parentId_postId_chapterId_idx",
      "Comment_chapterId_parentId_createdAt_id_idx",
      "Comment_chapterId_parentId_likes_createdAt_id_idx",
      "Comment_parentId_createdAt_id_idx",
      "Comment_postId_parentId_createdAt_id_idx",
      "Comment_postId_parentId_likes_createdAt_id_idx",
      "Comment_removedById_idx",
      "Notification_chapterId_idx",
      "Notification_commentId_idx",
      "Notification_hubId_actorId_idx",
      "Notification_postId_idx",
      "Notification_seriesId_actorId_idx",
      "Notification_userId_createdAt_id_idx",
      "Notification_userId_readAt_createdAt_id_idx",
    ]);
  });

  it("writes issue 14's rows: the bench's admin, moderator and blocker, bans, reports, mod logs, blocks and image uses", () => {
    const g = governanceCounts(COUNTS);
    const bigHub = result.bigHub.id;
    const id = (username: string) => count("SELECT id AS n FROM User WHERE username = ?", username);
    expect(count("SELECT COUNT(*) AS n FROM User WHERE isAdmin = 1")).toBe(1);
    expect(count("SELECT isAdmin AS n FROM User WHERE username = ?", BENCH_ADMIN)).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM HubModerator WHERE hubId = ? AND userId = ?", bigHub, id(BENCH_MODERATOR))).toBe(1);
    // Bans in the big hub, none of a member (the mixed load signs its authors in and posts there).
    expect(count("SELECT COUNT(*) AS n FROM HubBan WHERE hubId = ?", bigHub)).toBe(g.bigHubBans);
    expect(count("SELECT COUNT(*) AS n FROM HubBan b JOIN Membership m ON m.userId = b.userId AND m.hubId = b.hubId")).toBe(0);
    // Reports: one per subject, never by the author of a reported post, most resolved, each resolution complete and logged.
    expect(count("SELECT COUNT(*) AS n FROM Report")).toBe(g.reports);
    expect(count("SELECT COUNT(*) AS n FROM (SELECT DISTINCT subjectType, subjectId FROM Report)")).toBe(g.reports);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Report r JOIN Post p ON r.subjectType = 'post' AND p.id = r.subjectId WHERE p.authorId = r.reporterId",
      ),
    ).toBe(0);
    const open = count("SELECT COUNT(*) AS n FROM Report WHERE status = 'open'");
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(g.reports / 2);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM Report WHERE status = 'resolved' AND (resolvedAt IS NULL OR resolvedById IS NULL OR resolution IS NULL)",
      ),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM ModLogEntry WHERE action = 'report-dismissed'")).toBe(
      count("SELECT COUNT(*) AS n FROM Report WHERE resolution = 'dismiss'"),
    );
    expect(count("SELECT COUNT(*) AS n FROM Comment WHERE removedAt IS NOT NULL")).toBe(
      count("SELECT COUNT(*) AS n FROM Report WHERE resolution = 'remove'"),
    );
    expect(count("SELECT COUNT(*) AS n FROM ModLogEntry WHERE hubId = ?", bigHub)).toBeGreaterThanOrEqual(g.bigHubModLog - 2);
    expect(count("SELECT COUNT(*) AS n FROM ModLogEntry")).toBeGreaterThanOrEqual(g.modLog - 1);
    // Blocks (their counts are checked with every counter above), and the uses of every published image.
    expect(count("SELECT blockCount AS n FROM User WHERE username = ?", BENCH_BLOCKER)).toBe(g.blocks);
    expect(
      count(`SELECT COUNT(*) AS n FROM ChapterPage p WHERE NOT EXISTS
               (SELECT 1 FROM ImageUse u WHERE u.userType = 'chapter' AND u.userId = p.chapterId AND u.imageId = p.imageId)`),
    ).toBe(0);
    expect(
      count(`SELECT COUNT(*) AS n FROM Hub h WHERE h.profileImageId IS NOT NULL AND NOT EXISTS
               (SELECT 1 FROM ImageUse u WHERE u.userType = 'hub' AND u.userId = h.id AND u.imageId = h.profileImageId)`),
    ).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM ImageUse")).toBeGreaterThan(0);
  });

  it("refuses PostgreSQL: the large set is written into SQLite only", async () => {
    await expect(seedScale({ ...db, engine: "postgres" }, dataDir, COUNTS, { bcryptCost: 4 })).rejects.toThrow(/SQLite only.*DATABASE_URL/);
  });

  it("refuses a database that already has content", async () => {
    await expect(seedScale(db, dataDir, COUNTS, { bcryptCost: 4 })).rejects.toThrow(/empty database/);
    expect(count("SELECT COUNT(*) AS n FROM User")).toBe(ALL_USERS);
  });
});

describe("parseScaleCounts", () => {
  it("reads name=count pairs and keeps the benchmark's values for the rest", () => {
    expect(parseScaleCounts("users=10,posts=1_000,bigHubPosts=100")).toEqual({
      ...BENCHMARK_COUNTS,
      users: 10,
      posts: 1000,
      bigHubPosts: 100,
    });
    expect(parseScaleCounts("")).toEqual(BENCHMARK_COUNTS);
  });

  it("rejects unknown names, bad numbers and impossible combinations", () => {
    expect(() => parseScaleCounts("pages=3")).toThrow(/Bad --scale count/);
    expect(() => parseScaleCounts("users=-1")).toThrow(/Bad --scale count/);
    expect(() => parseScaleCounts("users=0")).toThrow(/users must be at least 1/);
    expect(() => parseScaleCounts("posts=10,bigHubPosts=20")).toThrow(/cannot exceed/);
    expect(() => parseScaleCounts("hubs=0,posts=5,bigHubPosts=0")).toThrow(/at least one hub/);
    expect(() => parseScaleCounts("comments=10,bigPostComments=20")).toThrow(/cannot exceed comments/);
    expect(() => parseScaleCounts("bigHubPosts=0,bigPostComments=5")).toThrow(/need a post in the big hub/);
    expect(parseScaleCounts("comments=500,bigPostComments=50,readers=7,commentLikes=9")).toMatchObject({
      comments: 500,
      bigPostComments: 50,
      readers: 7,
      commentLikes: 9,
    });
  });
});
