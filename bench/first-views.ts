// First views (issue 29): many sessions, each opening each signed-in page once on the site as deployed, so that no
// page the cache keeps for a session (docs/decisions/020-signed-in-page-cache.md) can answer. This file picks seeded
// accounts of several kinds through the API and signs them in through the login form, as a browser does; the load
// (load-worker.ts) sends each (session, page) pair once.
import { GOVERNANCE_USERS } from "./governance.ts";
import { BENCH_USER, webSessionCookie, type Picks } from "./scenarios.ts";

/** At most this many distinct accounts: the sessions are spread over them (several sessions of one account are as separate as two browsers). */
export const FIRST_VIEW_USERS = 300;
/** Sign-ins at a time: each is a bcrypt comparison on the site's one process, so more would only queue there. */
export const SIGN_IN_CONCURRENCY = 4;
/** The warm-up's sessions (other than the measured ones): one for this many measured sessions, at least a connection's worth. */
export const WARMUP_SESSION_SHARE = 10;

/** The seeded accounts a first-view run signs in, and how many of each kind. */
export interface FirstViewUsers {
  names: string[];
  kinds: Record<string, number>;
}

const enc = encodeURIComponent;

/** The authors named on one page of a list. */
async function names(url: string): Promise<string[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  const page = (await res.json()) as { content: Record<string, unknown>[] };
  return page.content.map((item) => item.authorName).filter((name): name is string => typeof name === "string" && name.length > 0);
}

/**
 * Up to `want` seeded accounts with different states, taken in turn from each kind: the bench accounts (`demo`: 500
 * series followed and 3,000 notifications; the admin, the big hub's moderator, the blocker whose lists hide posts),
 * authors of the big hub's newest posts (members who write), authors of the big post's top comments and of the
 * chapter's comments, and the series' authors (artists). Every seeded user has the bench password.
 */
export async function firstViewUsers(apiUrl: string, p: Picks, want: number): Promise<FirstViewUsers> {
  const hub = enc(p.bigHub.name);
  const series = enc(p.series.name);
  const fixed = [BENCH_USER.username, ...Object.values(GOVERNANCE_USERS)];
  const list = (path: string) => (page: number) => names(`${apiUrl}${path}${path.includes("?") ? "&" : "?"}page=${page}&per_page=100`);
  const sources: [kind: string, read: (page: number) => Promise<string[]>][] = [
    ["bench accounts", (page) => Promise.resolve(page === 1 ? fixed : [])],
    ["post authors", list(`/hubs/${hub}/posts/latest`)],
    ["commenters", list(`/hubs/${hub}/${p.postId}/comments?sort=top`)],
    ["chapter commenters", list(`/series/${series}/${p.chapterNumber}/comments`)],
    ["series authors", list("/series?sort=updated")],
  ];
  const chosen = new Set<string>();
  const kinds: Record<string, number> = {};
  // Each kind's accounts not chosen yet, read a page at a time (at most 5 pages) while more are wanted.
  const queues = sources.map(([kind, read]) => ({ kind, read, list: [] as string[], page: 0, done: false }));
  const nextOf = async (q: (typeof queues)[number]): Promise<string | undefined> => {
    for (;;) {
      const name = q.list.shift();
      if (name !== undefined && !chosen.has(name)) return name;
      if (name !== undefined) continue;
      if (q.done || q.page >= 5) return undefined;
      const found = await q.read(++q.page);
      if (found.length === 0) q.done = true;
      q.list.push(...found);
    }
  };
  // One of each kind in turn, so that the first accounts already cover every kind.
  for (let added = true; added && chosen.size < want;) {
    added = false;
    for (const q of queues) {
      if (chosen.size >= want) break;
      const name = await nextOf(q);
      if (name === undefined) continue;
      chosen.add(name);
      kinds[q.kind] = (kinds[q.kind] ?? 0) + 1;
      added = true;
    }
  }
  if (chosen.size === 0) throw new Error("No seeded accounts found to sign in");
  return { names: [...chosen], kinds };
}

/** The sessions signed in for a first-view run. */
export interface SignIns {
  /** The `Cookie` header of each session, in the order they were asked for. */
  cookies: string[];
  /** Distinct accounts signed in. */
  users: number;
  seconds: number;
  concurrency: number;
  /** Accounts whose sign-in failed (e.g. suspended), left out of the rotation. */
  failed: { username: string; message: string }[];
}

/**
 * Signs in `count` sessions through the web app's login form (as a browser does: `webSessionCookie`), the accounts
 * taken in turn, `concurrency` at a time. An account that cannot sign in is left out; more than 20 such is an error.
 */
export async function signInSessions(
  webUrl: string,
  usernames: string[],
  count: number,
  concurrency = SIGN_IN_CONCURRENCY,
): Promise<SignIns> {
  const started = performance.now();
  const cookies: string[] = new Array<string>(count);
  const usable = [...usernames];
  const failed: SignIns["failed"] = [];
  const used = new Set<string>();
  let next = 0;
  let turn = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      for (;;) {
        if (usable.length === 0) throw new Error(`No account could sign in (${failed[0]?.message ?? "none given"})`);
        const username = usable[turn++ % usable.length]!;
        try {
          cookies[index] = await webSessionCookie(webUrl, { username, password: BENCH_USER.password });
          used.add(username);
          break;
        } catch (err) {
          const at = usable.indexOf(username);
          if (at >= 0) {
            usable.splice(at, 1);
            failed.push({ username, message: err instanceof Error ? err.message : String(err) });
          }
          if (failed.length > 20) throw new Error(`${failed.length} accounts could not sign in; first: ${failed[0]!.message}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  return { cookies, users: used.size, seconds: (performance.now() - started) / 1000, concurrency, failed };
}
