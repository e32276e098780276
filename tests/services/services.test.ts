// The services harness, for real: PostgreSQL, Redis and S3 started, used from Node as the app will use them, stopped,
// and nothing left behind (ports closed, folders removed).
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPortClosed, startRedis, startServices, type RunningServices } from "./index.ts";

let services: RunningServices;

beforeAll(async () => {
  services = await startServices({ bucket: "inkwell-smoke" });
});
afterAll(() => services?.stop());

describe("PostgreSQL", () => {
  it("answers an ILIKE search through a pg_trgm GIN index", async () => {
    const client = new pg.Client({ connectionString: services.postgres.url });
    await client.connect();
    try {
      await client.query("CREATE EXTENSION pg_trgm");
      await client.query("CREATE TABLE series (id serial PRIMARY KEY, name text NOT NULL)");
      await client.query("CREATE INDEX series_name_trgm ON series USING gin (name gin_trgm_ops)");
      await client.query("INSERT INTO series (name) SELECT 'Series ' || n FROM generate_series(1, 500) AS n");
      await client.query("INSERT INTO series (name) VALUES ('Moonlight Courier'), ('The HONEYMOON Files')");

      // The table is small enough for a sequential scan; turning it off shows the index can answer ILIKE.
      await client.query("SET enable_seqscan = off");
      const plan = await client.query<{ "QUERY PLAN": string }>("EXPLAIN SELECT name FROM series WHERE name ILIKE '%moon%'");
      const found = await client.query<{ name: string }>("SELECT name FROM series WHERE name ILIKE $1 ORDER BY name", ["%moon%"]);

      expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("series_name_trgm");
      expect(found.rows.map((row) => row.name)).toEqual(["Moonlight Courier", "The HONEYMOON Files"]);
    } finally {
      await client.end();
    }
  });
});

describe("Redis", () => {
  it("sets, gets and increments keys that expire", async () => {
    const redis = new Redis(services.redis.url, { maxRetriesPerRequest: 1 });
    try {
      await redis.set("session:42", "alice", "EX", 60);
      await redis.set("login-attempts:alice", "0", "PX", 150);
      const incremented = [await redis.incr("login-attempts:alice"), await redis.incr("login-attempts:alice")];

      expect(await redis.get("session:42")).toBe("alice");
      expect(await redis.ttl("session:42")).toBeGreaterThan(50);
      expect(incremented).toEqual([1, 2]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await redis.get("login-attempts:alice")).toBeNull();
      expect(await redis.get("session:42")).toBe("alice");
    } finally {
      redis.disconnect();
    }
  });

  it("says how to install Redis when redis-server is missing, at once", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(startRedis()).rejects.toThrow("Redis 7 is not installed: apt-get install redis-server");
    } finally {
      process.env.PATH = path;
    }
  });
});

describe("S3 (Swift)", () => {
  it("gives the settings of docs/api.md §1, for a bucket made at start", async () => {
    const s3 = new S3Client(services.s3.clientConfig());
    try {
      await expect(s3.send(new HeadBucketCommand({ Bucket: services.s3.bucket }))).resolves.toBeDefined();
      expect(services.s3.env).toEqual({
        S3_ENDPOINT: services.s3.endpoint,
        S3_REGION: "us-east-1",
        S3_BUCKET: "inkwell-smoke",
        S3_ACCESS_KEY_ID: "test:tester",
        S3_SECRET_ACCESS_KEY: "testing",
        S3_FORCE_PATH_STYLE: "true",
      });
    } finally {
      s3.destroy();
    }
  });

  it("stores a streamed upload and gives back the same bytes", async () => {
    const s3 = new S3Client(services.s3.clientConfig());
    const page = randomBytes(1024 * 1024 + 7);
    const chunks = Array.from({ length: Math.ceil(page.length / 65_536) }, (_, i) => page.subarray(i * 65_536, (i + 1) * 65_536));
    try {
      await s3.send(new CreateBucketCommand({ Bucket: "pages" }));
      await s3.send(
        new PutObjectCommand({
          Bucket: "pages",
          Key: "chapters/1/page-1.png",
          Body: Readable.from(chunks),
          ContentLength: page.length,
          ContentType: "image/png",
        }),
      );
      const stored = await s3.send(new GetObjectCommand({ Bucket: "pages", Key: "chapters/1/page-1.png" }));

      expect(stored.ContentType).toBe("image/png");
      expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(page)).toBe(true);
    } finally {
      s3.destroy();
    }
  });

  it("refuses a request signed with the wrong secret", async () => {
    const config = services.s3.clientConfig();
    const s3 = new S3Client({ ...config, credentials: { accessKeyId: services.s3.accessKeyId, secretAccessKey: "not-the-secret" } });
    try {
      await expect(s3.send(new ListObjectsV2Command({ Bucket: services.s3.bucket }))).rejects.toMatchObject({
        name: "SignatureDoesNotMatch",
        $metadata: { httpStatusCode: 403 },
      });
    } finally {
      s3.destroy();
    }
  });
});

describe("stop", () => {
  it("closes every port and removes every folder; stopping again does nothing", async () => {
    const { postgres, redis, s3 } = services;
    const ports = [postgres.port, redis.port, ...Object.values(s3.ports)];
    const dirs = [postgres.dir, redis.dir, s3.dir];
    expect(dirs.every((dir) => fs.existsSync(dir))).toBe(true);

    await services.stop();

    for (const port of ports) expect(await isPortClosed(port), `port ${port}`).toBe(true);
    for (const dir of dirs) expect(fs.existsSync(dir), dir).toBe(false);
    await expect(services.stop()).resolves.toBeUndefined();
  });
});
