import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigate, type ShouldRevalidateFunction } from "@remix-run/react";
import { useCallback, useRef } from "react";
import { chapterPath, seriesPath, userPath } from "../lib/urls.ts";
import { LazyCommentSection } from "../components/comments/lazy-comment-section.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { commentAction, isCommentIntent, loadComments } from "../lib/comments.server.ts";
import { ChapterCover, chapterLabel } from "../components/chapter-card.tsx";
import { FollowButton, useFollowToggle } from "../components/follow-button.tsx";
import { ArrowLeftIcon, ArrowRightIcon } from "../components/icons.tsx";
import { Avatar, Logo } from "../components/images.tsx";
import { LikeButton } from "../components/like-button.tsx";
import { Markdown } from "../components/markdown.tsx";
import { renderMarkdown } from "../lib/markdown.server.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { ChapterNav } from "../components/reader/chapter-nav.tsx";
import { ModeSwitch, useModeFetcher } from "../components/reader/mode-switch.tsx";
import { PageReader } from "../components/reader/page-reader.tsx";
import { StripReader } from "../components/reader/strip-reader.tsx";
import { formatDate, plural } from "../lib/format.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, NOT_FOUND, readFailure, viewerApi } from "../lib/load.server.ts";
import { isReadingMode, pageAnchor, pageFromSearch, STAGE_ID, type ReadingMode } from "../lib/reader.ts";
import { readingMode, rememberMode } from "../lib/reader.server.ts";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { deletePath } from "../lib/deletion.ts";
import { removalPath, removedText } from "../lib/removal.ts";
import { chapterLikeHandlers, followHandlers } from "../lib/series-actions.server.ts";
import { toggleAction } from "../lib/toggle-action.server.ts";
import readerStyles from "../styles/reader.css?url";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: seriesStyles },
  { rel: "stylesheet", href: readerStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const chapter = data?.chapter;
  if (!chapter) return [{ title: "Chapter · Inkwell" }];
  return [
    { title: `${chapterLabel(chapter)} · ${chapter.seriesName} · Inkwell` },
    ...(chapter.description ? [{ name: "description", content: chapter.description }] : []),
  ];
};

/** Where the end-of-chapter panel is, for the last tap when there is no next chapter. */
const END_ID = "chapter-end";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.seriesName ?? "";
  const number = positiveId(params.chapterNumber);
  const [mode, { api, session }] = await Promise.all([readingMode(request, context), viewerApi(request, context)]);
  const seriesRead = attempt(api.series(name));
  const [chapter, series, author, comments] = await Promise.all([
    number === null ? NOT_FOUND : attempt(api.chapter(name, number)),
    seriesRead,
    // The author's avatar; the page is whole without it.
    seriesRead.then((s) => (s.ok ? attempt(api.user(s.value.authorName)) : null)),
    number === null
      ? null
      : loadComments(api, chapterPath(name, number), new URL(request.url), session?.user.id ?? null, context.config.publicApiUrl),
  ]);
  const failed = chapter.ok ? null : readFailure(chapter, "Chapter not found", "Failed to load chapter");
  const body = {
    // The artist's notes, rendered on the server (the page ships HTML, not the markdown parser).
    chapter: chapter.ok
      ? {
          ...chapter.value,
          content: "",
          contentHtml: chapter.value.content ? renderMarkdown(chapter.value.content, context.config.publicApiUrl) : "",
        }
      : null,
    chapterError: failed?.message ?? null,
    series: series.ok ? series.value : null,
    author: author?.ok ? author.value : null,
    comments,
    mode,
  };
  return data(body, { status: failed?.status ?? 200 });
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
    const mode = form.get("mode");
    if (!isReadingMode(mode)) throw data({ ok: false, message: "Unknown reading mode" }, { status: 400 });
    const headers = { "Set-Cookie": await rememberMode(context, mode) };
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

export default function ChapterReader() {
  const { chapter, chapterError, series, author, comments, mode: savedMode } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const navigate = useNavigate();
  const modeFetcher = useModeFetcher();
  const pendingMode = modeFetcher.formData?.get("mode");
  const mode: ReadingMode = isReadingMode(pendingMode) ? pendingMode : savedMode;
  const follow = useFollowToggle(series?.followedByMe ?? false, series?.followersCount ?? 0);
  const pageCount = chapter?.pages.length ?? 0;
  const page = pageFromSearch(location.search, pageCount);
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
    if (next === "pages" && stripPage.current > 1) {
      const params = new URLSearchParams(location.search);
      params.set("page", String(stripPage.current));
      navigate(`?${params}#${STAGE_ID}`, { replace: true, preventScrollReset: true });
    }
  };

  return (
    <div className="reader-page">
      <header className="container reader-head">
        <Link to={seriesPath(chapter.seriesName)} className="reader-head__series">
          <Logo name={chapter.seriesName} imageId={series?.profileImageId} size={28} />
          <span>{chapter.seriesName}</span>
        </Link>
        <div className="reader-head__main">
          <ChapterCover
            seriesName={chapter.seriesName}
            number={chapter.number}
            coverId={chapter.coverId}
            width={84}
            className="reader-head__cover"
          />
          <div className="reader-head__text">
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
          {series ? <FollowButton toggle={follow} seriesId={series.id} loginHref={loginHref} /> : null}
          {user?.id === chapter.authorId ? (
            <>
              <Link to={`/publish/chapter/${encodeURIComponent(chapter.seriesName)}/${chapter.number}`} className="button button--ghost">
                Edit chapter
              </Link>
              <Link to={deletePath.chapter(chapter.seriesName, chapter.number)} className="button button--ghost">
                Delete chapter
              </Link>
              <Link to={removalPath(chapter.removed ? "restore" : "remove", "chapter", chapter.id, here)} className="button button--ghost">
                {chapter.removed ? "Restore chapter" : "Remove chapter"}
              </Link>
            </>
          ) : null}
          <ReportLink type="chapter" id={chapter.id} ownerId={chapter.authorId} />
          {pageCount > 0 ? <ModeSwitch mode={mode} page={current} onChoose={chooseMode} /> : null}
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
          <StripReader key={`${chapter.id}-strip`} pages={chapter.pages} startAt={page} endId={END_ID} onPageChange={onStripPage} />
        ) : (
          <PageReader pages={chapter.pages} page={page} search={location.search} nextChapterHref={nextHref} endHref={`#${END_ID}`} />
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
            {series ? <FollowButton toggle={follow} seriesId={series.id} loginHref={loginHref} /> : null}
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
        <LazyCommentSection comments={comments} count={chapter.commentCount} moderatorId={chapter.authorId} />
      </div>
    </div>
  );
}
