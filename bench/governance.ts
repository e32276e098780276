// The governance lists of issue 14 (docs/decisions/018-governance.md), read with both caches off on the large and the
// small set (the growth curve): the hub and site mod logs, the report queue of an admin and of a hub moderator, the big
// hub's bans, a user's blocks, and the big hub's posts and the big post's comments as seen by a user who blocks people.
// Page 1 and a deep page (the last, or page 10,000 of the big hub) of each. The accounts are the scale seed's
// (seed/scale-governance.ts), signed in through `POST /auth/login` as the bench user's reads are.
import type { ScenarioGroup } from "./common.ts";
import type { Picks, ScenarioDef } from "./scenarios.ts";

/** seed/scale-governance.ts's accounts (not imported: the seed's modules pull in the image drawing). */
export const GOVERNANCE_USERS = { admin: "bench_admin", moderator: "bench_moderator", blocker: "bench_blocker" } as const;
export type GovernanceReader = keyof typeof GOVERNANCE_USERS;

/** Sizes of the lists, read through the API before the load (each row's note, and its deep page). */
export interface GovernancePicks {
  hubModLog: number;
  siteModLog: number;
  adminReports: number;
  moderatorReports: number;
  bans: number;
  blocks: number;
  /** The big hub's latest posts and the big post's top-level comments as the blocker sees them, and how many it hides. */
  blockerPosts: { shown: number; hidden: number };
  blockerComments: { shown: number; hidden: number };
}

export interface GovernanceDef extends ScenarioDef {
  /** Who reads it: a guest, or one of the seed's accounts with its API token. */
  reader: GovernanceReader | "guest";
}

const enc = encodeURIComponent;
const PER_PAGE = 10;
const lastPage = (total: number) => Math.max(1, Math.ceil(total / PER_PAGE));

/** Signs the seed's admin, moderator and blocker in (`POST /auth/login`): their access tokens. */
export async function governanceTokens(apiUrl: string, password: string): Promise<Record<GovernanceReader, string>> {
  const tokens = {} as Record<GovernanceReader, string>;
  for (const [reader, username] of Object.entries(GOVERNANCE_USERS) as [GovernanceReader, string][]) {
    const res = await fetch(`${apiUrl}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok)
      throw new Error(
        `Signing in as "${username}" through POST ${apiUrl}/auth/login: ${res.status} ${(await res.text()).slice(0, 200)} (a data set seeded before the governance rows: delete bench/.data/)`,
      );
    tokens[reader] = ((await res.json()) as { accessToken: string }).accessToken;
  }
  return tokens;
}

/** Reads each list's size (and the blocker's hidden counts) with the right reader. */
export async function pickGovernance(apiUrl: string, p: Picks, tokens: Record<GovernanceReader, string>): Promise<GovernancePicks> {
  const get = async (path: string, reader: GovernanceReader | "guest") => {
    const headers: Record<string, string> = reader === "guest" ? {} : { authorization: `Bearer ${tokens[reader]}` };
    const res = await fetch(apiUrl + path, { headers, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`GET ${path} as ${reader}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as { totalElements: number; hidden?: number };
  };
  const hub = enc(p.bigHub.name);
  const posts = await get(`/hubs/${hub}/posts/latest?page=1&size=${PER_PAGE}`, "blocker");
  const comments = await get(`/hubs/${hub}/${p.postId}/comments?sort=top&page=1&size=${PER_PAGE}`, "blocker");
  return {
    hubModLog: (await get(`/hubs/${hub}/modlog?page=1`, "guest")).totalElements,
    siteModLog: (await get("/modlog?page=1", "admin")).totalElements,
    adminReports: (await get("/reports?status=open&page=1", "admin")).totalElements,
    moderatorReports: (await get("/reports?status=open&page=1", "moderator")).totalElements,
    bans: (await get(`/hubs/${hub}/bans?page=1`, "moderator")).totalElements,
    blocks: (await get("/me/blocks?page=1", "blocker")).totalElements,
    blockerPosts: { shown: posts.totalElements, hidden: posts.hidden ?? 0 },
    blockerComments: { shown: comments.totalElements, hidden: comments.hidden ?? 0 },
  };
}

/** The rows: page 1 and the deep page of each list (ids `{prefix}.{id}`), in the order they are run. */
export function governanceReads(p: Picks, g: GovernancePicks, idPrefix: string, group: ScenarioGroup): GovernanceDef[] {
  const hub = enc(p.bigHub.name);
  const rows: (Omit<GovernanceDef, "group" | "target" | "id" | "title" | "path"> & {
    id: string;
    title: string;
    path: (page: number) => string;
    total: number;
    deep?: number;
  })[] = [
    {
      id: "hub-modlog",
      title: "big hub's mod log (guest)",
      reader: "guest",
      path: (n) => `/hubs/${hub}/modlog?page=${n}`,
      total: g.hubModLog,
    },
    { id: "site-modlog", title: "GET /modlog (admin)", reader: "admin", path: (n) => `/modlog?page=${n}`, total: g.siteModLog },
    {
      id: "reports-admin",
      title: "GET /reports?status=open (admin)",
      reader: "admin",
      path: (n) => `/reports?status=open&page=${n}`,
      total: g.adminReports,
    },
    {
      id: "reports-moderator",
      title: "GET /reports?status=open (hub moderator)",
      reader: "moderator",
      path: (n) => `/reports?status=open&page=${n}`,
      total: g.moderatorReports,
    },
    { id: "hub-bans", title: "big hub's bans (moderator)", reader: "moderator", path: (n) => `/hubs/${hub}/bans?page=${n}`, total: g.bans },
    { id: "blocks", title: "GET /me/blocks (blocker)", reader: "blocker", path: (n) => `/me/blocks?page=${n}`, total: g.blocks },
    {
      id: "blocker-hub-latest",
      title: "big hub latest (blocker)",
      reader: "blocker",
      path: (n) => `/hubs/${hub}/posts/latest?page=${n}&size=${PER_PAGE}`,
      total: g.blockerPosts.shown,
      // As deep as the plain read's deep page (10,000 on the large set), within the blocker's shorter list.
      deep: Math.min(p.deepPage, lastPage(g.blockerPosts.shown)),
      note: `${g.blockerPosts.hidden} hidden`,
    },
    {
      id: "blocker-comments",
      title: "big post's comments (top, blocker)",
      reader: "blocker",
      path: (n) => `/hubs/${hub}/${p.postId}/comments?sort=top&page=${n}&size=${PER_PAGE}`,
      total: g.blockerComments.shown,
      note: `${g.blockerComments.hidden} hidden`,
    },
  ];
  return rows.flatMap(({ id, title, path, total, deep, note, reader }) => {
    const page = deep ?? lastPage(total);
    const common = { group, target: "api" as const, reader, signedIn: reader !== "guest" };
    return [
      {
        ...common,
        id: `${idPrefix}.${id}-p1`,
        title: `${title}, page 1`,
        path: path(1),
        note: `${total} ${note ? `shown, ${note}` : "entries"}`,
      },
      { ...common, id: `${idPrefix}.${id}-deep`, title: `${title}, page ${page}`, path: path(page) },
    ];
  });
}

/** Sizes before any were read (the rows of a failed sign-in, the smoke test's list of ids). */
export const NO_GOVERNANCE: GovernancePicks = {
  hubModLog: 0,
  siteModLog: 0,
  adminReports: 0,
  moderatorReports: 0,
  bans: 0,
  blocks: 0,
  blockerPosts: { shown: 0, hidden: 0 },
  blockerComments: { shown: 0, hidden: 0 },
};

/** The row ids (the smoke test checks that each ran). */
export function governanceIds(idPrefix: string, group: ScenarioGroup, p: Picks): string[] {
  return governanceReads(p, NO_GOVERNANCE, idPrefix, group).map((d) => d.id);
}
