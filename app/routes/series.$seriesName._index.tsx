import type { SeriesDetail as SeriesData } from "../../server/rules/api-responses.ts";
import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  type MetaDescriptor,
} from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { chapterPath, seriesPath, userPath } from "../lib/urls.ts";
import { comicSeriesLd, feedLinkTag, socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { ChapterCard, chapterLabel } from "../components/chapter-card.tsx";
import { CreatorCard } from "../components/creator-card.tsx";
import { EditDeleteLinks } from "../components/edit-delete-links.tsx";
import { RemovalLink, RemovedCallout } from "../components/removal.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { FollowButton, useFollowToggle } from "../components/follow-button.tsx";
import { BookIcon, PlusIcon, UsersIcon } from "../components/icons.tsx";
import { Banner, ImagesThroughSession, Logo } from "../components/images.tsx";
import { FailedPage, ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { plural } from "../lib/format.ts";
import { LIST_ORDERS, listOrderAndPage } from "../lib/list-order.ts";
import { attempt, readFailure, viewerApi } from "../lib/load.server.ts";
import { seriesProgress } from "../lib/progress.server.ts";
import { ContinueLink } from "../components/continue-reading.tsx";
import { viewerIsAdmin } from "../lib/roles.server.ts";
import { readUser, viewerState } from "../lib/viewer.server.ts";
import { seriesMatureNotice } from "../lib/mature.server.ts";
import { MatureNotice, SeriesFacts, TagLinks } from "../components/series-meta.tsx";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { deletePath } from "../lib/deletion.ts";
import { followHandlers } from "../lib/series-actions.server.ts";
import { toggleAction } from "../lib/toggle-action.server.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

/** Share cards, canonical link, feed link and schema.org data (app/lib/social-meta.ts, docs/web.md "Feeds, sitemap and cards"). */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Series · Inkwell" }]);

const shareCard = (data: { series: SeriesData | null; page: number }, matches: readonly MatchLike[]): MetaDescriptor[] => {
  const series = data?.series;
  if (!series) return [{ title: "Series · Inkwell" }];
  const path = seriesPath(series.name);
  // A mature series' pictures stay out of the cards and data other sites show.
  const shown = series.contentRating === "mature" ? { ...series, profileImageId: null, profileBannerId: null } : series;
  return [
    ...socialMeta(matches, {
      title: `${series.name} · Inkwell`,
      cardTitle: series.name,
      description: series.description,
      type: "book",
      path,
      page: data.page,
      images: [
        { id: shown.profileBannerId, wide: true },
        { id: shown.profileImageId, wide: false },
      ],
      jsonLd: comicSeriesLd(matches, shown, { series: path, author: userPath(series.authorName) }),
    }),
    feedLinkTag(path, `${series.name}: new chapters`),
  ];
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.seriesName ?? "";
  const { sort, page } = listOrderAndPage(request);
  const { api, session } = await viewerApi(request, context);
  const seriesRead = attempt(api.series(name));
  // Where the viewer is in the series ("Continue: Chapter 4, page 7"), beside the other reads.
  const progressRead = seriesProgress(
    api,
    session ?? null,
    seriesRead.then((s) => (s.ok ? s.value.id : null)),
    viewerState(request, context, session ?? null).then((state) => state?.reading ?? null),
  );
  // The creator's card and the first chapter need the series first; the list goes at once.
  const [series, chapters, creator, first, isAdmin] = await Promise.all([
    seriesRead,
    attempt(api.chapters(name, sort === "likes" ? "most-liked" : "latest", page)),
    seriesRead.then((s) => (s.ok ? readUser(request, context, api, session, s.value.authorName) : null)),
    // Chapters run highest number first, so the last one-item page holds the first chapter.
    seriesRead.then((s) => (s.ok && s.value.chapterCount > 1 ? attempt(api.chapters(name, "latest", s.value.chapterCount, 1)) : null)),
    // Admins remove and restore series as their author does (the author needs no read).
    seriesRead.then((s) => (s.ok && s.value.author !== session?.user.id ? viewerIsAdmin(request, context, session) : false)),
  ]);
  const firstChapter = first?.ok ? (first.value.content[0] ?? null) : series.ok ? series.value.latestChapter : null;
  const failed = series.ok ? null : readFailure(series, "No series found.", "Failed to load series details");
  // A mature series shows a notice first to guests and to readers without "Show mature series" (docs/web.md §12).
  const matureNotice = series.ok ? await seriesMatureNotice(request, context, session ?? null, series.value) : null;
  const body = {
    series: series.ok ? series.value : null,
    seriesError: failed?.message ?? null,
    chapters: chapters.ok ? chapters.value : null,
    creator: creator?.ok ? creator.value : null,
    firstChapter: firstChapter ? { number: firstChapter.number, title: firstChapter.title } : null,
    sort,
    page,
    isAdmin,
    matureNotice,
    progress: await progressRead,
  };
  return data({ ...body, meta: shareCard(body, originsOf(context.config)) }, { status: failed?.status ?? 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return toggleAction(request, context, followHandlers);
}

/** A removed series' images reach only those who may see them: through their session (docs/decisions/025). */
export default function SeriesDetailPage() {
  const { series } = useLoaderData<typeof loader>();
  return (
    <ImagesThroughSession.Provider value={(series?.removed ?? null) !== null}>
      <SeriesDetail />
    </ImagesThroughSession.Provider>
  );
}

function SeriesDetail() {
  const { series, seriesError, chapters, creator, firstChapter, sort, page, isAdmin, matureNotice } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const follow = useFollowToggle(series?.followedByMe ?? false, series?.followersCount ?? 0);
  const { progress } = useLoaderData<typeof loader>();

  if (!series) {
    return (
      <FailedPage title="Series" error={seriesError}>
        <p>
          <Link to="/series" className="button button--secondary">
            Browse all series
          </Link>
        </p>
      </FailedPage>
    );
  }
  if (matureNotice) return <MatureNotice name={series.name} continueTo={matureNotice.continueTo} signedIn={user !== null} />;
  const own = user?.id === series.author;
  const latest = series.latestChapter;

  return (
    <div className="container series-page">
      <section className="hero series-hero" aria-labelledby="series-title">
        <Banner
          name={series.name}
          imageId={series.profileBannerId}
          className="series-hero__banner"
          width={1280}
          sizes="(min-width: 1280px) 1224px, 100vw"
          eager
        />
        <div className="hero__body">
          <Logo name={series.name} imageId={series.profileImageId} size={120} className="hero__logo series-hero__logo" />
          <div className="hero__text">
            <p className="eyebrow">Series</p>
            <h1 id="series-title">{series.name}</h1>
            <p className="meta">
              <span className="meta__item">
                <UsersIcon size={16} /> <span data-testid="follower-count">{plural(follow.shown.count, "follower")}</span>
              </span>
              <span className="meta__item">
                <BookIcon size={16} /> {plural(series.chapterCount, "chapter")}
              </span>
            </p>
          </div>
          <div className="hero__actions">
            <FollowButton
              toggle={follow}
              seriesId={series.id}
              loginHref={user ? null : loginPath(location.pathname + location.search)}
              closed={series.removed != null}
            />
            {own ? (
              <>
                <Link to={`/publish/chapter?series=${encodeURIComponent(series.name)}`} className="button button--secondary">
                  <PlusIcon /> New chapter
                </Link>
                <EditDeleteLinks noun="series" editTo={`/publish/series/${series.id}`} deleteTo={deletePath.series(series.id)} />
              </>
            ) : null}
            {own || isAdmin ? <RemovalLink type="series" id={series.id} removed={series.removed !== null} /> : null}
            <ReportLink type="series" id={series.id} ownerId={series.author} />
          </div>
        </div>
        <RemovedCallout removed={series.removed} contentShown={own || isAdmin} />
        {series.description ? <p className="hero__description">{series.description}</p> : null}
        <div className="series-hero__meta">
          <SeriesFacts status={series.status} contentRating={series.contentRating} readingDirection={series.readingDirection} />
          <TagLinks tags={series.tags} />
        </div>
        <div className="series-hero__footer">
          <CreatorCard username={series.authorName} user={creator} />
          {latest ? (
            <div className="series-hero__read">
              {progress ? <ContinueLink seriesName={series.name} progress={progress} /> : null}
              {firstChapter && firstChapter.number !== latest.number ? (
                <Link to={chapterPath(series.name, firstChapter.number)} className="button button--ghost" prefetch="intent">
                  Start reading
                </Link>
              ) : null}
              <Link to={chapterPath(series.name, latest.number)} className="button button--primary" prefetch="intent">
                <BookIcon /> Read {firstChapter && firstChapter.number !== latest.number ? "latest" : "now"}
                <span className="visually-hidden">: {chapterLabel(latest)}</span>
              </Link>
            </div>
          ) : null}
        </div>
      </section>

      <section className="section" aria-labelledby="chapters-title">
        <div className="section-head">
          <h2 id="chapters-title" className="section__title">
            Chapters
          </h2>
          <SortTabs options={LIST_ORDERS} current={sort} label="Sort chapters" />
        </div>
        <ListOrNotice items={chapters?.content ?? null} failed="Failed to load chapters" empty="No chapters available.">
          {(items) => (
            <div className="stack">
              {items.map((chapter) => (
                <ChapterCard key={chapter.id} chapter={chapter} />
              ))}
            </div>
          )}
        </ListOrNotice>
        {chapters ? <Pager page={page} totalPages={chapters.totalPages} label="Chapter pages" /> : null}
      </section>
    </div>
  );
}
