import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyFeed, FeedList } from "../components/feed-list.tsx";
import { Notice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { apiFor } from "../lib/api.server.ts";
import { pageParam } from "../lib/format.ts";
import { attempt } from "../lib/load.server.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { requireUser } from "../lib/session.server.ts";
import seriesStyles from "../styles/series.css?url";

const FEED_TITLE = "From what you follow · Inkwell";

export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: FEED_TITLE }]);

// The chapter cards' styles (their covers' size and crop).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const FEED_PER_PAGE = 10;

/** The signed-in user's feed: new chapters of followed series and new posts of joined hubs, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const list = await attempt(apiFor(request, context, session).feed(page, FEED_PER_PAGE));
  // A private page (a guest is sent to /login) gets a description but no share card.
  const meta = [
    { title: FEED_TITLE },
    { name: "description", content: "New chapters of the series you follow and new posts in the hubs you joined, newest first." },
  ];
  return { page, list: list.ok ? list.value : null, meta };
}

export default function Feed() {
  const { page, list } = useLoaderData<typeof loader>();
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">Your feed</p>
          <h1>From what you follow</h1>
        </div>
      </header>
      {/* A heading (hidden) between the page's h1 and the cards' h3s keeps the heading levels in order. */}
      <section className="section" aria-labelledby="feed-items-title">
        <h2 id="feed-items-title" className="visually-hidden">
          Feed
        </h2>
        {list === null ? (
          <Notice tone="error">Failed to load your feed</Notice>
        ) : list.content.length === 0 && page === 1 ? (
          <EmptyFeed />
        ) : list.content.length === 0 ? (
          <Notice>No more items.</Notice>
        ) : (
          <FeedList items={list.content} />
        )}
        {list && list.totalPages > 1 ? <Pager page={page} totalPages={list.totalPages} label="Feed pages" /> : null}
      </section>
    </div>
  );
}
