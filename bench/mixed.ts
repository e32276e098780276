// The mixed load: ~50 bench users signed in, then a time-bounded run where every request is drawn
// at random from likes/unlikes, joins/leaves, new posts and reads. Afterwards (site stopped) every
// counter is compared with its rows (seed/counters.ts) and the new posts with the 201s.
import fs from "node:fs";
import path from "node:path";
import type { Request } from "autocannon";
import type { Database as SiteDatabase } from "../server/db/database.ts";
import { counterMismatches, type CounterMismatches } from "../seed/counters.ts";
import { Random } from "../seed/random.ts";

/** server/db/database.ts databaseFile() (not imported: that module loads Prisma into the load worker too). */
const databaseFile = (dataDir: string) => path.join(dataDir, "app.db");

export type MixedOp = "like" | "unlike" | "join" | "leave" | "post" | "read";

export interface MixedPlan {
  users: { id: number; username: string; token: string }[];
  bigHub: { id: number; name: string };
  /** Posts of the big hub that get liked and unliked. */
  postIds: number[];
  /** Hubs (not the big one) joined and left. */
  hubIds: number[];
  /** GET paths mixed in. */
  reads: string[];
  /** Relative weights of the operations. */
  weights: Record<MixedOp, number>;
  seed: number;
}

export const MIXED_WEIGHTS: Record<MixedOp, number> = { like: 20, unlike: 15, join: 10, leave: 10, post: 10, read: 35 };

const enc = encodeURIComponent;

async function call<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/**
 * Signs in up to `userCount` authors of the big hub's posts (members of it, so they may post there;
 * every seeded user has the demo password), makes sure each is a member, and picks posts and hubs.
 */
export async function prepareMixed(
  apiUrl: string,
  options: { bigHubName: string; userCount: number; password: string },
): Promise<MixedPlan> {
  const hub = await call<{ id: number; name: string }>(`${apiUrl}/hubs/${enc(options.bigHubName)}`);
  const names = new Set<string>();
  const postIds: number[] = [];
  for (let page = 1; page <= 20 && names.size < options.userCount; page++) {
    const list = await call<{ content: { id: number; authorName: string }[] }>(
      `${apiUrl}/hubs/${enc(hub.name)}/posts/latest?page=${page}&size=100`,
    );
    if (list.content.length === 0) break;
    for (const post of list.content) {
      if (names.size < options.userCount) names.add(post.authorName);
      if (postIds.length < 500) postIds.push(post.id);
    }
  }
  if (names.size === 0) throw new Error(`No authors found in "${hub.name}"`);

  const users: MixedPlan["users"] = [];
  const queue = [...names];
  // A few sign-ins at a time: each is a bcrypt comparison on the server.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let username = queue.shift(); username; username = queue.shift()) {
        const { accessToken } = await call<{ accessToken: string }>(`${apiUrl}/auth/login`, {
          method: "POST",
          body: JSON.stringify({ username, password: options.password }),
        });
        const user = await call<{ id: number }>(`${apiUrl}/user/${enc(username)}`);
        await call(`${apiUrl}/user/${user.id}/member-hubs/${hub.id}`, { method: "POST", token: accessToken });
        users.push({ id: user.id, username, token: accessToken });
      }
    }),
  );
  users.sort((a, b) => a.id - b.id);

  const hubs = await call<{ content: { id: number }[] }>(`${apiUrl}/hubs?page=1&per_page=60`);
  const hubIds = hubs.content.map((h) => h.id).filter((id) => id !== hub.id);
  if (hubIds.length === 0) throw new Error("No hubs to join and leave besides the big one");

  return {
    users,
    bigHub: { id: hub.id, name: hub.name },
    postIds,
    hubIds,
    reads: [
      `/hubs/${enc(hub.name)}/posts/latest?page=1&size=10`,
      `/hubs/${enc(hub.name)}/${postIds[0]}`,
      "/hubs/top?per_page=5",
      "/hubs?page=1",
    ],
    weights: MIXED_WEIGHTS,
    seed: 20261121,
  };
}

/**
 * autocannon's requests for the mixed load: one request whose setupRequest draws the operation (the
 * context remembers it for onResponse, which reports every answer per operation; "sent" counts
 * the requests built per operation).
 */
export function mixedRequests(plan: MixedPlan, record: (op: MixedOp, status: number | "sent", body: string) => void): Request[] {
  // Seeded, so a run's sequence of operations is reproducible.
  const generator = new Random(plan.seed);
  const rnd = () => generator.next();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const ops = Object.entries(plan.weights) as [MixedOp, number][];
  const total = ops.reduce((sum, [, w]) => sum + w, 0);
  const drawOp = (): MixedOp => {
    let x = rnd() * total;
    for (const [op, w] of ops) if ((x -= w) < 0) return op;
    return "read";
  };
  const hub = enc(plan.bigHub.name);
  let serial = 0;
  return [
    {
      setupRequest: (req, context) => {
        const op = drawOp();
        context.op = op;
        // Counted when built: an upper bound of what reached the server (a run can end with requests in flight).
        record(op, "sent", "");
        const user = pick(plan.users);
        const auth = { authorization: `Bearer ${user.token}`, "content-type": "application/json" };
        switch (op) {
          case "like":
          case "unlike":
            return {
              ...req,
              method: op === "like" ? "POST" : "DELETE",
              path: `/hubs/${hub}/${pick(plan.postIds)}/like`,
              headers: auth,
              body: undefined,
            };
          case "join":
          case "leave":
            return {
              ...req,
              method: op === "join" ? "POST" : "DELETE",
              path: `/user/${user.id}/member-hubs/${pick(plan.hubIds)}`,
              headers: auth,
              body: undefined,
            };
          case "post": {
            const n = ++serial;
            const body = JSON.stringify({
              title: `Bench post ${n} by ${user.username}`,
              content: `Written by the benchmark's mixed load (post ${n}). **Markdown** with a [link](https://example.com).`,
              description: "A post from the benchmark.",
              hubId: plan.bigHub.id,
            });
            return { ...req, method: "POST", path: "/hub-posts", headers: auth, body };
          }
          default:
            return { ...req, method: "GET", path: pick(plan.reads), headers: {}, body: undefined };
        }
      },
      onResponse: (status, body, context) => record(context.op as MixedOp, status, body),
    },
  ];
}

export interface CounterCheck {
  mismatches: CounterMismatches;
  /** Sum of all mismatches: 0 when every counter equals its rows. */
  total: number;
  posts: number;
}

/**
 * Reads a site's database directly (the site must be stopped): counters against rows, and the post count. The data
 * folder's SQLite, or the PostgreSQL of `databaseUrl`.
 */
export function checkCounters(dataDir: string, databaseUrl?: string): Promise<CounterCheck> {
  return withDatabase(dataDir, databaseUrl, async (db) => {
    const mismatches = await counterMismatches(db.kysely);
    return { mismatches, total: Object.values(mismatches).reduce((a, b) => a + b, 0), posts: await postRows(db) };
  });
}

export function countPosts(dataDir: string, databaseUrl?: string): Promise<number> {
  return withDatabase(dataDir, databaseUrl, postRows);
}

const postRows = async (db: SiteDatabase) =>
  (
    await db.kysely
      .selectFrom("Post")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
  ).n;

export async function withDatabase<T>(dataDir: string, databaseUrl: string | undefined, use: (db: SiteDatabase) => Promise<T>): Promise<T> {
  if (!databaseUrl && !fs.existsSync(databaseFile(dataDir))) throw new Error(`No database in ${dataDir}`);
  // Loaded here, not with this module: the load worker imports it and must not load Prisma.
  const { openDatabase } = await import("../server/db/database.ts");
  const db = await openDatabase(dataDir, databaseUrl);
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}
