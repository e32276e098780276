import { ApiError, apiFor, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { optionalUser, type Session } from "./session.server.ts";
import type { Hub, Page } from "../../server/rules/api-responses.ts";
import { pageParam } from "./format.ts";
import type { RecentHub } from "../components/recent-hubs.tsx";

/** The outcome of one API read, so that one failed part of a page does not fail the rest. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; status: number };

/** A read not made because the address cannot name anything (a malformed id): a 404, as the API would say. */
export const NOT_FOUND = { ok: false, status: 404 } as const;

/** The page's status when the read it is about failed: the API's 404 stays a 404, any other failure is a 502. */
export const failureStatus = (read: { status: number }): 404 | 502 => (read.status === 404 ? 404 : 502);

/** The page's status and message when the read it is about failed: `notFound` for a 404, `failed` for the rest (a 502). */
export function readFailure(read: { status: number }, notFound: string, failed: string): { status: 404 | 502; message: string } {
  const status = failureStatus(read);
  return { status, message: status === 404 ? notFound : failed };
}

/**
 * Awaits a read and keeps its failure as data. A thrown Response (the 401 redirect to login)
 * still ends the request; anything that is not an API failure is a bug and goes to the error boundary.
 */
export async function attempt<T>(promise: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status };
    throw err;
  }
}

/** The viewer (or null) and an API client carrying their token: the start of most loaders. */
export async function viewerApi(request: Request, context: WebContext): Promise<{ session: Session | null; api: Api }> {
  const session = await optionalUser(request, context);
  return { session, api: apiFor(request, context, session) };
}

/** Hubs in the Recent Hubs sidebar (docs/web.md §11). */
export const RECENT_HUBS = 5;

/**
 * The Recent Hubs sidebar's data, or null when it failed (then the sidebar is hidden). Only what it shows: the page's
 * loader data is written into its HTML (and parsed again by the browser), on every page that has the sidebar.
 */
export async function loadRecentHubs(api: Api): Promise<RecentHub[] | null> {
  const result = await attempt(api.topHubs(RECENT_HUBS));
  return result.ok ? result.value.content.map(recentHubOf) : null;
}

const recentHubOf = ({ id, name, description, profileImageId, latestPost }: Hub): RecentHub => ({
  id,
  name,
  description,
  profileImageId,
  latestPost: latestPost && { id: latestPost.id, title: latestPost.title },
});

/**
 * A list screen with a search box and a "top" row that is hidden, and so not loaded, while
 * searching (Hubs, Series): `?q=` and `?page=` from the URL, the list and the top row in parallel.
 */
export async function loadSearchableList<Item, TopItem>(
  request: Request,
  context: WebContext,
  read: {
    search: (api: Api, query: string, page: number) => Promise<Page<Item>>;
    all: (api: Api, page: number) => Promise<Page<Item>>;
    top: (api: Api) => Promise<Page<TopItem>>;
  },
) {
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim();
  const page = pageParam(url.searchParams.get("page"));
  const { api } = await viewerApi(request, context);
  const [list, top] = await Promise.all([
    attempt(query ? read.search(api, query, page) : read.all(api, page)),
    query ? null : attempt(read.top(api)),
  ]);
  return { query, page, list: list.ok ? list.value : null, top: top?.ok ? top.value.content : null };
}
