import { data, type LoaderFunctionArgs, type MetaFunction, type MetaDescriptor } from "@remix-run/node";
import { Form, useLoaderData, useLocation, type ShouldRevalidateFunction } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import type { Hub, Series, User } from "../../server/rules/api-responses.ts";
import { HubCard, HubChip, SeriesCard, SeriesChip } from "../components/cards.tsx";
import { ReportLink } from "../components/report-link.tsx";
import { CalendarIcon } from "../components/icons.tsx";
import { ProfileHero } from "../components/profile-hero.tsx";
import { ListDialog } from "../components/list-dialog.tsx";
import { FailedPage, ListOrNotice } from "../components/notice.tsx";
import { formatDate } from "../lib/format.ts";
import { attempt, readFailure, viewerApi, type Loaded } from "../lib/load.server.ts";
import { blockState } from "../lib/blocks.server.ts";
import { userPath, withParams } from "../lib/urls.ts";
import { socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import { viewerIsAdmin } from "../lib/roles.server.ts";

/** Share cards and canonical link (app/lib/social-meta.ts, docs/web.md "Feeds, sitemap and cards"). */
export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "User · Inkwell" }]);

const shareCard = (data: { user: User | null }, matches: readonly MatchLike[]): MetaDescriptor[] => {
  const user = data?.user;
  if (!user) return [{ title: "User · Inkwell" }];
  return socialMeta(matches, {
    title: `@${user.username} · Inkwell`,
    cardTitle: `@${user.username}`,
    description: `@${user.username} on Inkwell: their series, hubs and what they follow.`,
    type: "profile",
    path: userPath(user.username),
    images: [
      { id: user.profileImageID, wide: false },
      { id: user.profileBannerID, wide: true },
    ],
  });
};

const listOf = <T,>(loaded: Loaded<T[]>) => (loaded.ok ? loaded.value : null);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const username = params.username ?? "";
  const { session, api } = await viewerApi(request, context);
  const userRead = attempt(api.user(username));
  // The lists are by id. On your own page the session knows it, so all five calls go at once;
  // otherwise the lists wait for the user record.
  const own = session && session.user.username.toLowerCase() === username.toLowerCase() ? session.user.id : null;
  const lists = (own !== null ? Promise.resolve(own) : userRead.then((u) => (u.ok ? u.value.id : null))).then((id) =>
    id === null
      ? null
      : Promise.all([
          attempt(api.memberHubs(id)),
          attempt(api.followedSeries(id)),
          attempt(api.createdSeries(id)),
          attempt(api.createdHubs(id)),
        ]),
  );
  // Admins see a Suspend link on other people's profiles (the session holds no role: the API says it).
  const adminRead = own === null ? viewerIsAdmin(request, context, session) : false;
  // Whether the viewer blocks this user: the Block or Unblock button (null: not signed in, or their own page).
  const blockedRead =
    session && own === null
      ? userRead.then(async (u) => (u.ok ? attempt(blockState(api, u.value.id)).then((s) => (s.ok ? s.value.blocked : null)) : null))
      : Promise.resolve(null);
  const [user, loaded, canSuspend, blockedByMe] = await Promise.all([userRead, lists, adminRead, blockedRead]);
  if (!user.ok) {
    const failed = readFailure(user, "User not found", "Failed to load user data");
    return data({ user: null, error: failed.message, lists: null, canSuspend: false, blockedByMe: null }, { status: failed.status });
  }
  const [memberHubs, followedSeries, createdSeries, createdHubs] = loaded!;
  return {
    user: user.value,
    error: null,
    canSuspend: canSuspend && user.value.role !== "admin",
    blockedByMe,
    lists: {
      memberHubs: listOf<Hub>(memberHubs),
      followedSeries: listOf<Series>(followedSeries),
      createdSeries: listOf<Series>(createdSeries),
      createdHubs: listOf<Hub>(createdHubs),
    },
    meta: shareCard({ user: user.value }, originsOf(context.config)),
  };
}

/** Opening a popup or switching tabs changes only the query: the data is already here. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (u: URL) => {
    const p = new URLSearchParams(u.search);
    p.delete("show");
    p.delete("tab");
    return p.toString();
  };
  return strip(currentUrl) !== strip(nextUrl) ? defaultShouldRevalidate : false;
};

const count = (list: unknown[] | null) => (list ? list.length : 0);
const FAILED_LIST = "Could not load this list right now.";

export default function UserPage() {
  const { user, error, lists, canSuspend, blockedByMe } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const tab = params.get("tab") === "hubs" ? "hubs" : "series";
  const show = params.get("show");

  if (!user || !lists) {
    return <FailedPage title="User" error={error} />;
  }
  const href = (changes: Record<string, string | null>) => withParams(search, changes, { tab: "series" });
  const closeHref = href({ show: null });

  return (
    <div className="container profile">
      <ProfileHero user={user}>
        <div className="profile__heading">
          <h1>@{user.username}</h1>
          <p className="meta">
            <CalendarIcon size={16} /> Joined {formatDate(user.joinedAt)}
          </p>
        </div>
        <div className="profile__buttons">
          <Link to={href({ show: "member-hubs" })} className="button button--secondary" preventScrollReset>
            Member Hubs ({count(lists.memberHubs)})
          </Link>
          <Link to={href({ show: "followed-series" })} className="button button--secondary" preventScrollReset>
            Followed Series ({count(lists.followedSeries)})
          </Link>
          {canSuspend ? (
            <Link to={`/user/${encodeURIComponent(user.username)}/suspend`} className="button button--ghost">
              Suspend
            </Link>
          ) : null}
          <ReportLink type="user" id={user.id} ownerId={user.id} />
          {blockedByMe === true ? (
            <Form method="post" action={`/user/${encodeURIComponent(user.username)}/block`}>
              <input type="hidden" name="intent" value="unblock" />
              <button type="submit" className="button button--ghost">
                Unblock
              </button>
            </Form>
          ) : blockedByMe === false ? (
            <Link to={`/user/${encodeURIComponent(user.username)}/block`} className="button button--ghost">
              Block
            </Link>
          ) : null}
        </div>
      </ProfileHero>
      {blockedByMe === true ? (
        // Decision 018 "Blocks": their posts and comments leave the viewer's lists; their own page still shows their work.
        <p className="callout" data-testid="blocked-profile">
          You blocked @{user.username}: their posts, comments and replies are hidden from the lists you read. This page still shows their
          own work.
        </p>
      ) : null}

      <nav className="tabs" aria-label="Created by this user">
        <Link to={href({ tab: "series" })} className="tabs__tab" aria-current={tab === "series" ? "page" : undefined} preventScrollReset>
          Created Series ({count(lists.createdSeries)})
        </Link>
        <Link to={href({ tab: "hubs" })} className="tabs__tab" aria-current={tab === "hubs" ? "page" : undefined} preventScrollReset>
          Created Hubs ({count(lists.createdHubs)})
        </Link>
      </nav>

      <section className="section" aria-label={tab === "series" ? "Created series" : "Created hubs"}>
        {tab === "series" ? (
          <ListOrNotice items={lists.createdSeries} failed={FAILED_LIST} empty="No series created.">
            {(items) => (
              <div className="grid grid--cards">
                {items.map((s) => (
                  <SeriesCard key={s.id} series={s} />
                ))}
              </div>
            )}
          </ListOrNotice>
        ) : (
          <ListOrNotice items={lists.createdHubs} failed={FAILED_LIST} empty="No hubs created.">
            {(items) => (
              <div className="grid grid--cards">
                {items.map((h) => (
                  <HubCard key={h.id} hub={h} />
                ))}
              </div>
            )}
          </ListOrNotice>
        )}
      </section>

      {show === "member-hubs" ? (
        <ListDialog title="Member Hubs" closeHref={closeHref}>
          <ListOrNotice items={lists.memberHubs} failed={FAILED_LIST} empty="Not a member of any hubs.">
            {(items) => (
              <ul className="chip-list">
                {items.map((h) => (
                  <li key={h.id}>
                    <HubChip hub={h} unit="follower" />
                  </li>
                ))}
              </ul>
            )}
          </ListOrNotice>
        </ListDialog>
      ) : null}
      {show === "followed-series" ? (
        <ListDialog title="Followed Series" closeHref={closeHref}>
          <ListOrNotice items={lists.followedSeries} failed={FAILED_LIST} empty="Not following any series.">
            {(items) => (
              <ul className="chip-list">
                {items.map((s) => (
                  <li key={s.id}>
                    <SeriesChip series={s} />
                  </li>
                ))}
              </ul>
            )}
          </ListOrNotice>
        </ListDialog>
      ) : null}
    </div>
  );
}
