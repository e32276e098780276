// Issue 12: two Inkwell instances (API and web app each, separate processes, own data folders) on one PostgreSQL,
// one Redis and one S3 bucket behave as one site (docs/api.md §1): reads see acknowledged writes on either, counts
// stay exact under likes spread over both, the sign-in limit and logouts hold across them, images are served by
// either, and the survivor of a SIGKILL keeps answering without a single error.
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageBytes } from "../helpers/images.ts";
import { startServices, type RunningServices } from "../services/index.ts";
import { isRunning, killInstance, startInstances, stopAllInstances, type Instance } from "./instances.ts";

const SIGN_IN_LIMIT = 6;

let services: RunningServices | undefined;
let a: Instance;
let b: Instance;
let database: pg.Client | undefined;

beforeAll(async () => {
  services = await startServices();
  const instances = await startInstances(["a", "b"], {
    ...services.env,
    NODE_ENV: "production",
    JWT_SECRET: "multi-instance-jwt-secret-0123456789",
    SESSION_SECRET: "multi-instance-session-secret-0123456789",
    LOG_LEVEL: "warn",
    BCRYPT_COST: "4",
    AUTH_RATE_LIMIT_PER_15_MIN: String(SIGN_IN_LIMIT),
    UPLOAD_RATE_PER_HOUR: "0",
    POST_RATE_PER_HOUR: "0", // writers under load post faster than a person (docs/api.md "Limits")
  });
  [a, b] = [instances[0]!, instances[1]!];
  database = new pg.Client({ connectionString: services.postgres.url });
  await database.connect();
}, 240_000);

afterAll(async () => {
  await database?.end();
  await stopAllInstances();
  await services?.stop();
}, 60_000);

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's JSON, checked field by field
}

/** One API call; `from` is the client address the API sees (X-Forwarded-For from loopback, TRUST_PROXY's default). */
async function call(
  instance: Instance,
  method: string,
  path: string,
  { token, body, from }: { token?: string; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${instance.api}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(from ? { "X-Forwarded-For": from } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

interface User {
  name: string;
  id: number;
  token: string;
}

// Every registration from its own address, so only the sign-in limit test meets the per-address limit.
let addresses = 0;
const nextAddress = () => `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

async function register(instance: Instance, name: string): Promise<User> {
  const res = await call(instance, "POST", "/auth/register", {
    body: { username: name, email: `${name}@example.com`, password: "secret123" },
    from: nextAddress(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.accessToken as string;
  const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { uid: number };
  return { name, id: claims.uid, token };
}

async function createHub(instance: Instance, owner: User, name: string): Promise<number> {
  const res = await call(instance, "POST", "/hubs", { token: owner.token, body: { name, description: "Two instances, one site." } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

async function createPost(instance: Instance, author: User, hubId: number, title: string): Promise<number> {
  const res = await call(instance, "POST", "/hub-posts", { token: author.token, body: { title, content: "Posted in a test.", hubId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const latestTitles = async (instance: Instance, hubName: string) => {
  const res = await call(instance, "GET", `/hubs/${encodeURIComponent(hubName)}/posts/latest?per_page=50`);
  expect(res.status).toBe(200);
  return (res.body.content as { title: string }[]).map((post) => post.title);
};

/** The post's `likes`, and its like rows, straight from PostgreSQL. */
async function likesInDatabase(postId: number): Promise<{ likes: number; rows: number; userIds: number[] }> {
  const post = await database!.query<{ likes: string }>(`SELECT likes FROM "Post" WHERE id = $1`, [postId]);
  const rows = await database!.query<{ userId: number }>(`SELECT "userId" FROM "PostLike" WHERE "postId" = $1 ORDER BY "userId"`, [postId]);
  return { likes: Number(post.rows[0]!.likes), rows: rows.rowCount ?? 0, userIds: rows.rows.map((row) => row.userId) };
}

describe("two instances on PostgreSQL, Redis and S3", () => {
  let owner: User;
  const hubName = "Multi Instance Hub";
  let hubId: number;

  beforeAll(async () => {
    owner = await register(a, "owner");
    hubId = await createHub(a, owner, hubName);
  }, 30_000);

  it("runs each instance in its own process on its own data folder, in production (no demo seeded)", () => {
    expect(a.dataDir).not.toBe(b.dataDir);
    expect(a.child.pid).not.toBe(b.child.pid);
    for (const instance of [a, b]) expect(instance.output()).toContain("(empty: SEED_DEMO=true adds the demo");
  });

  it("reads a write acknowledged by A on B's next read, B's cached answer included, and the other way round", async () => {
    const hubPath = `/hubs/${encodeURIComponent(hubName)}`;
    for (let round = 0; round < 5; round++) {
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      const title = `Round ${round} written on ${writer.name}`;
      // Read (and so cache) on the reader first; the same anonymous read twice is the same answer.
      const before = await latestTitles(reader, hubName);
      expect(before).not.toContain(title);
      expect(await latestTitles(reader, hubName)).toEqual(before);
      const hubBefore = await call(reader, "GET", hubPath);
      // Changed behind the API's back (no write, no new data version): the reader still answers what it kept,
      // which shows its answer comes from its cache.
      const description = `Description of round ${round}`;
      await database!.query(`UPDATE "Hub" SET description = $1 WHERE id = $2`, [description, hubId]);
      expect((await call(reader, "GET", hubPath)).body).toEqual(hubBefore.body);

      const postId = await createPost(writer, owner, hubId, title);

      expect(await latestTitles(reader, hubName)).toContain(title);
      const hubAfter = await call(reader, "GET", hubPath);
      expect(hubAfter.body.postCount).toBe(hubBefore.body.postCount + 1);
      expect(hubAfter.body.description).toBe(description);
      // A like on the writer is counted in the reader's next (cached) read of the post.
      expect((await call(reader, "GET", `${hubPath}/${postId}`)).body.likes).toBe(0);
      const like = await call(writer, "POST", `${hubPath}/${postId}/like`, { token: owner.token });
      expect(like.body).toEqual({ liked: true, likes: 1 });
      expect((await call(reader, "GET", `${hubPath}/${postId}`)).body.likes).toBe(1);
    }
  }, 30_000);

  it("shows a guest on web B a page with a write made through A, though B kept the page before", async () => {
    const page = `${b.web}/hubs/${encodeURIComponent(hubName)}`;
    const first = await fetch(page);
    expect(first.status).toBe(200);
    await first.text();
    const kept = await fetch(page);
    expect(kept.headers.get("x-page-cache")).toBe("hit");
    const title = "Seen by guests of web B";
    expect(await kept.text()).not.toContain(title);

    await createPost(a, owner, hubId, title);

    const fresh = await fetch(page);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-page-cache")).toBe("miss");
    expect(await fresh.text()).toContain(title);
  }, 30_000);

  it("shows a signed-in reader on web B their progress saved through A, though B kept their page before", async () => {
    const reader = await register(a, "kept_reader");
    const form = new FormData();
    form.append("file", new Blob([(await imageBytes("png", 60, 90)) as BlobPart]), "page.png");
    const image = await fetch(`${a.api}/images`, { method: "POST", headers: { Authorization: `Bearer ${owner.token}` }, body: form });
    expect(image.status).toBe(201);
    const series = await call(a, "POST", "/series", { token: owner.token, body: { name: "Kept On B", description: "Progress" } });
    expect(series.status).toBe(201);
    const chapter = await call(a, "POST", `/series/${series.body.id}/chapters`, {
      token: owner.token,
      body: { title: "One", pages: [((await image.json()) as { id: number }).id] },
    });
    expect(chapter.status).toBe(201);
    const login = await fetch(`${b.web}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: b.web },
      body: new URLSearchParams({ username: reader.name, password: "secret123" }),
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const page = () => fetch(`${b.web}/series/Kept%20On%20B`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(15_000) });
    await (await page()).text();
    const kept = await page();
    expect(kept.headers.get("x-page-cache")).toBe("hit");
    expect((await kept.text()).replaceAll("<!-- -->", "")).not.toContain("Continue: Chapter 1");

    expect(
      (await call(a, "PUT", `/me/progress/${series.body.id}`, { token: reader.token, body: { chapterNumber: 1, page: 1 } })).status,
    ).toBe(200);

    const fresh = await page();
    expect(fresh.headers.get("x-page-cache")).toBe("miss");
    expect((await fresh.text()).replaceAll("<!-- -->", "")).toContain("Continue: Chapter 1, page 1");
  }, 30_000);

  it("keeps a post's likes exact under 40 users liking at once through both, with repeats and unlikes", async () => {
    const postId = await createPost(a, owner, hubId, "Liked from both sides");
    const likePath = `/hubs/${encodeURIComponent(hubName)}/${postId}/like`;
    const users = await Promise.all(Array.from({ length: 40 }, (_, i) => register(i % 2 === 0 ? a : b, `liker${i}`)));
    const other = (via: Instance) => (via === a ? b : a);

    // Half the users like through A, half through B. Users 0-9 also like again at the same moment through the
    // other instance (counted once); users 10-19 unlike through the other instance once their like is answered.
    const answers = await Promise.all(
      users.map(async (user, i) => {
        const via = i % 2 === 0 ? a : b;
        const like = () => call(via, "POST", likePath, { token: user.token });
        if (i < 10) return Promise.all([like(), call(other(via), "POST", likePath, { token: user.token })]);
        const liked = await like();
        if (i < 20) return [liked, await call(other(via), "DELETE", likePath, { token: user.token })];
        return [liked];
      }),
    );
    answers.forEach((userAnswers, i) => {
      for (const answer of userAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(userAnswers.at(-1)!.body.liked, `liker${i}`).toBe(!(i >= 10 && i < 20));
    });

    const expected = users.filter((_, i) => i < 10 || i >= 20).map((user) => user.id);
    expect(await likesInDatabase(postId)).toEqual({ likes: 30, rows: 30, userIds: expected.sort((x, y) => x - y) });
    for (const instance of [a, b]) {
      expect((await call(instance, "GET", `/hubs/${encodeURIComponent(hubName)}/${postId}`)).body.likes).toBe(30);
    }
  }, 60_000);

  it("counts sign-in attempts from one address once over both instances", async () => {
    const user = await register(a, "limited");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 2 * SIGN_IN_LIMIT; attempt++) {
      const res = await call(attempt % 2 === 0 ? a : b, "POST", "/auth/login", {
        body: { username: user.name, password: "secret123" },
        from: "203.0.113.7",
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(SIGN_IN_LIMIT).fill(200), ...Array(SIGN_IN_LIMIT).fill(429)]);
    // Another address is not held back by it, on either instance.
    for (const instance of [a, b]) {
      expect(
        (await call(instance, "POST", "/auth/login", { body: { username: user.name, password: "secret123" }, from: nextAddress() })).status,
      ).toBe(200);
    }
  }, 30_000);

  it("refuses on B a token logged out on A", async () => {
    const user = await register(a, "leaver");
    expect((await call(b, "GET", `/user/id/${user.id}`, { token: user.token })).status).toBe(200);
    expect((await call(b, "POST", `/user/${user.id}/member-hubs/${hubId}`, { token: user.token })).status).toBe(200);

    expect((await call(a, "POST", "/auth/logout", { token: user.token })).status).toBe(200);

    expect((await call(b, "GET", `/user/id/${user.id}`, { token: user.token })).status).toBe(401);
    expect((await call(b, "DELETE", `/user/${user.id}/member-hubs/${hubId}`, { token: user.token })).status).toBe(401);
    expect((await call(a, "GET", "/hubs", { token: user.token })).status).toBe(401);
  }, 30_000);

  it("serves from B an image uploaded on A, original and a rendition made on B", async () => {
    const uploader = await register(a, "uploader");
    const form = new FormData();
    form.append("file", new Blob([(await imageBytes("png", 400, 300)) as BlobPart]), "wide.png");
    const upload = await fetch(`${a.api}/images`, { method: "POST", headers: { Authorization: `Bearer ${uploader.token}` }, body: form });
    expect(upload.status).toBe(201);
    const { id, size } = (await upload.json()) as { id: number; size: number };

    const bytes = async (instance: Instance, query = "") => {
      const res = await fetch(`${instance.api}/images/${id}${query}`, { headers: { Authorization: `Bearer ${uploader.token}` } });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const original = await bytes(b);
    expect(original.length).toBe(size);
    expect(original.equals(await bytes(a))).toBe(true);

    const rendition = await bytes(b, "?w=160");
    expect((await sharp(rendition).metadata()).width).toBe(160);
    // Made once by B and kept in the bucket: A serves the very same bytes.
    expect(rendition.equals(await bytes(a, "?w=160"))).toBe(true);
  }, 30_000);

  it("keeps A answering every request without an error while B is killed in the middle of a load of reads and writes", async () => {
    const target = await createPost(a, owner, hubId, "Toggled during the kill");
    const hubPath = `/hubs/${encodeURIComponent(hubName)}`;
    const workers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const instance = i % 2 === 0 ? a : b;
        const user = await register(instance, `loader${i}`);
        expect((await call(instance, "POST", `/user/${user.id}/member-hubs/${hubId}`, { token: user.token })).status).toBe(200);
        return { instance, user };
      }),
    );

    interface Sent {
      instance: string;
      op: string;
      startedAt: number;
      endedAt?: number;
      status?: number;
      error?: string;
    }
    const sent: Sent[] = [];
    let killedAt = Infinity;
    let stopAt = Infinity;

    type Request = readonly [op: string, send: () => Promise<Answer>];
    /** A member's reads and writes through one instance's API, in turn. */
    const apiRequests = (instance: Instance, user: User) => (i: number) =>
      (
        [
          ["read list", () => call(instance, "GET", `${hubPath}/posts/latest`)],
          ["like", () => call(instance, "POST", `${hubPath}/${target}/like`, { token: user.token })],
          ["read post", () => call(instance, "GET", `${hubPath}/${target}`)],
          [
            "new post",
            () =>
              call(instance, "POST", "/hub-posts", {
                token: user.token,
                body: { title: `Load ${i}`, content: "Posted under load.", hubId },
              }),
          ],
          ["unlike", () => call(instance, "DELETE", `${hubPath}/${target}/like`, { token: user.token })],
        ] as const
      )[i % 5]!;
    /** A guest reading the hub's page on one instance's web app. */
    const pageRequests = (instance: Instance) => (): Request => [
      "guest page",
      async () => {
        const res = await fetch(`${instance.web}${hubPath}`, { signal: AbortSignal.timeout(15_000) });
        return { status: res.status, body: await res.text() };
      },
    ];

    async function load(instance: Instance, next: (i: number) => Request) {
      for (let i = 0; performance.now() < stopAt; i++) {
        const [op, send] = next(i);
        const entry: Sent = { instance: instance.name, op, startedAt: performance.now() };
        sent.push(entry);
        try {
          const answer = await send();
          entry.status = answer.status;
          if (answer.status > 299) entry.error = JSON.stringify(answer.body);
        } catch (err) {
          entry.error = String((err as Error).cause ?? err);
        } finally {
          entry.endedAt = performance.now();
        }
        // B is being killed: its worker stops at its first failure.
        if (instance === b && entry.status === undefined && killedAt !== Infinity) return;
      }
    }

    const loads = Promise.all([
      ...workers.map(({ instance, user }) => load(instance, apiRequests(instance, user))),
      ...[a, b].map((instance) => load(instance, pageRequests(instance))),
    ]);
    // Both sides under load for a moment, then B dies; A carries on for 3 s.
    const loadStart = performance.now();
    while (performance.now() - loadStart < 1000 || sent.filter((s) => s.instance === "b" && s.status).length < 10) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const outputBeforeKill = a.output().length;
    killedAt = performance.now();
    await killInstance(b);
    expect(isRunning(b)).toBe(false);
    stopAt = performance.now() + 3000;
    await loads;

    const onA = sent.filter((s) => s.instance === "a");
    const afterKill = onA.filter((s) => s.startedAt >= killedAt);
    // Every request A got, before the kill and after, was answered 2xx.
    expect(onA.filter((s) => s.error !== undefined || s.status! < 200 || s.status! > 299)).toEqual([]);
    expect(afterKill.length).toBeGreaterThanOrEqual(15);
    for (const op of ["read list", "like", "read post", "new post", "unlike", "guest page"])
      expect(
        afterKill.some((s) => s.op === op),
        op,
      ).toBe(true);
    // B answered 2xx too while it lived; requests in flight when it was killed, or sent after, are allowed to fail.
    const onB = sent.filter((s) => s.instance === "b");
    expect(onB.filter((s) => s.endedAt! < killedAt && (s.error !== undefined || s.status! < 200 || s.status! > 299))).toEqual([]);
    expect(onB.some((s) => s.error !== undefined)).toBe(true);
    // A logged no error about it.
    expect(a.output().slice(outputBeforeKill)).not.toMatch(/"level":(50|60)/);

    // A still reads and writes, and the counts left behind by both are exact.
    const title = "Written on A after B died";
    await createPost(a, owner, hubId, title);
    expect(await latestTitles(a, hubName)).toContain(title);
    const page = await fetch(`${a.web}${hubPath}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(title);
    const counts = await likesInDatabase(target);
    expect(counts.likes).toBe(counts.rows);
    expect((await call(a, "GET", `${hubPath}/${target}`)).body.likes).toBe(counts.rows);
    const postCount = await database!.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "Post" WHERE "hubId" = $1`, [hubId]);
    expect((await call(a, "GET", hubPath)).body.postCount).toBe(Number(postCount.rows[0]!.n));
  }, 60_000);
});
