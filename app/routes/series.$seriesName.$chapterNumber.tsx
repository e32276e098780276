import type { Chapter, SeriesDetail } from "../../server/rules/api-responses.ts";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  type MetaDescriptor,
} from "@remix-run/node";
import { useLoaderData, useLocation, useNavigate, type ShouldRevalidateFunction } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { useCallback, useRef } from "react";
import { chapterPath, seriesPath, userPath } from "../lib/urls.ts";
import { comicIssueLd, socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { LazyCommentSection } from "../components/comments/lazy-comment-section.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { useReadingProgress } from "../components/reader/use-reading-progress.ts";
import { openChapter, resumeRedirect } from "../lib/progress.server.ts";
import { commentAction, isCommentIntent, loadComments } from "../lib/comments.server.ts";
import { ChapterCover, chapterLabel } from "../components/chapter-card.tsx";
import { FollowButton, useFollowToggle } from "../components/follow-button.tsx";
import { ArrowLeftIcon, ArrowRightIcon } from "../components/icons.tsx";
import { Avatar, ImagesThroughSession, Logo } from "../components/images.tsx";
import { LikeButton } from "../components/like-button.tsx";
import { Markdown } from "../components/markdown.tsx";
import { renderSavedMarkdown } from "../lib/markdown.server.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { ChapterNav } from "../components/reader/chapter-nav.tsx";
import { ModeSwitch, pendingSettings, useModeFetcher } from "../components/reader/mode-switch.tsx";
import { LazyPageReader, LazyStripReader } from "../components/reader/lazy-readers.tsx";
import { formatDate, plural } from "../lib/format.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, NOT_FOUND, readFailure, viewerApi } from "../lib/load.server.ts";
import { viewerIsAdmin } from "../lib/roles.server.ts";
import { readUser, viewerState } from "../lib/viewer.server.ts";
import {
  isPageFit,
  isPageLayout,
  isReadingMode,
  modeForDirection,
  pageAnchor,
  pageFromSearch,
  STAGE_ID,
  type ReadingMode,
} from "../lib/reader.ts";
import { rememberReader, settingsFor, storedReader, withChoice } from "../lib/reader.server.ts";
import { guardMatureChapter } from "../lib/mature.server.ts";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { deletePath } from "../lib/deletion.ts";
import { removalPath, removedItself, removedText } from "../lib/removal.ts";
import { chapterLikeHandlers, followHandlers } from "../lib/series-actions.server.ts";
import { toggleAction } from "../lib/toggle-action.server.ts";
// reader.css brings series.css with it (one file: docs/web.md, "First paint").
import readerStyles from "../styles/reader.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: readerStyles }];

/** Share cards, canonical link and schema.org data (app/lib/social-meta.ts, docs/web.md "Feeds, sitemap and cards"). */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Chapter · Inkwell" }]);

const shareCard = (data: { chapter: Chapter | null; series: SeriesDetail | null }, matches: readonly MatchLike[]): MetaDescriptor[] => {
  const chapter = data?.chapter;
  if (!chapter) return [{ title: "Chapter · Inkwell" }];
  const series = data.series;
  // A mature series' pictures stay out of the cards and data other sites show.
  const pictures = series?.contentRating !== "mature";
  const paths = {
    chapter: chapterPath(chapter.seriesName, chapter.number),
    series: seriesPath(chapter.seriesName),
    author: userPath(chapter.authorName),
  };
  return socialMeta(matches, {
    title: `${chapterLabel(chapter)} · ${chapter.seriesName} · Inkwell`,
    cardTitle: `${chapterLabel(chapter)} · ${chapter.seriesName}`,
    description: chapter.description || series?.description,
    type: "article",
    path: paths.chapter,
    images: pictures
      ? [
          { id: chapter.coverId, wide: false },
          { id: series?.profileBannerId, wide: true },
          { id: series?.profileImageId, wide: false },
        ]
      : [],
    jsonLd: comicIssueLd(matches, pictures ? chapter : { ...chapter, coverId: null }, paths),
  });
};

/** Where the end-of-chapter panel is, for the last tap when there is no next chapter. */
const END_ID = "chapter-end";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.seriesName ?? "";
  const number = positiveId(params.chapterNumber);
  const [stored, { api, session }] = await Promise.all([storedReader(request, context), viewerApi(request, context)]);
  const seriesRead = attempt(api.series(name));
  // Opening the chapter counts as reading it (without JavaScript too), beside the other reads (docs/web.md "Reading progress");
  // not saved again when the viewer's latest position is already here.
  const progressRead = openChapter(
    request,
    api,
    session,
    seriesRead.then((s) => (s.ok ? s.value.id : null)),
    number,
    viewerState(request, context, session).then((state) => state?.reading ?? null),
  );
  const [chapter, series, author, comments, isAdmin] = await Promise.all([
    number === null ? NOT_FOUND : attempt(api.chapter(name, number)),
    seriesRead,
    // The author's avatar; the page is whole without it.
    seriesRead.then((s) => (s.ok ? readUser(request, context, api, session, s.value.authorName) : null)),
    number === null
      ? null
      : loadComments(api, chapterPath(name, number), new URL(request.url), session?.user.id ?? null, context.config.publicApiUrl),
    // Admins remove and restore chapters and their comments as the series' author does (the author needs no read).
    seriesRead.then((s) => (s.ok && s.value.author !== session?.user.id ? viewerIsAdmin(request, context, session) : false)),
  ]);
  // A mature series' notice comes first (docs/web.md §12): to the series page, which leads back here.
  if (series.ok) await guardMatureChapter(request, context, session ?? null, series.value);
  const failed = chapter.ok ? null : readFailure(chapter, "Chapter not found", "Failed to load chapter");
  // The reader's settings: the mode chosen for this series, else the series' reading direction.
  const direction = series.ok ? (series.value as { readingDirection?: string }).readingDirection : null;
  const reader = settingsFor(stored, series.ok ? series.value.id : null, modeForDirection(direction));
  // This chapter's saved page: the paged reader opened without `?page=` starts there (a redirect).
  const progress = await progressRead;
  resumeRedirect(request, reader.mode, progress);
  const body = {
    // The artist's notes, rendered on the server (the page ships HTML, not the markdown parser).
    chapter: chapter.ok
      ? {
          ...chapter.value,
          content: "",
          contentHtml: chapter.value.content
            ? renderSavedMarkdown(chapter.value.content, context.config.publicApiUrl, {
                imagesThroughSession: chapter.value.removed !== null || (series.ok && series.value.removed !== null),
              })
            : "",
        }
      : null,
    chapterError: failed?.message ?? null,
    series: series.ok ? series.value : null,
    author: author?.ok ? author.value : null,
    comments,
    mode: reader.mode,
    reader,
    isAdmin,
    progress,
  };
  return data({ ...body, meta: shareCard(body, originsOf(context.config)) }, { status: failed?.status ?? 200 });
}

/** Turning pages changes only `?page=`: the chapter is already here, nothing to reload. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutPage = (u: URL) => {
    const p = new URLSearchParams(u.search);
    p.delete("page");
    return p.toString();
  };
  return withoutPage(currentUrl) !== withoutPage(nextUrl) ? defaultShouldRevalidate : false;
};

/**
 * The reading mode (anyone, remembered in a cookie), and like / follow (signed in). Without
 * JavaScript each answers with a redirect back to the same place.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "mode") {
    // One setting per post: the mode (per series), the layout, the fit or the shift (per series).
    const [mode, layout, fit, shift] = ["mode", "layout", "fit", "shift"].map((k) => form.get(k) ?? undefined);
    const seriesId = positiveId(form.get("seriesId"));
    const valid =
      (mode === undefined || isReadingMode(mode)) &&
      (layout === undefined || isPageLayout(layout)) &&
      (fit === undefined || isPageFit(fit)) &&
      (shift === undefined || shift === "0" || shift === "1") &&
      [mode, layout, fit, shift].some((v) => v !== undefined);
    if (!valid) throw data({ ok: false, message: "Unknown reader setting" }, { status: 400 });
    const stored = withChoice(await storedReader(request, context), seriesId, {
      mode,
      layout,
      fit,
      shift: shift === undefined ? undefined : shift === "1",
    });
    const headers = { "Set-Cookie": await rememberReader(context, stored) };
    if (form.get("noscript")) {
      const url = new URL(request.url);
      const page = Number(form.get("page")) || 1;
      if (page > 1) url.searchParams.set("page", String(page));
      url.searchParams.delete("index");
      url.hash = mode === "strip" ? pageAnchor(page) : STAGE_ID;
      throw redirect(url.pathname + url.search + url.hash, { status: 303, headers });
    }
    return data({ ok: true }, { headers });
  }
  const number = positiveId(params.chapterNumber);
  if (isCommentIntent(form.get("intent")) && number !== null) {
    return commentAction(request, context, chapterPath(params.seriesName ?? "", number), form);
  }
  return toggleAction(request, context, { ...chapterLikeHandlers, ...followHandlers }, form);
}

/** A removed chapter's images (or a removed series') reach only those who may see them: through their session (docs/decisions/025). */
export default function ChapterReaderPage() {
  const { chapter, series } = useLoaderData<typeof loader>();
  return (
    <ImagesThroughSession.Provider value={(chapter?.removed ?? null) !== null || (series?.removed ?? null) !== null}>
      <ChapterReader />
    </ImagesThroughSession.Provider>
  );
}

function ChapterReader() {
  const { chapter, chapterError, series, author, comments, reader: savedReader, isAdmin } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const navigate = useNavigate();
  const modeFetcher = useModeFetcher();
  const settings = pendingSettings(savedReader, modeFetcher.formData);
  const mode: ReadingMode = settings.mode;
  const follow = useFollowToggle(series?.followedByMe ?? false, series?.followersCount ?? 0);
  const pageCount = chapter?.pages.length ?? 0;
  const page = pageFromSearch(location.search, pageCount);
  const { progress } = useLoaderData<typeof loader>();
  useReadingProgress({
    signedIn: !!user,
    seriesId: series?.id ?? null,
    chapterNumber: chapter?.number ?? 0,
    pageCount,
    mode,
    page,
    saved: progress,
  });
  // The page in view in the strip, so switching to single pages keeps the place.
  const stripPage = useRef(page);
  const onStripPage = useCallback((n: number) => {
    stripPage.current = n;
  }, []);

  if (!chapter) {
    return (
      <FailedPage title="Chapter" error={chapterError}>
        {series ? (
          <p>
            <Link to={seriesPath(series.name)} className="button button--secondary">
              <ArrowLeftIcon /> Back to {series.name}
            </Link>
          </p>
        ) : null}
      </FailedPage>
    );
  }

  const here = location.pathname + location.search;
  const loginHref = user ? null : loginPath(here);
  const likeFields = { seriesName: chapter.seriesName, chapterNumber: chapter.number };
  const nextHref = chapter.nextNumber !== null ? chapterPath(chapter.seriesName, chapter.nextNumber) : null;
  const current = mode === "strip" ? stripPage.current : page;
  const chooseMode = (next: ReadingMode) => {
    // Into single pages at the page the reader had reached in the strip.
    if (next !== "strip" && mode === "strip" && stripPage.current > 1) {
      const params = new URLSearchParams(location.search);
      params.set("page", String(stripPage.current));
      navigate(`?${params}#${STAGE_ID}`, { replace: true, preventScrollReset: true });
    }
  };

  return (
    <div className="reader-page">
      <header className="container reader-head">
        <div className="reader-head__main">
          <ChapterCover
            seriesName={chapter.seriesName}
            number={chapter.number}
            coverId={chapter.coverId}
            width={84}
            className="reader-head__cover"
          />
          <div className="reader-head__text">
            <Link to={seriesPath(chapter.seriesName)} className="reader-head__series">
              <Logo name={chapter.seriesName} imageId={series?.profileImageId} size={28} />
              <span>{chapter.seriesName}</span>
            </Link>
            <h1>{chapterLabel(chapter)}</h1>
            <p className="meta">
              <Link to={userPath(chapter.authorName)} className="meta__item reader-head__author">
                <Avatar name={chapter.authorName} imageId={author?.profileImageID} size={24} />
                <span>@{chapter.authorName}</span>
              </Link>
              <time className="meta__item" dateTime={chapter.date}>
                {formatDate(chapter.date)}
              </time>
              <span className="meta__item">{plural(pageCount, "page")}</span>
            </p>
          </div>
        </div>
        {chapter.removed ? (
          <p className="callout reader-head__removed">
            {removedText(chapter.removed.reason)}
            {chapter.title === "" ? null : " (only its author and admins see it)"}
          </p>
        ) : null}
        {chapter.description ? <p className="reader-head__description">{chapter.description}</p> : null}
        <div className="reader-head__actions">
          <LikeButton liked={chapter.likedByMe} likes={chapter.likes} loginHref={loginHref} fields={likeFields} fetcherKey="chapter-like" />
          {series ? <FollowButton toggle={follow} seriesId={series.id} loginHref={loginHref} closed={series.removed != null} /> : null}
          {user?.id === chapter.authorId ? (
            <>
              <Link to={`/publish/chapter/${encodeURIComponent(chapter.seriesName)}/${chapter.number}`} className="button button--ghost">
                Edit chapter
              </Link>
              <Link to={deletePath.chapter(chapter.seriesName, chapter.number)} className="button button--ghost">
                Delete chapter
              </Link>
            </>
          ) : null}
          {user?.id === chapter.authorId || isAdmin ? (
            <Link
              to={removalPath(removedItself(chapter.removed) ? "restore" : "remove", "chapter", chapter.id, here)}
              className="button button--ghost"
            >
              {removedItself(chapter.removed) ? "Restore chapter" : "Remove chapter"}
            </Link>
          ) : null}
          <ReportLink type="chapter" id={chapter.id} ownerId={chapter.authorId} />
          {pageCount > 0 ? <ModeSwitch settings={settings} seriesId={series?.id ?? null} page={current} onChoose={chooseMode} /> : null}
        </div>
        <ChapterNav
          seriesName={chapter.seriesName}
          previousNumber={chapter.previousNumber}
          nextNumber={chapter.nextNumber}
          label="Chapter navigation"
        />
      </header>

      <div className={`reader-stage reader-stage--${mode}`}>
        {pageCount === 0 ? (
          <div className="container">
            <Notice>This chapter has no pages yet.</Notice>
          </div>
        ) : mode === "strip" ? (
          <LazyStripReader key={`${chapter.id}-strip`} pages={chapter.pages} startAt={page} endId={END_ID} onPageChange={onStripPage} />
        ) : (
          <LazyPageReader
            pages={chapter.pages}
            page={page}
            search={location.search}
            nextChapterHref={nextHref}
            endHref={`#${END_ID}`}
            settings={settings}
          />
        )}
      </div>

      <section className="container chapter-end" id={END_ID} aria-labelledby="chapter-end-title" tabIndex={-1}>
        <div className="chapter-end__card">
          <p className="eyebrow">{nextHref ? "Up next" : "You're all caught up"}</p>
          <h2 id="chapter-end-title">End of {chapterLabel(chapter)}</h2>
          {nextHref ? (
            <Link to={nextHref} className="button button--primary button--large chapter-end__next" prefetch="viewport">
              Read Chapter {chapter.nextNumber} <ArrowRightIcon />
            </Link>
          ) : (
            <p className="muted">
              {follow.shown.on
                ? "This is the latest chapter. You're following this series."
                : "This is the latest chapter. Follow the series to keep up with new ones."}
            </p>
          )}
          <div className="chapter-end__actions">
            <LikeButton
              liked={chapter.likedByMe}
              likes={chapter.likes}
              loginHref={loginHref}
              fields={likeFields}
              fetcherKey="chapter-like"
            />
            {series ? <FollowButton toggle={follow} seriesId={series.id} loginHref={loginHref} closed={series.removed != null} /> : null}
          </div>
        </div>
        {chapter.contentHtml ? (
          <section className="card chapter-notes" aria-labelledby="chapter-notes-title">
            <h2 id="chapter-notes-title">Notes from @{chapter.authorName}</h2>
            <Markdown html={chapter.contentHtml} />
          </section>
        ) : null}
        <ChapterNav
          seriesName={chapter.seriesName}
          previousNumber={chapter.previousNumber}
          nextNumber={chapter.nextNumber}
          label="Chapter navigation, end of chapter"
        />
      </section>

      <div className="container chapter-comments">
        <LazyCommentSection
          comments={comments}
          count={chapter.commentCount}
          moderatorId={chapter.authorId}
          moderates={isAdmin}
          closedBecause={chapter.removed ? "This chapter was removed by moderators: it takes no new comments." : null}
        />
      </div>
    </div>
  );
}
