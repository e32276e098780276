import supertest from "supertest";
import { afterAll, beforeAll } from "vitest";
import { createApp, stopJobRunner, type AppConfig } from "../../server/app.ts";
import type { JobRunnerOptions } from "../../server/jobs/job-runner.ts";
import { memorySharedState, redisSharedState } from "../../server/shared-state.ts";
import type { Database } from "../../server/db/database.ts";
import type { ResponseCache } from "../../server/http/response-cache.ts";
import { ContractChecker } from "./contract.ts";
import { freshTestStore } from "./test-data-dir.ts";

type Method = "get" | "post" | "put" | "delete";

export interface TestApi {
  app: ReturnType<typeof createApp>;
  db: Database;
  config: AppConfig;
  dataDir: string;
  /** supertest, with every response checked against /openapi.json. */
  request: Record<Method, (url: string) => supertest.Test>;
  /** Registers a user through the API; the token and id come back. */
  register(username?: string, password?: string): Promise<TestUser>;
  /** Call after writing rows with db.kysely directly: the API's response cache only sees its own writes. */
  dataChanged(): void;
  close(): Promise<void>;
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  auth: { Authorization: string };
}

let userSeq = 0;

export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    dataDir,
    jwtSecret: "test-secret-that-is-long-enough-0123456789",
    jwtTtlSeconds: 3600,
    bcryptCost: 4,
    uploadMaxBytes: 10 * 1024 * 1024,
    authRateLimit: 0,
    // Off unless a test sets it (tests/api/comments.test.ts checks the limit).
    commentRatePerMinute: 0,
    // Off unless a test sets it (tests/api/reports.test.ts checks the limit).
    reportRatePerHour: 0,
    // Off unless a test sets them (tests/api/write-limits.test.ts checks the limits).
    postRatePerHour: 0,
    editRatePerHour: 0,
    chapterRatePerHour: 0,
    ...overrides,
  };
}

/** The real app on a fresh copy of the migrated database; `options.jobs`: its job runner's timings. */
export async function startTestApi(overrides: Partial<AppConfig> = {}, options: { jobs?: JobRunnerOptions } = {}): Promise<TestApi> {
  const store = await freshTestStore();
  const { dataDir } = store;
  const db = await store.open();
  const config = testConfig(dataDir, { s3: store.s3, ...overrides });
  const shared = store.redis ? redisSharedState(store.redis.url, { keyPrefix: store.redis.keyPrefix }) : memorySharedState(db);
  const app = createApp({ db, config, shared, jobs: options.jobs });
  const doc = (await supertest(app).get("/openapi.json")).body;
  const checker = new ContractChecker(doc);
  const agent = supertest(app);

  const checked = (method: Method) => (url: string) => {
    const test = agent[method](url);
    const then = test.then.bind(test);
    // Validate when the test awaits the response.
    test.then = ((resolve, reject) =>
      then((res) => {
        checker.check(method, url, res);
        return res;
      }).then(resolve, reject)) as typeof test.then;
    return test;
  };
  const request = { get: checked("get"), post: checked("post"), put: checked("put"), delete: checked("delete") };

  return {
    app,
    db,
    config,
    dataDir,
    request,
    async register(username = `user${process.pid}_${++userSeq}`, password = "secret123") {
      const email = `${username.toLowerCase()}@example.com`;
      const res = await request.post("/auth/register").send({ username, email, password });
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.accessToken as string;
      const me = await request.get(`/user/${username}`).set("Authorization", `Bearer ${token}`);
      return { id: me.body.id, username, email, password, token, auth: { Authorization: `Bearer ${token}` } };
    },
    dataChanged() {
      (app.locals.responseCache as ResponseCache).invalidate();
    },
    async close() {
      await stopJobRunner(app);
      await db.close();
      await shared.close();
      await store.remove();
    },
  };
}

/** A registered user for each of the names, as a tuple in their order. */
export type UsersNamed<Usernames extends readonly string[]> = { -readonly [K in keyof Usernames]: TestUser };

/** Registers a user under each name, one after another, so that the ids follow the order of the names. */
export async function registerUsers<const Usernames extends readonly string[]>(
  api: TestApi,
  usernames: Usernames,
): Promise<UsersNamed<Usernames>> {
  const users: TestUser[] = [];
  for (const username of usernames) users.push(await api.register(username));
  return users as UsersNamed<Usernames>;
}

/**
 * A test file's shared set-up: before its tests, the real app (as startTestApi) with a user registered under
 * each name, handed to `ready` (which may add the file's own set-up); after them, closed.
 */
export function setUpSharedTestApi<const Usernames extends readonly string[]>(
  usernames: Usernames,
  ready: (api: TestApi, users: UsersNamed<Usernames>) => void | Promise<void>,
  overrides: Partial<AppConfig> = {},
): void {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startTestApi(overrides);
    await ready(api, await registerUsers(api, usernames));
  });
  afterAll(() => api?.close());
}
