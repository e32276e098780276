// The data layer's foundation (docs/decisions/014-data-layer.md) on the engine of this run: prepared queries,
// numbers as numbers, the counted toggle across two instances, the migrations, and the PostgreSQL schema.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCountedToggle } from "../../server/db/counted-toggle.ts";
import type { Database } from "../../server/db/database.ts";
import { migrateDatabase, migratePostgres } from "../../server/db/migrate.ts";
import { prepare } from "../../server/db/prepared.ts";
import { postgresSchema, POSTGRES_SCHEMA, SQLITE_SCHEMA } from "../../scripts/postgres-schema.ts";
import { freshTestStore, testEngine, type TestStore } from "../helpers/test-data-dir.ts";
import type { ToggleInstanceJob } from "../helpers/toggle-instance.ts";

let store: TestStore;
let db: Database;
beforeAll(async () => {
  store = await freshTestStore();
  db = await store.open();
});
afterAll(async () => {
  await db.close();
  await store.remove();
});

let userSeq = 0;
async function insertUsers(count: number, joinedAt = Date.now()): Promise<number[]> {
  const rows = Array.from({ length: count }, () => {
    const username = `layer_${++userSeq}`;
    return {
      username,
      usernameKey: username,
      email: `${username}@example.com`,
      emailKey: `${username}@example.com`,
      passwordHash: "x",
      joinedAt,
    };
  });
  const inserted = await db.kysely.insertInto("User").values(rows).returning("id").execute();
  return inserted.map((row) => row.id).sort((a, b) => a - b);
}

describe("prepare()", () => {
  it("puts each named value at every position that names it", async () => {
    const values = prepare<{ a: number; b: string; c: number }, { a1: number; b: string; a2: number; c: number; a3: number }>(
      db.kysely,
      (p) =>
        sql`SELECT CAST(${p("a")} AS INTEGER) AS a1, CAST(${p("b")} AS TEXT) AS b, CAST(${p("a")} AS INTEGER) AS a2,
          CAST(${p("c")} AS INTEGER) AS c, CAST(${p("a")} AS INTEGER) AS a3`,
    );

    expect(await values.first({ a: 7, b: "bee", c: 11 })).toEqual({ a1: 7, b: "bee", a2: 7, c: 11, a3: 7 });
    expect(await values.first({ c: 3, a: -2, b: "again" })).toEqual({ a1: -2, b: "again", a2: -2, c: 3, a3: -2 });
  });

  it("fills a builder's placeholders in the order the compiled SQL uses them", async () => {
    const ids = await insertUsers(5);
    const between = prepare<{ low: number; high: number }, { id: number }>(db.kysely, (p) =>
      db.kysely
        .selectFrom("User")
        .select("id")
        .where("id", ">=", p("low"))
        .where("id", "<=", p("high"))
        .where("id", "<>", p("low"))
        .orderBy("id"),
    );

    expect(await between.all({ low: ids[1]!, high: ids[3]! })).toEqual([{ id: ids[2] }, { id: ids[3] }]);
    expect(await between.all({ high: ids[4]!, low: ids[3]! })).toEqual([{ id: ids[4] }]);
  });

  it("answers how many rows a write changed", async () => {
    const ids = await insertUsers(3);
    const rename = prepare<{ from: number; to: number; hash: string }>(db.kysely, (p) =>
      db.kysely
        .updateTable("User")
        .set({ passwordHash: p("hash") })
        .where("id", ">=", p("from"))
        .where("id", "<=", p("to")),
    );

    expect(await rename.run({ from: ids[0]!, to: ids[1]!, hash: "changed" })).toBe(2);
    expect(await rename.run({ from: -2, to: -1, hash: "none" })).toBe(0);
  });

  it("refuses a call without one of the named values", async () => {
    const byId = prepare<{ id: number; key: string }, { id: number }>(db.kysely, (p) =>
      db.kysely.selectFrom("User").select("id").where("id", "=", p("id")).where("usernameKey", "=", p("key")),
    );

    await expect(byId.all({ id: 1 } as { id: number; key: string })).rejects.toThrow(/No value for :key/);
  });
});

describe("numbers from either engine", () => {
  it("reads integer-millisecond dates and COUNT(*) as JS numbers", async () => {
    const joinedAt = Date.UTC(2099, 11, 31, 23, 59, 59, 999); // past 2^32 seconds' worth of ms
    const [id] = await insertUsers(1, joinedAt);

    const row = await db.kysely.selectFrom("User").select("joinedAt").where("id", "=", id!).executeTakeFirstOrThrow();
    const { n } = await db.kysely
      .selectFrom("User")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ n: number; total: number }>`SELECT COUNT(*) AS n, SUM("joinedAt") AS total FROM "User"
      WHERE id = ${id}`.execute(db.kysely);

    expect(row.joinedAt).toBe(joinedAt);
    expect(typeof n).toBe("number");
    expect(n).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ n: 1, total: joinedAt });
  });
});

type Answer = { count: number } | { error: string };

/** A second instance in its own process (tests/helpers/toggle-instance.ts), ready to run its calls on `go()`. */
async function secondInstance(job: ToggleInstanceJob): Promise<{ go(): Promise<Answer[]> }> {
  const child = spawn(process.execPath, [path.resolve("tests/helpers/toggle-instance.ts"), JSON.stringify(job)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const next = lines[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const first = await next.next();
  if (first.value !== "ready") throw new Error(`the second instance did not start (exit ${await exited})`);
  return {
    async go() {
      child.stdin.end("go\n");
      const answers = await next.next();
      lines.close();
      expect(await exited).toBe(0);
      return JSON.parse(answers.value as string) as Answer[];
    },
  };
}

describe("createCountedToggle across two instances on one database", () => {
  const spec = {
    link: "PostLike",
    targetColumn: "postId",
    target: "Post",
    counter: "likes",
    timestamped: false,
  } as const;

  async function newPost(authorId: number): Promise<number> {
    return db.kysely.transaction().execute(async (trx) => {
      const hub = await trx
        .insertInto("Hub")
        .values({ name: `Toggle hub ${++userSeq}`, nameKey: `toggle hub ${userSeq}`, authorId, createdAt: Date.now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      const post = await trx
        .insertInto("Post")
        .values({ title: "Liked", content: "Liked by many at once", date: Date.now(), authorId, hubId: hub.id })
        .returning("id")
        .executeTakeFirstOrThrow();
      return post.id;
    });
  }

  it("keeps the counter equal to its rows under 40 concurrent likes and unlikes", async () => {
    const users = await insertUsers(20);
    const postId = await newPost(users[0]!);
    // Everyone likes on this instance; on the other, half like again and the other half unlike, all at once.
    const other = await secondInstance({
      dataDir: store.dataDir,
      databaseUrl: store.databaseUrl,
      spec,
      calls: users.map((userId, i) => ({ userId, targetId: postId, on: i < 10 })),
    });
    const like = createCountedToggle(db, spec);
    const toggle = (userId: number, targetId: number, on: boolean) =>
      db.kysely.transaction().execute((trx) => like(trx, userId, targetId, on));

    const [here, there] = await Promise.all([Promise.all(users.map((userId) => toggle(userId, postId, true))), other.go()]);

    const { likes } = await db.kysely.selectFrom("Post").select("likes").where("id", "=", postId).executeTakeFirstOrThrow();
    const likers = (await db.kysely.selectFrom("PostLike").select("userId").where("postId", "=", postId).execute()).map((r) => r.userId);
    expect(there.filter((answer) => "error" in answer)).toEqual([]);
    expect(likes).toBe(likers.length);
    expect(likers).toEqual(expect.arrayContaining(users.slice(0, 10)));
    for (const count of [...here, ...there.map((answer) => (answer as { count: number }).count)]) {
      expect(count).toBeGreaterThanOrEqual(0);
      expect(count).toBeLessThanOrEqual(20);
    }
  }, 60_000);

  // The toggle answers the fact (null); the like services turn it into the 404 (tests/api/post-likes.test.ts and the others).
  it("answers null for a missing target and changes nothing", async () => {
    const [userId] = await insertUsers(1);
    const before = await db.kysely.selectFrom("PostLike").select("postId").execute();

    const toggle = createCountedToggle(db, spec);
    const refused = db.kysely.transaction().execute((trx) => toggle(trx, userId!, 987_654_321, true));

    await expect(refused).resolves.toBeNull();
    expect(await db.kysely.selectFrom("PostLike").select("postId").execute()).toEqual(before);
  });
});

describe("migrateDatabase", () => {
  const appliedMigrations = async () =>
    (await sql<{ name: string }>`SELECT migration_name AS name FROM "_prisma_migrations" ORDER BY migration_name`.execute(db.kysely)).rows;

  it("applied again to a migrated database changes nothing", async () => {
    const before = await appliedMigrations();
    const [kept] = await insertUsers(1);

    // As at a start: the migration runs before the app opens the database (Prisma's SQLite deploy wants it alone).
    await db.close();
    await migrateDatabase(store.dataDir, store.databaseUrl);
    await migrateDatabase(store.dataDir, store.databaseUrl);
    db = await store.open();

    expect(before.length).toBeGreaterThan(0);
    expect(await appliedMigrations()).toEqual(before);
    expect(await db.kysely.selectFrom("User").select("id").where("id", "=", kept!).executeTakeFirst()).toEqual({ id: kept });
  }, 60_000);

  // The runner is PostgreSQL's own (SQLite's migrations go through `prisma migrate deploy`): only the postgres project has it.
  if (testEngine === "postgres") {
    it("refuses a migration whose file changed after it was applied", async () => {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-migrations-"));
      try {
        fs.cpSync(path.resolve("prisma/postgres/migrations"), copy, { recursive: true });
        await migratePostgres(store.databaseUrl!, copy);
        const [first] = fs
          .readdirSync(copy, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort();
        fs.appendFileSync(path.join(copy, first!, "migration.sql"), "\n-- changed after it was applied\n");

        await expect(migratePostgres(store.databaseUrl!, copy)).rejects.toThrow(`The migration ${first} was changed after it was applied`);
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    });
  }
});

describe("prisma/postgres/schema.prisma", () => {
  it("is what scripts/postgres-schema.ts makes of prisma/schema.prisma (npm run db:postgres-schema)", () => {
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });
});
