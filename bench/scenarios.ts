// What is measured: the API reads and the web pages of the issue, with concrete names and ids picked
// from the running site's data through its API before the load starts.
import type { ScenarioGroup } from "./common.ts";
import { governanceIds } from "./governance.ts";
import { BENCH_TAGS } from "../seed/scale-series-meta.ts";

/** The seed's big hub (seed/scale.ts BIG_HUB_NAME; not imported: that module pulls in the image drawing). */
export const BIG_HUB_NAME = "Ink & Brushes";
/** The deep page the issue asks for (or the last page, when a small set has fewer). */
export const DEEP_PAGE = 10_000;
/** Searched in every data set, so the growth curve compares the same query. */
export const SEARCH_TERM = "Lantern";

export interface Picks {
  bigHub: { id: number; name: string; postCount: number; totalPages: number };
  deepPage: number;
  search: { term: string; hits: number };
  series: { name: string; chapterCount: number };
  chapterNumber: number;
  imageId: number;
  postId: number;
  /** The picked post's top-level comments (the seed gives the big hub's newest post the most) and the deep page: its last. */
  comments: { topLevel: number; deepPage: number };
}

export interface ScenarioDef {
  id: string;
  group: ScenarioGroup;
  title: string;
  /** Which server the path is for. */
  target: "api" | "web";
  path: string;
  note?: string;
  /** Sent with the bench user's access token (`Authorization: Bearer`). */
  signedIn?: boolean;
}

const enc = encodeURIComponent;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text().then((t) => t.slice(0, 200))}`);
  return (await res.json()) as T;
}

interface Page<T> {
  content: T[];
  totalPages: number;
  totalElements: number;
}

/** Picks the big hub, a searched word, the most followed series with chapters, a chapter, one of its page images and a post. */
export async function pickFromData(apiUrl: string, searchTerm = SEARCH_TERM): Promise<Picks> {
  const hub = await getJson<{ id: number; name: string; postCount: number }>(`${apiUrl}/hubs/${enc(BIG_HUB_NAME)}`);
  const totalPages = Math.max(1, Math.ceil(hub.postCount / 10));
  const latest = await getJson<Page<{ id: number }>>(`${apiUrl}/hubs/${enc(hub.name)}/posts/latest?page=1&size=10`);
  const postId = latest.content[0]?.id;
  if (!postId) throw new Error(`The big hub "${hub.name}" has no posts`);

  let term = searchTerm;
  let found = await getJson<Page<{ name: string }>>(`${apiUrl}/hubs/search?name=${enc(term)}`);
  if (found.totalElements === 0) {
    // A tiny set may not have the word: search for a word of the newest hub's name instead.
    const newest = await getJson<Page<{ name: string }>>(`${apiUrl}/hubs?page=1`);
    term = newest.content.map((h) => h.name.split(" ").find((w) => /^[A-Za-z]{4,}$/.test(w))).find(Boolean) ?? "Club";
    found = await getJson<Page<{ name: string }>>(`${apiUrl}/hubs/search?name=${enc(term)}`);
  }

  const top = await getJson<Page<{ name: string; chapterCount: number }>>(`${apiUrl}/series/top?per_page=10`);
  const series = top.content.find((s) => s.chapterCount > 0);
  if (!series) throw new Error("No series with chapters among the top 10");
  const chapters = await getJson<Page<{ number: number }>>(`${apiUrl}/series/${enc(series.name)}/chapters`);
  const chapterNumber = chapters.content[0]?.number;
  if (!chapterNumber) throw new Error(`Series "${series.name}" lists no chapters`);
  const chapter = await getJson<{ pages: { imageId: number }[] }>(`${apiUrl}/series/${enc(series.name)}/${chapterNumber}`);
  const imageId = chapter.pages[0]?.imageId;
  if (!imageId) throw new Error(`Chapter ${chapterNumber} of "${series.name}" has no pages`);
  const comments = await getJson<Page<unknown>>(`${apiUrl}/hubs/${enc(hub.name)}/${postId}/comments?sort=top&page=1&size=10`);

  return {
    bigHub: { id: hub.id, name: hub.name, postCount: hub.postCount, totalPages },
    deepPage: Math.min(DEEP_PAGE, totalPages),
    search: { term, hits: found.totalElements },
    series: { name: series.name, chapterCount: series.chapterCount },
    chapterNumber,
    imageId,
    postId,
    comments: { topLevel: comments.totalElements, deepPage: Math.max(1, Math.ceil(comments.totalElements / 10)) },
  };
}

/** The API reads of the issue, in the order they are run. */
export function apiReads(p: Picks, idPrefix = "api", group: ScenarioGroup = "api"): ScenarioDef[] {
  const hub = enc(p.bigHub.name);
  const s = enc(p.series.name);
  const [tagX, tagY] = BENCH_TAGS;
  const list: Omit<ScenarioDef, "group" | "target">[] = [
    { id: "hubs-newest", title: "GET /hubs?page=1", path: "/hubs?page=1" },
    { id: "hubs-top", title: "GET /hubs/top?per_page=5", path: "/hubs/top?per_page=5" },
    {
      id: "hubs-search",
      title: `GET /hubs/search?name=${p.search.term}`,
      path: `/hubs/search?name=${enc(p.search.term)}`,
      note: `${p.search.hits} hubs match`,
    },
    {
      id: "hub-latest-p1",
      title: "big hub latest, page 1",
      path: `/hubs/${hub}/posts/latest?page=1&size=10`,
      note: `${p.bigHub.postCount} posts`,
    },
    { id: "hub-latest-deep", title: `big hub latest, page ${p.deepPage}`, path: `/hubs/${hub}/posts/latest?page=${p.deepPage}&size=10` },
    { id: "hub-likes-p1", title: "big hub by-likes, page 1", path: `/hubs/${hub}/posts/by-likes?page=1&size=10` },
    { id: "hub-likes-deep", title: `big hub by-likes, page ${p.deepPage}`, path: `/hubs/${hub}/posts/by-likes?page=${p.deepPage}&size=10` },
    {
      id: "post-comments-p1",
      title: "big post's comments (top), page 1",
      path: `/hubs/${hub}/${p.postId}/comments?sort=top&page=1&size=10`,
      note: `${p.comments.topLevel} top-level comments`,
    },
    {
      id: "post-comments-deep",
      title: `big post's comments (top), page ${p.comments.deepPage}`,
      path: `/hubs/${hub}/${p.postId}/comments?sort=top&page=${p.comments.deepPage}&size=10`,
    },
    { id: "series-top", title: "GET /series/top?per_page=10", path: "/series/top?per_page=10" },
    // Series browsing (docs/api.md "Series metadata and browsing"): the tag filters, alone and combined, and the updated sort, as a guest.
    { id: "series-tag", title: `GET /series?tag=${tagX}`, path: `/series?tag=${enc(tagX)}` },
    { id: "series-two-tags", title: `GET /series?tag=${tagX}&tag=${tagY}`, path: `/series?tag=${enc(tagX)}&tag=${enc(tagY)}` },
    { id: "series-tag-rating", title: `GET /series?tag=${tagX}&rating=teen`, path: `/series?tag=${enc(tagX)}&rating=teen` },
    { id: "series-updated", title: "GET /series?sort=updated", path: "/series?sort=updated" },
    {
      id: "series-chapters",
      title: "GET /series/{name}/chapters",
      path: `/series/${s}/chapters`,
      note: `${p.series.chapterCount} chapters`,
    },
    { id: "chapter", title: "GET /series/{name}/{number}", path: `/series/${s}/${p.chapterNumber}` },
    { id: "image", title: "GET /images/{id}?w=800", path: `/images/${p.imageId}?w=800` },
  ];
  return list.map((d) => ({ ...d, id: `${idPrefix}.${d.id}`, group, target: "api" }));
}

/** What the bench user has: its notifications and its feed's items (notes of the signed-in reads). */
export interface SignedInPicks {
  notifications: number;
  feedItems: number;
  /** The series in its continue-reading list (the seed puts it in every series it follows). */
  inProgress?: number;
}

/** Signs in through the API (`POST /auth/login`) and returns the access token. */
export async function apiToken(apiUrl: string, user = BENCH_USER): Promise<string> {
  const res = await fetch(`${apiUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: user.username, password: user.password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok)
    throw new Error(
      `Signing in as "${user.username}" through POST ${apiUrl}/auth/login: ${res.status} ${(await res.text()).slice(0, 200)}`,
    );
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** The bench user's notifications and feed sizes, read with its token. */
export async function pickSignedIn(apiUrl: string, token: string): Promise<SignedInPicks> {
  const get = async (path: string) => {
    const res = await fetch(apiUrl + path, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`GET ${path} as ${BENCH_USER.username}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return ((await res.json()) as Page<unknown>).totalElements;
  };
  return {
    notifications: await get("/me/notifications?page=1&per_page=20"),
    feedItems: await get("/me/feed?page=1&per_page=10"),
    inProgress: await get("/me/progress?page=1&per_page=10"),
  };
}

/**
 * The bench user's own reads, signed in with its API token (never served by the response cache): its notifications
 * page 1 (20 a page, as the web app asks) and its feed page 1 (500 followed series and its hubs).
 */
export function signedInApiReads(p: SignedInPicks, idPrefix: string, group: ScenarioGroup): ScenarioDef[] {
  const list: Omit<ScenarioDef, "group" | "target">[] = [
    {
      id: "notifications-p1",
      title: "GET /me/notifications page 1 (demo)",
      path: "/me/notifications?page=1&per_page=20",
      note: `${p.notifications} notifications`,
    },
    { id: "feed-p1", title: "GET /me/feed page 1 (demo)", path: "/me/feed?page=1&per_page=10", note: `${p.feedItems} items` },
    {
      id: "progress-p1",
      title: "GET /me/progress page 1 (demo)",
      path: "/me/progress?page=1&per_page=10",
      note: `${p.inProgress ?? "?"} series in progress`,
    },
  ];
  return list.map((d) => ({ ...d, id: `${idPrefix}.${d.id}`, group, target: "api", signedIn: true }));
}

/**
 * The web pages of the issue (server-rendered HTML, each calling the API). As a guest (ids `web.*`)
 * the page cache answers them from the pages it keeps for all guests; signed in, see `signedInPages`.
 */
export function webPages(p: Picks, idPrefix = "web", group: ScenarioGroup = "web"): ScenarioDef[] {
  const hub = enc(p.bigHub.name);
  const s = enc(p.series.name);
  const list: Omit<ScenarioDef, "group" | "target">[] = [
    { id: "home", title: "page /", path: "/" },
    { id: "hubs", title: "page /hubs", path: "/hubs" },
    { id: "hub", title: "page /hubs/{big hub}", path: `/hubs/${hub}` },
    { id: "post", title: "page /hubs/{big hub}/{postId}", path: `/hubs/${hub}/${p.postId}` },
    { id: "series", title: "page /series/{name}", path: `/series/${s}` },
    { id: "chapter", title: "page /series/{name}/{number}", path: `/series/${s}/${p.chapterNumber}` },
  ];
  return list.map((d) => ({ ...d, id: `${idPrefix}.${d.id}`, group, target: "web" }));
}

/**
 * The same pages signed in, and the two only a signed-in reader has (the following feed, notifications): ids
 * `signed-in.web.*` on the site as deployed (the page cache keeps each session's own pages), `rendered.web.*` with the
 * page cache off (every request renders the page and calls the API with the user's token).
 */
export function signedInPages(p: Picks, idPrefix: string, group: "web-signed-in" | "web-rendered" | "web-first-view"): ScenarioDef[] {
  const own: ScenarioDef[] = [
    { id: "feed", title: "page /feed", path: "/feed", group, target: "web" },
    { id: "notifications", title: "page /notifications", path: "/notifications", group, target: "web" },
  ];
  return [...webPages(p, idPrefix, group), ...own.map((d) => ({ ...d, id: `${idPrefix}.${d.id}` }))];
}

/**
 * The same eight pages as first views (ids `first-view.web.*`, first-views.ts): on the site as deployed, each opened
 * once by each of many sessions, so no page the cache keeps for a session can answer.
 */
export function firstViewPages(p: Picks): ScenarioDef[] {
  return signedInPages(p, FIRST_VIEW_WEB_PREFIX, "web-first-view").map((d) => ({ ...d, title: `${d.title}, first view` }));
}

/** Every scenario id a run produces (the smoke test checks them all). */
export function allScenarioIds(): string[] {
  const fake: Picks = {
    bigHub: { id: 1, name: "x", postCount: 1, totalPages: 1 },
    deepPage: 1,
    search: { term: "x", hits: 0 },
    series: { name: "x", chapterCount: 1 },
    chapterNumber: 1,
    imageId: 1,
    postId: 1,
    comments: { topLevel: 1, deepPage: 1 },
  };
  const signedIn: SignedInPicks = { notifications: 1, feedItems: 1 };
  return [
    ...BASELINE_IDS,
    ...apiReads(fake, SMALL_API_PREFIX, "growth").map((s) => s.id),
    ...signedInApiReads(signedIn, SMALL_API_PREFIX, "growth").map((s) => s.id),
    ...governanceIds(SMALL_API_PREFIX, "growth", fake),
    ...apiReads(fake).map((s) => s.id),
    ...apiReads(fake, UNCACHED_API_PREFIX, "uncached").map((s) => s.id),
    ...signedInApiReads(signedIn, UNCACHED_API_PREFIX, "uncached").map((s) => s.id),
    ...governanceIds(UNCACHED_API_PREFIX, "uncached", fake),
    ...webPages(fake).map((s) => s.id),
    ...signedInPages(fake, SIGNED_IN_WEB_PREFIX, "web-signed-in").map((s) => s.id),
    ...signedInPages(fake, RENDERED_WEB_PREFIX, "web-rendered").map((s) => s.id),
    ...firstViewPages(fake).map((s) => s.id),
    MIXED_ID,
    ...PUBLISH_IDS,
    ...DIGEST_IDS,
  ];
}

/** A cached API read and a signed-in page, without and during a digest run (digests.ts). */
export const DIGEST_IDS = ["digests.idle.api", "digests.idle.page", "digests.during.api", "digests.during.page"];

/** The API reads on the small set, both caches off (the growth curve's small end). */
export const SMALL_API_PREFIX = "small.api";
/** The API reads on the large set, both caches off (the growth curve's large end). */
export const UNCACHED_API_PREFIX = "uncached.api";
/** The pages as a signed-in visitor, on the site as deployed (the page cache keeps the session's own pages). */
export const SIGNED_IN_WEB_PREFIX = "signed-in.web";
/** The same with the page cache off: rendered on every request. */
export const RENDERED_WEB_PREFIX = "rendered.web";
/** The same as deployed, each page opened once by each of many sessions: first views. */
export const FIRST_VIEW_WEB_PREFIX = "first-view.web";

/** The seeded user the signed-in pages are rendered for (seed/scale.ts: user 0 is the demo user; every seeded user shares its password). */
export const BENCH_USER = { username: "demo", password: "demo1234" };

/**
 * Signs in through the web app as a browser does (the login form's POST, same-origin) and returns
 * the `Cookie` header value to send: `inkwell_session=...`.
 */
export async function webSessionCookie(webUrl: string, user = BENCH_USER): Promise<string> {
  const res = await fetch(`${webUrl}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(webUrl).origin },
    body: new URLSearchParams({ username: user.username, password: user.password }).toString(),
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!.trim())
    .find((c) => c.startsWith("inkwell_session=") && c.length > "inkwell_session=".length);
  if (res.status < 300 || res.status >= 400 || !session) {
    throw new Error(
      `Signing in as "${user.username}" through POST ${webUrl}/login: ${res.status}, no session cookie (${(await res.text()).replace(/\s+/g, " ").slice(0, 200)})`,
    );
  }
  return session;
}

/** One request's answer, as far as the benchmark checks which path it took. */
export interface PageProbe {
  path: string;
  status: number;
  /** The X-Page-Cache header (absent: the page cache did not handle the request). */
  pageCache: string | null;
  /** The page shows the signed-in header (its Logout button). */
  signedIn: boolean;
}

/** GETs a page (twice by default, so the second can be a cache hit) and reports how the last answer was made. */
export async function probePage(webUrl: string, path: string, headers: Record<string, string> = {}, gets = 2): Promise<PageProbe> {
  let last: PageProbe | undefined;
  for (let i = 0; i < gets; i++) {
    const res = await fetch(webUrl + path, { headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    const html = await res.text();
    last = { path, status: res.status, pageCache: res.headers.get("x-page-cache"), signedIn: /action="\/logout"/.test(html) };
  }
  return last!;
}

export const BASELINE_IDS = ["baseline.node-http", "baseline.express-hello", "baseline.remix-minimal"] as const;
export const MIXED_ID = "mixed";
/** Publishing a chapter to the crowd series (100,000 followers in the large set) and to the quiet one (none). */
export const PUBLISH_IDS = ["publish.crowd", "publish.quiet"] as const;
