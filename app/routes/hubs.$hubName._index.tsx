import type { HubDetail as HubData } from "../../server/rules/api-responses.ts";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, type MetaDescriptor } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { PostCard } from "../components/cards.tsx";
import { CreatorCard } from "../components/creator-card.tsx";
import { EditDeleteLinks } from "../components/edit-delete-links.tsx";
import { RemovalLink, RemovedCallout } from "../components/removal.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { PlusIcon, UsersIcon } from "../components/icons.tsx";
import { Banner, ImagesThroughSession, Logo } from "../components/images.tsx";
import { JoinButton, useJoinToggle } from "../components/join-button.tsx";
import { FailedPage, ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { HiddenByBlocks } from "../components/hidden-by-blocks.tsx";
import { SHOW_BLOCKED_PARAM } from "../lib/blocks.ts";
import { RecentHubs } from "../components/recent-hubs.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { plural } from "../lib/format.ts";
import { LIST_ORDERS, listOrderAndPage } from "../lib/list-order.ts";
import { attempt, loadRecentHubs, readFailure, viewerApi } from "../lib/load.server.ts";
import { viewerIsAdmin } from "../lib/roles.server.ts";
import { readUser } from "../lib/viewer.server.ts";
import { loginPath } from "../lib/redirects.ts";
import { useRootData } from "../lib/root-data.ts";
import { deletePath } from "../lib/deletion.ts";
import { membershipHandlers } from "../lib/hub-actions.server.ts";
import { toggleAction } from "../lib/toggle-action.server.ts";
import { hubPath } from "../lib/urls.ts";
import { feedLinkTag, socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";

/** Share cards, canonical link and feed link (app/lib/social-meta.ts, docs/web.md "Feeds, sitemap and cards"). */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Hub · Inkwell" }]);

const shareCard = (data: { hub: HubData | null; page: number }, matches: readonly MatchLike[]): MetaDescriptor[] => {
  const hub = data?.hub;
  if (!hub) return [{ title: "Hub · Inkwell" }];
  const path = hubPath(hub.name);
  return [
    ...socialMeta(matches, {
      title: `${hub.name} · Inkwell`,
      cardTitle: hub.name,
      description: hub.description,
      path,
      page: data.page,
      images: [
        { id: hub.profileBannerId, wide: true },
        { id: hub.profileImageId, wide: false },
      ],
    }),
    feedLinkTag(path, `${hub.name}: new posts`),
  ];
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.hubName ?? "";
  const { sort, page } = listOrderAndPage(request);
  const { api, session } = await viewerApi(request, context);
  const showBlocked = new URL(request.url).searchParams.get(SHOW_BLOCKED_PARAM) === "1";
  const hubRead = attempt(api.hub(name));
  // The creator's card needs the hub first; everything else goes at once.
  const [hub, posts, creator, recentHubs, isAdmin] = await Promise.all([
    hubRead,
    attempt(api.hubPosts(name, sort === "likes" ? "by-likes" : "latest", page, showBlocked)),
    hubRead.then((h) => (h.ok ? readUser(request, context, api, session, h.value.authorName) : null)),
    loadRecentHubs(api),
    // Admins remove and restore hubs as their creator does; `moderatedByMe` is true for them (and the added moderators).
    hubRead.then((h) =>
      h.ok && h.value.moderatedByMe && h.value.authorId !== session?.user.id ? viewerIsAdmin(request, context, session) : false,
    ),
  ]);
  const failed = hub.ok ? null : readFailure(hub, "No hub found.", "Failed to load hub details");
  const body = {
    hub: hub.ok ? hub.value : null,
    hubError: failed?.message ?? null,
    posts: posts.ok ? posts.value : null,
    creator: creator?.ok ? creator.value : null,
    recentHubs,
    sort,
    page,
    isAdmin,
  };
  return data({ ...body, meta: shareCard(body, originsOf(context.config)) }, { status: failed?.status ?? 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return toggleAction(request, context, membershipHandlers);
}

/** A removed hub's images reach only those who may see them: through their session (docs/decisions/025). */
export default function HubDetailPage() {
  const { hub } = useLoaderData<typeof loader>();
  return (
    <ImagesThroughSession.Provider value={(hub?.removed ?? null) !== null}>
      <HubDetail />
    </ImagesThroughSession.Provider>
  );
}

function HubDetail() {
  const { hub, hubError, posts, creator, recentHubs, sort, page, isAdmin } = useLoaderData<typeof loader>();
  const { user } = useRootData();
  const location = useLocation();
  const join = useJoinToggle(hub?.joinedByMe ?? false, hub?.memberCount ?? 0);

  if (!hub) {
    return (
      <FailedPage title="Hub" error={hubError}>
        <p>
          <Link to="/hubs" className="button button--secondary">
            Browse all hubs
          </Link>
        </p>
      </FailedPage>
    );
  }

  return (
    <div className="container with-sidebar">
      <div className="with-sidebar__main">
        <section className="hero" aria-labelledby="hub-title">
          <Banner name={hub.name} imageId={hub.profileBannerId} className="hero__banner" eager />
          <div className="hero__body">
            <Logo name={hub.name} imageId={hub.profileImageId} size={96} className="hero__logo" />
            <div className="hero__text">
              <p className="eyebrow">Hub</p>
              <h1 id="hub-title">{hub.name}</h1>
              <p className="meta">
                <UsersIcon size={16} /> <span data-testid="member-count">{plural(join.shown.count, "member")}</span>
              </p>
            </div>
            <div className="hero__actions">
              {user ? (
                <>
                  <JoinButton toggle={join} hubId={hub.id} closed={hub.removed !== null} />
                  {hub.removed === null ? (
                    <Link to={`/publish/post?hubId=${hub.id}`} className="button button--ghost">
                      <PlusIcon /> Post
                    </Link>
                  ) : null}
                  {user.id === hub.authorId ? (
                    <EditDeleteLinks noun="hub" editTo={`/publish/hub/${hub.id}`} deleteTo={deletePath.hub(hub.id)} />
                  ) : null}
                  {user.id === hub.authorId || isAdmin ? <RemovalLink type="hub" id={hub.id} removed={hub.removed !== null} /> : null}
                  <ReportLink type="hub" id={hub.id} ownerId={hub.authorId} />
                </>
              ) : null}
            </div>
          </div>
          <RemovedCallout removed={hub.removed} contentShown={user?.id === hub.authorId || isAdmin} />
          {hub.description ? <p className="hero__description">{hub.description}</p> : null}
          {!user ? (
            <p className="callout">
              <Link to={loginPath(location.pathname + location.search)}>Log in</Link> or <Link to="/register">register</Link> to join this
              hub and post.
            </p>
          ) : null}
          <CreatorCard username={hub.authorName} user={creator} />
          <p className="meta hub-moderators" data-testid="hub-moderators">
            Moderators:{" "}
            {hub.moderators.map((m, i) => (
              <span key={m.id}>
                {i > 0 ? ", " : null}
                <Link to={`/user/${encodeURIComponent(m.username)}`}>{m.username}</Link>
              </span>
            ))}
            {hub.moderatedByMe ? (
              <>
                {" · "}
                <Link to={`${hubPath(hub.name)}/moderators`}>{user?.id === hub.authorId ? "Manage moderators" : "All moderators"}</Link>
                {" · "}
                <Link to={`${hubPath(hub.name)}/bans`}>Bans</Link>
                {" · "}
                <Link to="/moderation">Reports</Link>
              </>
            ) : null}
            {" · "}
            <Link to={`${hubPath(hub.name)}/modlog`}>Mod log</Link>
          </p>
        </section>

        <section className="section" aria-labelledby="posts-title">
          <div className="section-head">
            <h2 id="posts-title" className="section__title">
              Posts
            </h2>
            <SortTabs options={LIST_ORDERS} current={sort} label="Sort posts" />
          </div>
          {posts?.hidden !== undefined ? (
            <HiddenByBlocks
              hidden={posts.hidden}
              shown={location.search.includes(`${SHOW_BLOCKED_PARAM}=1`)}
              noun="post"
              search={location.search}
            />
          ) : null}
          <ListOrNotice items={posts?.content ?? null} failed="Failed to load posts" empty="No posts available.">
            {(items) => (
              <div className="stack">
                {items.map((post) => (
                  <PostCard key={post.id} post={post} />
                ))}
              </div>
            )}
          </ListOrNotice>
          {posts ? <Pager page={page} totalPages={posts.totalPages} label="Post pages" /> : null}
        </section>
      </div>
      <div className="with-sidebar__side">
        <RecentHubs hubs={recentHubs} />
      </div>
    </div>
  );
}
