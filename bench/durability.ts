// Writes per second with SQLite synchronous = NORMAL vs FULL on this machine (likes, posts, image
// uploads), and the cost of fsyncing an uploaded file: the numbers behind docs/decisions/009.
// Run: node bench/durability.ts [seconds per measurement, default 4]
import fs from "node:fs";
import fsp from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { createApp } from "../server/app.ts";
import { openDatabase } from "../server/db/database.ts";
import { migrateDatabase } from "../server/db/migrate.ts";

const SECONDS = Number(process.argv[2] ?? 4);
const CONCURRENCY = 8;

async function measure(mode: "NORMAL" | "FULL", template: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-durability-"));
  fs.copyFileSync(path.join(template, "app.db"), path.join(dataDir, "app.db"));
  const db = await openDatabase(dataDir);
  await sql.raw(`PRAGMA synchronous = ${mode}`).execute(db.kysely);
  const app = createApp({
    db,
    config: {
      dataDir,
      jwtSecret: "durability-bench-secret-0123456789",
      jwtTtlSeconds: 3600,
      bcryptCost: 4,
      uploadMaxBytes: 10 << 20,
      authRateLimit: 0,
      uploadRatePerHour: 0,
      postRatePerHour: 0,
      responseCacheEntries: 0,
    },
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const json = async (method: string, p: string, body?: unknown, token?: string) => {
    const res = await fetch(base + p, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const tokens: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++)
    tokens.push(
      (await json("POST", "/auth/register", { username: `bench${mode}${i}`, email: `b${mode}${i}@example.com`, password: "secret123" }))
        .accessToken,
    );
  const hub = await json("POST", "/hubs", { name: `Bench ${mode}`, description: "x" }, tokens[0]);
  const posts: number[] = [];
  for (let i = 0; i < 200; i++)
    posts.push(
      (await json("POST", "/hub-posts", { title: `Bench post ${i}`, content: "Some words to like.", hubId: hub.id }, tokens[0])).id,
    );
  const image = await sharp({ create: { width: 800, height: 1200, channels: 3, background: "#c84" } })
    .png()
    .toBuffer();

  async function run(op: (worker: number, i: number) => Promise<void>): Promise<number> {
    let done = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, w) => {
        for (let i = 0; Date.now() < until; i++, done++) await op(w, i);
      }),
    );
    return done / SECONDS;
  }
  const result = {
    mode,
    likesPerSecond: await run((w, i) =>
      json(
        i % 2 === 0 ? "POST" : "DELETE",
        `/hubs/${encodeURIComponent(hub.name)}/${posts[(w * 25 + (i >> 1)) % posts.length]}/like`,
        undefined,
        tokens[w],
      ),
    ),
    postsPerSecond: await run((_w, i) =>
      json("POST", "/hub-posts", { title: `Timed post ${i}`, content: "Measured write.", hubId: hub.id }, tokens[0]),
    ),
    uploadsPerSecond: await run(async (w) => {
      const form = new FormData();
      form.append("file", new Blob([image as BlobPart]), "page.png");
      const res = await fetch(`${base}/images`, { method: "POST", headers: { authorization: `Bearer ${tokens[w]}` }, body: form });
      if (res.status !== 201) throw new Error(`upload ${res.status}`);
      await res.arrayBuffer();
    }),
  };
  server.closeAllConnections();
  server.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return result;
}

/** Milliseconds to write (and fsync, or not) one file of `size` bytes, the median of `n`. */
async function fileWrite(sync: boolean, size: number, n = 60): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-fsync-"));
  const bytes = Buffer.alloc(size, 7);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const handle = await fsp.open(path.join(dir, `${i}.bin`), "wx");
    await handle.writeFile(bytes);
    if (sync) await handle.sync();
    await handle.close();
    if (sync) {
      const d = await fsp.open(dir, "r");
      await d.sync();
      await d.close();
    }
    times.push(performance.now() - t);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return times.sort((a, b) => a - b)[n >> 1]!;
}

/** Microseconds per one-row write transaction on a bare WAL database, the median of `n`. */
async function commitMicros(mode: "NORMAL" | "FULL", n = 2000): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-commit-"));
  const { default: Sqlite } = await import("better-sqlite3");
  const db = new Sqlite(path.join(dir, "t.db"));
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${mode}`);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    insert.run(`row ${i}`);
    times.push((performance.now() - t) * 1000);
  }
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return Math.round(times.sort((a, b) => a - b)[n >> 1]!);
}

const template = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-durability-template-"));
await migrateDatabase(template);
console.log(
  `load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const mode of ["NORMAL", "FULL", "NORMAL", "FULL"] as const) console.log(JSON.stringify(await measure(mode, template)));
console.log(JSON.stringify({ commitMicrosMedian: { NORMAL: await commitMicros("NORMAL"), FULL: await commitMicros("FULL") } }));
console.log(JSON.stringify({ fileWriteMsMedian300KB: { noSync: await fileWrite(false, 300_000), fsync: await fileWrite(true, 300_000) } }));
fs.rmSync(template, { recursive: true, force: true });
