// What a blocker's list read costs (docs/decisions/018-governance.md, "Blocks"): a hub of N posts by 100 authors,
// written straight into a fresh SQLite database; a viewer who blocks `blocks` of those authors (each holding 1 % of
// the posts). Times the hub's latest posts, page 1 and deeper, plain (a viewer without blocks) and for the blocker
// (the NOT EXISTS page and the `hidden` count). `node bench/blocked-lists.ts [posts] [blocks]` (default 200,000 and 5).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/database.ts";
import { migrateDatabase } from "../server/db/migrate.ts";
import { createPostQueries } from "../server/posts/posts.queries.ts";

const POSTS = Number(process.argv[2] ?? 200_000);
const BLOCKS = Number(process.argv[3] ?? 5);
const AUTHORS = 100;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-blocked-lists-"));
try {
  await migrateDatabase(dir);
  const db = await openDatabase(dir);
  const { kysely } = db;
  const now = Date.now();
  const users = await kysely
    .insertInto("User")
    .values(
      Array.from({ length: AUTHORS + 1 }, (_, i) => ({
        username: `u${i}`,
        usernameKey: `u${i}`,
        email: `u${i}@x.test`,
        emailKey: `u${i}@x.test`,
        passwordHash: "x",
        joinedAt: now,
      })),
    )
    .returning("id")
    .execute();
  const viewer = users[AUTHORS]!.id;
  const hub = await kysely
    .insertInto("Hub")
    .values({ name: "Big", nameKey: "big", authorId: users[0]!.id, createdAt: now, postCount: POSTS, memberCount: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (let i = 0; i < POSTS; i += 1000) {
    const n = Math.min(1000, POSTS - i);
    await kysely
      .insertInto("Post")
      .values(
        Array.from({ length: n }, (_, k) => ({
          title: `Post ${i + k}`,
          content: "Text",
          date: now + i + k,
          authorId: users[(i + k) % AUTHORS]!.id,
          hubId: hub.id,
          likes: 0,
        })),
      )
      .execute();
  }
  await kysely
    .insertInto("Block")
    .values(Array.from({ length: BLOCKS }, (_, i) => ({ userId: viewer, blockedId: users[i]!.id, createdAt: now })))
    .execute();
  await kysely.updateTable("User").set({ blockCount: BLOCKS }).where("id", "=", viewer).execute();

  const posts = createPostQueries(db);
  const time = async (label: string, run: () => Promise<unknown>) => {
    await run();
    const rounds = 20;
    const start = performance.now();
    for (let i = 0; i < rounds; i++) await run();
    console.log(`${label.padEnd(44)} ${((performance.now() - start) / rounds).toFixed(2)} ms`);
  };
  console.log(`${POSTS} posts, ${BLOCKS} of ${AUTHORS} authors blocked (${(POSTS * BLOCKS) / AUTHORS} posts hidden)`);
  for (const page of [1, 100, 1000]) {
    const offset = (page - 1) * 10;
    await time(`page ${page}, plain`, () => posts.page(hub.id, "latest", 10, offset));
    await time(`page ${page}, blocker (NOT EXISTS + hidden)`, () => posts.pageHidingBlocked(hub.id, "latest", 10, offset, viewer));
  }
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
