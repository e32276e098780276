import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import type { Series } from "../../server/rules/api-responses.ts";
import { LatestChapterCard, type LatestChapterCardData } from "../components/cards.tsx";
import { EmptyFeed, FeedList } from "../components/feed-list.tsx";
import { ListOrNotice } from "../components/notice.tsx";
import { RecentHubs } from "../components/recent-hubs.tsx";
import { WelcomePanel } from "../components/welcome-panel.tsx";
import { attempt, loadRecentHubs, viewerApi } from "../lib/load.server.ts";
import { loadContinueReading } from "../lib/progress.server.ts";
import { ContinueReadingList } from "../components/continue-reading.tsx";
import { useRootData } from "../lib/root-data.ts";
import { originsOf, SITE_DESCRIPTION, socialMeta } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { viewerState } from "../lib/viewer.server.ts";

/** Home's Latest Chapters: the top 10 series (docs/web.md §11), each with its latest chapter. */
export const LATEST_SERIES = 10;

/**
 * Cards whose banners load at once, with high priority: the two in a phone's first screen. Lighthouse names the
 * second the LCP element; lazy, it started only after layout (docs/web.md, "First paint").
 */
const EAGER_CARDS = 2;

/** Feed items in the signed-in home's "From what you follow" strip. */
export const HOME_FEED_ITEMS = 3;

/** A top series as its card shows it: only that is sent (the loader's data is written into the page). */
const latestCardOf = ({ id, name, authorName, profileImageId, profileBannerId, latestChapter }: Series): LatestChapterCardData | null =>
  latestChapter && {
    id,
    name,
    authorName,
    profileImageId,
    profileBannerId,
    latestChapter: { number: latestChapter.number, title: latestChapter.title },
  };

/** The home page's card; /home (the same screen) names / as its canonical address. */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: HOME_TITLE }]);
const HOME_TITLE = "Inkwell — comics and manga community";

/** One round of calls, all at once: the series (each carries its latest chapter), the sidebar, and the viewer (and their feed). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await viewerApi(request, context);
  // "Continue reading": signed in only, beside the other calls.
  const reading = loadContinueReading(api, session ?? null);
  const [top, recentHubs, state, feed] = await Promise.all([
    attempt(api.topSeries(LATEST_SERIES)),
    loadRecentHubs(api),
    // The viewer's own user comes with their state (read once per request).
    viewerState(request, context, session ?? null),
    session ? attempt(api.feed(1, HOME_FEED_ITEMS)) : null,
  ]);
  return {
    latest: top.ok ? top.value.content.map(latestCardOf).filter((s) => s !== null) : null,
    recentHubs,
    me: state?.user ?? null,
    // The "From what you follow" strip: signed in only (a guest's home is the same for all, and cached); null when it failed.
    ...(feed ? { feed: feed.ok ? feed.value.content : null } : {}),
    continueReading: await reading,
    meta: socialMeta(originsOf(context.config), { title: HOME_TITLE, cardTitle: "Inkwell", description: SITE_DESCRIPTION, path: "/" }),
  };
}

export default function Home() {
  const { latest, recentHubs, me, feed, continueReading } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  return (
    <div className="container home-layout">
      <section className="home-layout__main" aria-labelledby="latest-title">
        <header className="section-head">
          <div>
            <p className="eyebrow">Fresh off the press</p>
            <h1 id="latest-title">Latest Chapters</h1>
          </div>
        </header>
        <ListOrNotice items={latest} failed="Failed to load latest chapters" empty="No latest found.">
          {(items) => (
            <div className="grid grid--cards">
              {/* The cards' titles are h2: under the page's h1, before the h2 sections below. */}
              {items.map((series, i) => (
                <LatestChapterCard key={series.id} series={series} headingLevel={2} eager={i < EAGER_CARDS} />
              ))}
            </div>
          )}
        </ListOrNotice>
        {user && continueReading && continueReading.length > 0 ? (
          <section className="section home-continue" aria-labelledby="home-continue-title">
            <header className="section-head">
              <h2 id="home-continue-title" className="section__title">
                Continue reading
              </h2>
            </header>
            <ContinueReadingList items={continueReading} />
          </section>
        ) : null}
        {user && feed ? (
          <section className="section home-feed" aria-labelledby="home-feed-title">
            <header className="section-head">
              <h2 id="home-feed-title" className="section__title">
                From what you follow
              </h2>
              <Link to="/feed" className="button button--ghost button--small">
                See your feed
              </Link>
            </header>
            {feed.length > 0 ? <FeedList items={feed} /> : <EmptyFeed />}
          </section>
        ) : null}
      </section>
      <div className="home-layout__right">
        <WelcomePanel user={user} me={me} />
      </div>
      <div className="home-layout__left">
        <RecentHubs hubs={recentHubs} />
      </div>
    </div>
  );
}
