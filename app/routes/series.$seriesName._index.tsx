import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { chapterPath } from "../lib/urls.ts";
import { ChapterCard, chapterLabel } from "../components/chapter-card.tsx";
import { CreatorCard } from "../components/creator-card.tsx";
import { EditDeleteLinks } from "../components/edit-delete-links.tsx";
import { RemovalLink, RemovedCallout } from "../components/removal.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { FollowButton, useFollowToggle } from "../components/follow-button.tsx";
import { BookIcon, PlusIcon, UsersIcon } from "../components/icons.tsx";
import { Banner, Logo } from "../components/images.tsx";
import { FailedPage, ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { plural } from "../lib/format.ts";
import { LIST_ORDERS, listOrderAndPage } from "../lib/list-order.ts";
import { attempt, readFailure, viewerApi } from "../lib/load.server.ts";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { deletePath } from "../lib/deletion.ts";
import { followHandlers } from "../lib/series-actions.server.ts";
import { toggleAction } from "../lib/toggle-action.server.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.series?.name ?? "Series"} · Inkwell` },
  ...(data?.series?.description ? [{ name: "description", content: data.series.description }] : []),
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.seriesName ?? "";
  const { sort, page } = listOrderAndPage(request);
  const { api } = await viewerApi(request, context);
  const seriesRead = attempt(api.series(name));
  // The creator's card and the first chapter need the series first; the list goes at once.
  const [series, chapters, creator, first] = await Promise.all([
    seriesRead,
    attempt(api.chapters(name, sort === "likes" ? "most-liked" : "latest", page)),
    seriesRead.then((s) => (s.ok ? attempt(api.user(s.value.authorName)) : null)),
    // Chapters run highest number first, so the last one-item page holds the first chapter.
    seriesRead.then((s) => (s.ok && s.value.chapterCount > 1 ? attempt(api.chapters(name, "latest", s.value.chapterCount, 1)) : null)),
  ]);
  const firstChapter = first?.ok ? (first.value.content[0] ?? null) : series.ok ? series.value.latestChapter : null;
  const failed = series.ok ? null : readFailure(series, "No series found.", "Failed to load series details");
  const body = {
    series: series.ok ? series.value : null,
    seriesError: failed?.message ?? null,
    chapters: chapters.ok ? chapters.value : null,
    creator: creator?.ok ? creator.value : null,
    firstChapter: firstChapter ? { number: firstChapter.number, title: firstChapter.title } : null,
    sort,
    page,
  };
  return data(body, { status: failed?.status ?? 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return toggleAction(request, context, followHandlers);
}

export default function SeriesDetail() {
  const { series, seriesError, chapters, creator, firstChapter, sort, page } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const follow = useFollowToggle(series?.followedByMe ?? false, series?.followersCount ?? 0);

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
            <FollowButton toggle={follow} seriesId={series.id} loginHref={user ? null : loginPath(location.pathname + location.search)} />
            {own ? (
              <>
                <Link to={`/publish/chapter?series=${encodeURIComponent(series.name)}`} className="button button--secondary">
                  <PlusIcon /> New chapter
                </Link>
                <EditDeleteLinks noun="series" editTo={`/publish/series/${series.id}`} deleteTo={deletePath.series(series.id)} />
                <RemovalLink type="series" id={series.id} removed={series.removed !== null} />
              </>
            ) : null}
            <ReportLink type="series" id={series.id} ownerId={series.author} />
          </div>
        </div>
        <RemovedCallout removed={series.removed} contentShown={own} />
        {series.description ? <p className="hero__description">{series.description}</p> : null}
        <div className="series-hero__footer">
          <CreatorCard username={series.authorName} user={creator} />
          {latest ? (
            <div className="series-hero__read">
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
