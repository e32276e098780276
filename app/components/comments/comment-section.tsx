import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { Link } from "../link.tsx";
import { useEffect, useRef } from "react";
import type { CommentSort } from "../../../server/rules/comment.ts";
import { SHOW_BLOCKED_PARAM } from "../../lib/blocks.ts";
import { COMMENT_PARAMS, type CommentActionData, type CommentsData, type ShownComment, type ThreadComment } from "../../lib/comments.ts";
import { formatDate, plural, relativeDate } from "../../lib/format.ts";
import { formText } from "../../lib/forms.ts";
import { useRootData } from "../../lib/root-data.ts";
import { removalPath, removedItself, removedText } from "../../lib/removal.ts";
import { reportPath } from "../../lib/reports.ts";
import { userPath, withParams } from "../../lib/urls.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import type { loader as repliesLoader } from "../../routes/comments.$id.replies.tsx";
import { HiddenByBlocks } from "../hidden-by-blocks.tsx";
import { Avatar } from "../images.tsx";
import { Markdown } from "../markdown.tsx";
import { Pager } from "../pager.tsx";
import { LikeButton } from "../like-button.tsx";
import { CommentForm, commentFetcherKey, useCommentResult } from "./comment-form.tsx";

const SORTS: { value: CommentSort; label: string }[] = [
  { value: "top", label: "Top" },
  { value: "oldest", label: "Oldest" },
  { value: "newest", label: "Newest" },
];

/** The section's defaults, left out of its links. */
const DEFAULTS = { [COMMENT_PARAMS.sort]: "top", [COMMENT_PARAMS.page]: "1" };

/** A link to the page with the section's own parameters changed (the post's or reader's query kept), at `anchor`. */
function useSectionHref() {
  const { search } = useLocation();
  return (changes: Record<string, string | number | null>, anchor = "#comments") => withParams(search, changes, DEFAULTS) + anchor;
}

interface Viewer {
  id: number;
  username: string;
  /** May delete others' comments here (the hub's creator, the series' author); the API has the final word. */
  moderates: boolean;
}

/**
 * The comments under a post or a chapter (docs/api.md §10): the count, the order, a page of comments with their
 * first replies, and for the signed-in the forms to comment, reply, edit, delete and like. Everything is a link or a
 * form post that works without JavaScript; with it, fetchers and optimistic updates.
 */
export function CommentSection({
  comments,
  count,
  moderatorId,
  moderates = false,
  closedBecause = null,
}: {
  comments: CommentsData | null;
  count: number;
  /** The user who may delete any comment here besides its author. */
  moderatorId: number | null;
  /** The viewer moderates the place (a hub's `moderatedByMe`): they may delete and remove its comments. */
  moderates?: boolean;
  /** Why the post or chapter takes no new comments (it, or what holds it, was removed by moderators): no new-comment form. */
  closedBecause?: string | null;
}) {
  const { user } = useRootData();
  const location = useLocation();
  const href = useSectionHref();
  const newComment = useFetcher<CommentActionData>({ key: commentFetcherKey("new") });
  const viewer: Viewer | null = user ? { id: user.id, username: user.username, moderates: user.id === moderatorId || moderates } : null;
  const pendingText = newComment.formData?.get("intent") === "comment" ? formText(newComment.formData, "content").trim() : "";
  const loginHref = `/login?redirectTo=${encodeURIComponent(location.pathname + location.search + "#comments")}`;
  const now = comments?.now ?? 0;
  const navigate = useNavigate();
  // A new comment the page's order and page do not show (say, last of "Top"): to the newest first, where it is.
  const written = newComment.state === "idle" ? newComment.data?.comment.id : undefined;
  const shownIds = comments?.comments.map((c) => c.id).join(",") ?? "";
  useEffect(() => {
    if (written === undefined || shownIds.split(",").includes(String(written))) return;
    navigate(
      href({ [COMMENT_PARAMS.sort]: "newest", [COMMENT_PARAMS.page]: null, [COMMENT_PARAMS.replies]: null }, `#comment-${written}`),
      {
        preventScrollReset: true,
      },
    );
    // Once per new comment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [written]);

  return (
    <section id="comments" className="card comments" aria-labelledby="comments-title" tabIndex={-1}>
      <header className="comments__head">
        <h2 id="comments-title">{plural(count + (pendingText ? 1 : 0), "comment")}</h2>
        {comments ? (
          <nav className="segmented" aria-label="Sort comments">
            {SORTS.map((s) => (
              <Link
                key={s.value}
                className="segmented__item"
                to={href({ [COMMENT_PARAMS.sort]: s.value, [COMMENT_PARAMS.page]: null, [COMMENT_PARAMS.replies]: null })}
                aria-current={s.value === comments.sort ? "true" : undefined}
                preventScrollReset
              >
                {s.label}
              </Link>
            ))}
          </nav>
        ) : null}
      </header>

      {closedBecause ? (
        <p className="comments__closed muted">{closedBecause}</p>
      ) : viewer ? (
        <CommentForm formId="new" intent="comment" label="Add a comment" submit="Post comment" />
      ) : (
        <p className="comments__login">
          <Link to={loginHref}>Log in to comment</Link>
        </p>
      )}

      {!comments ? (
        <p className="muted">Comments could not be loaded.</p>
      ) : (
        <>
          <HiddenByBlocks hidden={comments.hidden} shown={comments.showBlocked} noun="comment" search={location.search} hash="#comments" />
          {comments.comments.length === 0 && !pendingText ? <p className="muted comments__empty">No comments yet.</p> : null}
          <ol className="comments__list">
            {pendingText && viewer ? <PendingComment text={pendingText} viewer={viewer} /> : null}
            {comments.comments.map((c) => (
              <CommentThread key={c.id} comment={c} viewer={viewer} now={now} loginHref={loginHref} showBlocked={comments.showBlocked} />
            ))}
          </ol>
          {comments.totalPages > 1 ? (
            <Pager
              page={comments.page}
              totalPages={comments.totalPages}
              label="Comment pages"
              hrefFor={(p) => href({ [COMMENT_PARAMS.page]: p, [COMMENT_PARAMS.replies]: null })}
            />
          ) : null}
        </>
      )}
    </section>
  );
}

/** The comment being sent, shown at once (optimistic): plain text until the server's rendering replaces it. */
function PendingComment({ text, viewer, reply = false }: { text: string; viewer: Viewer; reply?: boolean }) {
  return (
    <li className={`comment comment--pending${reply ? " comment--reply" : ""}`} aria-busy="true">
      <div className="comment__head">
        <span className="comment__author">
          <Avatar name={viewer.username} imageId={null} size={28} />
          <span>{viewer.username}</span>
        </span>
        <span className="muted">Sending…</span>
      </div>
      <p className="comment__pending-text">{text}</p>
    </li>
  );
}

/**
 * A top-level comment with its replies, the line of replies its viewer's blocks hide, and "load more replies"
 * (`showBlocked`: the page shows blocked people's comments, so the loaded replies include theirs too).
 */
function CommentThread({
  comment,
  viewer,
  now,
  loginHref,
  showBlocked,
}: {
  comment: ThreadComment;
  viewer: Viewer | null;
  now: number;
  loginHref: string;
  showBlocked: boolean;
}) {
  const more = useFetcher<typeof repliesLoader>();
  const href = useSectionHref();
  const { search } = useLocation();
  const replies = more.data?.replies ?? comment.replies;
  const total = Math.max(comment.repliesTotal, more.data?.total ?? 0);
  const left = total - replies.length;
  const hidden = more.data?.replies ? more.data.hidden : comment.repliesHidden;
  return (
    <CommentItem comment={comment} viewer={viewer} now={now} loginHref={loginHref}>
      {replies.length > 0 ? (
        <ol className="comment__replies" aria-label={`Replies to ${comment.deleted ? "a deleted comment" : comment.authorName}`}>
          {replies.map((r) => (
            <CommentItem key={r.id} comment={r} viewer={viewer} now={now} loginHref={loginHref} />
          ))}
        </ol>
      ) : null}
      {hidden > 0 ? (
        <HiddenByBlocks hidden={hidden} shown={false} noun="reply" nouns="replies" search={search} hash={`#comment-${comment.id}`} />
      ) : null}
      {left > 0 ? (
        <p className="comment__more">
          <Link
            to={href({ [COMMENT_PARAMS.replies]: comment.id }, `#comment-${comment.id}`)}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              more.load(`/comments/${comment.id}/replies${showBlocked ? `?${SHOW_BLOCKED_PARAM}=1` : ""}`);
            }}
            aria-disabled={more.state !== "idle" ? true : undefined}
          >
            {more.state !== "idle" ? "Loading replies…" : `Load more replies (${left})`}
          </Link>
        </p>
      ) : null}
    </CommentItem>
  );
}

/** One comment: author, date, "edited", its rendered markdown, like, reply, edit and delete. */
function CommentItem({
  comment: c,
  viewer,
  now,
  loginHref,
  children,
}: {
  comment: ShownComment;
  viewer: Viewer | null;
  now: number;
  loginHref: string;
  children?: React.ReactNode;
}) {
  const deleteFormId = `delete-comment-${c.id}`;
  const replyFormId = `reply-${c.id}`;
  const deleter = useFetcher<CommentActionData>({ key: commentFetcherKey(deleteFormId) });
  const replier = useFetcher<CommentActionData>({ key: commentFetcherKey(replyFormId) });
  const deleteResult = useCommentResult(deleteFormId, deleter.data);
  const hydrated = useHydrated();
  const replyDetails = useRef<HTMLDetailsElement>(null);
  const editDetails = useRef<HTMLDetailsElement>(null);
  const isReply = c.parentId !== null;
  const mine = viewer !== null && viewer.id === c.authorId;
  const { pathname, search } = useLocation();
  const deleting = deleter.state !== "idle" && deleter.formData?.get("intent") === "delete-comment";
  const pendingReply = replier.formData?.get("intent") === "reply" ? formText(replier.formData, "content").trim() : "";

  // Optimistic delete: gone at once, or a tombstone when it has replies.
  if (deleting && (isReply || c.replyCount === 0)) return null;
  const deleted = c.deleted || deleting;

  return (
    <li className={`comment${isReply ? " comment--reply" : ""}`} id={`comment-${c.id}`}>
      <article className="comment__body" aria-label={deleted ? "Deleted comment" : `Comment by ${c.authorName}`}>
        <div className="comment__head">
          {deleted || !c.authorName ? (
            <span className="comment__author comment__author--deleted">[deleted]</span>
          ) : (
            <Link to={userPath(c.authorName)} className="comment__author">
              <Avatar name={c.authorName} imageId={c.authorImageId} size={28} />
              <span>{c.authorName}</span>
            </Link>
          )}
          <time className="muted comment__date" dateTime={c.createdAt} title={formatDate(c.createdAt)}>
            {relativeDate(c.createdAt, now)}
          </time>
          {c.editedAt && !deleted ? <span className="muted comment__edited">edited</span> : null}
        </div>
        {deleted ? null : c.removed && c.removedHidden ? (
          <p className="comment__removed">{removedText(c.removed.reason)}</p>
        ) : (
          <>
            {c.removed ? (
              <p className="comment__removed comment__removed--notice">
                {removedText(c.removed.reason)} (only its author and the moderators see it)
              </p>
            ) : null}
            <Markdown className="comment__content" html={c.contentHtml} />
          </>
        )}
        <div className="comment__actions">
          {deleted || c.removed ? null : <CommentLike comment={c} loginHref={viewer ? null : loginHref} />}
          {viewer ? (
            <details className="comment__reply" ref={replyDetails}>
              <summary className="button button--ghost button--small">Reply</summary>
              <CommentForm
                formId={replyFormId}
                intent="reply"
                commentId={c.id}
                label={deleted ? "Reply to a deleted comment" : `Reply to ${c.authorName}`}
                submit="Post reply"
                onDone={() => replyDetails.current?.removeAttribute("open")}
              />
            </details>
          ) : null}
          {mine && !deleted && c.content !== null ? (
            <details className="comment__edit" ref={editDetails}>
              <summary className="button button--ghost button--small">Edit</summary>
              <CommentForm
                formId={`edit-comment-${c.id}`}
                intent="edit-comment"
                commentId={c.id}
                label="Edit your comment"
                submit="Save"
                defaultValue={c.content}
                onDone={() => editDetails.current?.removeAttribute("open")}
              />
            </details>
          ) : null}
          {viewer && !deleted && (mine || viewer.moderates) ? (
            <deleter.Form method="post" className="comment__delete" preventScrollReset>
              <input type="hidden" name="intent" value="delete-comment" />
              <input type="hidden" name="commentId" value={c.id} />
              {c.parentId !== null ? <input type="hidden" name="parentId" value={c.parentId} /> : null}
              {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
              <button type="submit" className="button button--ghost button--small">
                Delete
              </button>
            </deleter.Form>
          ) : null}
          {viewer?.moderates && !deleted ? (
            <Link
              to={removalPath(removedItself(c.removed) ? "restore" : "remove", "comment", c.id, `${pathname}${search}#comment-${c.id}`)}
              className="button button--ghost button--small"
              aria-label={`${removedItself(c.removed) ? "Restore" : "Remove"} the comment by ${c.authorName ?? "a deleted account"}`}
            >
              {removedItself(c.removed) ? "Restore" : "Remove"}
            </Link>
          ) : null}
          {viewer && !mine && !deleted ? (
            <Link
              to={reportPath("comment", c.id, `${pathname}${search}#comment-${c.id}`)}
              className="button button--ghost button--small"
              rel="nofollow"
              aria-label={`Report the comment by ${c.authorName ?? "a deleted account"}`}
            >
              Report
            </Link>
          ) : null}
        </div>
        {deleteResult && !deleteResult.ok && !deleting ? (
          <p className="field__error" role="alert">
            {deleteResult.message}
          </p>
        ) : null}
      </article>
      {pendingReply && viewer ? (
        <ol className="comment__replies">
          <PendingComment text={pendingReply} viewer={viewer} reply />
        </ol>
      ) : null}
      {children}
    </li>
  );
}

/** A comment's like button: the site's like button, on the comment's own intents. */
function CommentLike({ comment, loginHref }: { comment: ShownComment; loginHref: string | null }) {
  return (
    <LikeButton
      liked={comment.likedByMe}
      likes={comment.likes}
      loginHref={loginHref}
      fields={{ commentId: comment.id }}
      fetcherKey={`comment-like-${comment.id}`}
      intents={{ on: "like-comment", off: "unlike-comment" }}
      small
    />
  );
}
