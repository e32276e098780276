import bcrypt from "bcryptjs";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { imageFilesFor, imagePath } from "../../seed/image-store.ts";
import { BIG_HUB_NAME, BENCHMARK_COUNTS, parseScaleCounts, seedScale, type ScaleResult } from "../../seed/scale.ts";
import { NO_COUNTER_MISMATCHES, plainQueries, setUpSeededFolder } from "../helpers/seeded-folder.ts";

const COUNTS = { users: 200, hubs: 500, posts: 3000, bigHubPosts: 1000, series: 20, chapters: 200 };

let dataDir: string;
let db: Database;
let result: ScaleResult;
setUpSeededFolder(
  (database, folder) => seedScale(database, folder, COUNTS, { bcryptCost: 4, now: Date.UTC(2025, 5, 1) }),
  (seeded) => ({ dataDir, db, result } = seeded),
  180_000,
);
const { all, count } = plainQueries(() => db);

describe("seedScale", () => {
  it("writes exactly the counts asked for", () => {
    expect(count("SELECT COUNT(*) AS n FROM User")).toBe(200);
    expect(count("SELECT COUNT(*) AS n FROM Hub")).toBe(500);
    expect(count("SELECT COUNT(*) AS n FROM Post")).toBe(3000);
    expect(count("SELECT COUNT(*) AS n FROM Series")).toBe(20);
    expect(count("SELECT COUNT(*) AS n FROM Chapter")).toBe(200);
    expect(result.rows).toMatchObject({ users: 200, hubs: 500, posts: 3000, series: 20, chapters: 200 });
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
    expect(pages).toHaveLength(200);
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
    expect(count("SELECT COUNT(DISTINCT lower(usernameKey)) AS n FROM User")).toBe(200);
  });

  it("refuses PostgreSQL: the large set is written into SQLite only", async () => {
    await expect(seedScale({ ...db, engine: "postgres" }, dataDir, COUNTS, { bcryptCost: 4 })).rejects.toThrow(/SQLite only.*DATABASE_URL/);
  });

  it("refuses a database that already has content", async () => {
    await expect(seedScale(db, dataDir, COUNTS, { bcryptCost: 4 })).rejects.toThrow(/empty database/);
    expect(count("SELECT COUNT(*) AS n FROM User")).toBe(200);
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
  });
});
