import type { HubDetail, Post } from "../../server/rules/api-responses.ts";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, type MetaDescriptor } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { hubPath, postPath, userPath } from "../lib/urls.ts";
import { socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { deletePath } from "../lib/deletion.ts";
import { removalPath, removedItself, removedText } from "../lib/removal.ts";
import { LazyCommentSection } from "../components/comments/lazy-comment-section.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { commentAction, isCommentIntent, loadComments } from "../lib/comments.server.ts";
import { ArrowLeftIcon } from "../components/icons.tsx";
import { Avatar, Logo } from "../components/images.tsx";
import { JoinButton, useJoinToggle } from "../components/join-button.tsx";
import { LikeButton } from "../components/like-button.tsx";
import { Markdown } from "../components/markdown.tsx";
import { FailedPage } from "../components/notice.tsx";
import { RecentHubs } from "../components/recent-hubs.tsx";
import { ApiError } from "../lib/api.server.ts";
import { formatDate, plural } from "../lib/format.ts";
import { membershipHandlers } from "../lib/hub-actions.server.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, loadRecentHubs, NOT_FOUND, readFailure, viewerApi } from "../lib/load.server.ts";
import { renderSavedMarkdown } from "../lib/markdown.server.tsx";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { toggleAction, type ToggleRun } from "../lib/toggle-action.server.ts";

/** Share cards and canonical link (app/lib/social-meta.ts, docs/web.md "Feeds, sitemap and cards"). */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Post · Inkwell" }]);

const shareCard = (
  data: { post: Omit<Post, "content"> | null; hub: HubDetail | null },
  matches: readonly MatchLike[],
): MetaDescriptor[] => {
  const post = data?.post;
  if (!post) return [{ title: "Post · Inkwell" }];
  // A removed post has no title for others: the card says so.
  const title = post.title || "Removed post";
  return socialMeta(matches, {
    title: `${title} · ${post.hubName}`,
    cardTitle: `${title} · ${post.hubName}`,
    description: post.description || data.hub?.description,
    type: "article",
    path: postPath(post.hubName, post.id),
    images: [
      { id: data.hub?.profileBannerId, wide: true },
      { id: data.hub?.profileImageId, wide: false },
    ],
  });
};

/**
 * The post with its markdown rendered on the server (the page ships HTML, not the parser). A removed post's images
 * (or a removed hub's) load through the visitor's session: only those who may see it get them (docs/decisions/025).
 */
function withHtml<T extends { content: string; removed: unknown }>({ content, ...post }: T, publicApiUrl: string, hubRemoved: boolean) {
  return { ...post, contentHtml: renderSavedMarkdown(content, publicApiUrl, { imagesThroughSession: post.removed != null || hubRemoved }) };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const hubName = params.hubName ?? "";
  const postId = positiveId(params.postId);
  const { api, session } = await viewerApi(request, context);
  const [post, hub, recentHubs, comments] = await Promise.all([
    postId === null ? NOT_FOUND : attempt(api.post(hubName, postId)),
    attempt(api.hub(hubName)),
    loadRecentHubs(api),
    postId === null
      ? null
      : loadComments(api, postPath(hubName, postId), new URL(request.url), session?.user.id ?? null, context.config.publicApiUrl),
  ]);
  const failed = post.ok ? null : readFailure(post, "Post not found", "Failed to load post");
  const body = {
    post: post.ok ? withHtml(post.value, context.config.publicApiUrl, hub.ok && hub.value.removed != null) : null,
    postError: failed?.message ?? null,
    // The hub gives the join button its state; without it the page still shows the post.
    hub: hub.ok ? hub.value : null,
    recentHubs,
    comments,
  };
  return data({ ...body, meta: shareCard(body, originsOf(context.config)) }, { status: failed?.status ?? 200 });
}

const setLike =
  (liked: boolean) =>
  ({ api, form }: ToggleRun) => {
    const hubName = form.get("hubName");
    const postId = positiveId(form.get("postId"));
    if (typeof hubName !== "string" || postId === null) throw new ApiError(400, "hubName and postId are required");
    return api.setPostLike(hubName, postId, liked);
  };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const postId = positiveId(params.postId);
  if (isCommentIntent(form.get("intent")) && postId !== null) {
    return commentAction(request, context, postPath(params.hubName ?? "", postId), form);
  }
  return toggleAction(request, context, { like: setLike(true), unlike: setLike(false), ...membershipHandlers }, form);
}

export default function PostDetail() {
  const { post, postError, hub, recentHubs, comments } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const join = useJoinToggle(hub?.joinedByMe ?? false, hub?.memberCount ?? 0);
  const here = location.pathname + location.search;
  // A removed post's content comes only to its author and the hub's moderators (docs/web.md "Removal").
  const removedHidden = post?.removed != null && post.title === "";

  if (!post) {
    return (
      <FailedPage title="Post" error={postError}>
        {hub ? (
          <p>
            <Link to={hubPath(hub.name)} className="button button--secondary">
              <ArrowLeftIcon /> Back to {hub.name}
            </Link>
          </p>
        ) : null}
      </FailedPage>
    );
  }

  return (
    <div className="container with-sidebar">
      <div className="with-sidebar__main">
        <p className="back-link">
          <Link to={hubPath(post.hubName)}>
            <ArrowLeftIcon /> Back to {post.hubName}
          </Link>
        </p>
        <article className="card post" aria-labelledby="post-title">
          <header className="post__head">
            <Link to={hubPath(post.hubName)} className="post__hub">
              <Logo name={post.hubName} imageId={hub?.profileImageId} size={28} />
              <span>{post.hubName}</span>
            </Link>
            <h1 id="post-title">{removedHidden ? "Removed post" : post.title}</h1>
            {post.removed ? (
              <p className={`callout post__removed${removedHidden ? "" : " callout--warning"}`}>
                {removedText(post.removed.reason)}
                {removedHidden ? null : " (only its author and the hub's moderators see it)"}
              </p>
            ) : null}
            {post.description ? <p className="post__description">{post.description}</p> : null}
            <div className="post__byline">
              <Link to={userPath(post.authorName)} className="post__author">
                <Avatar name={post.authorName} imageId={post.authorProfileImageID} size={36} />
                <span>@{post.authorName}</span>
              </Link>
              <time dateTime={post.date} className="muted">
                {formatDate(post.date)}
              </time>
              {user?.id === post.authorId ? (
                <Link to={`/publish/post/${post.id}`} className="button button--ghost button--small">
                  Edit post
                </Link>
              ) : null}
              {/* Its author, the hub's moderators and admins (moderatedByMe counts admins) may delete it. */}
              {user && (user.id === post.authorId || hub?.moderatedByMe) ? (
                <Link to={deletePath.post(post.id)} className="button button--ghost button--small">
                  Delete post
                </Link>
              ) : null}
              {user && (user.id === post.authorId || hub?.moderatedByMe) ? (
                <Link
                  to={removalPath(removedItself(post.removed) ? "restore" : "remove", "post", post.id, here)}
                  className="button button--ghost button--small"
                >
                  {removedItself(post.removed) ? "Restore post" : "Remove post"}
                </Link>
              ) : null}
              <ReportLink type="post" id={post.id} ownerId={post.authorId} className="button button--ghost button--small" />
            </div>
          </header>

          <Markdown className="post__content" html={post.contentHtml} />

          <footer className="post__actions">
            <LikeButton
              liked={post.likedByMe}
              likes={post.likes}
              loginHref={user ? null : loginPath(here)}
              fields={{ hubName: post.hubName, postId: post.id }}
            />
            {user ? (
              hub ? (
                <div className="post__join">
                  <JoinButton toggle={join} hubId={hub.id} joinedLabel="Leave Hub" closed={hub.removed != null} />
                  <span className="muted">{plural(join.shown.count, "member")}</span>
                </div>
              ) : null
            ) : (
              // The guest prompt of docs/web.md §3, in Spanish as the product has it.
              <p className="callout callout--inline" lang="es">
                <Link to={loginPath(here)}>Inicia sesión</Link> o <Link to="/register">regístrate</Link> para unirte a este hub.
              </p>
            )}
          </footer>
        </article>
        <LazyCommentSection
          comments={comments}
          count={post.commentCount}
          moderatorId={hub?.authorId ?? null}
          moderates={hub?.moderatedByMe ?? false}
          closedBecause={post.removed ? "This post was removed by moderators: it takes no new comments." : null}
        />
      </div>
      <div className="with-sidebar__side">
        <RecentHubs hubs={recentHubs} />
      </div>
    </div>
  );
}
