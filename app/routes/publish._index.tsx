import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { hubPath, seriesPath } from "../lib/urls.ts";
import { BookIcon, PagesIcon, PenIcon, PlusIcon, UsersIcon } from "../components/icons.tsx";
import { Logo } from "../components/images.tsx";
import { apiFor } from "../lib/api.server.ts";
import { plural } from "../lib/format.ts";
import { attempt } from "../lib/load.server.ts";
import { loginPath } from "../lib/redirects.ts";
import { optionalUser } from "../lib/session.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = () => [{ title: "Publish · Inkwell" }];

/** The publish menu; a guest goes to the login page and comes back to /create (docs/web.md §6). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await optionalUser(request, context);
  if (!session) throw redirect(loginPath("/create"));
  const api = apiFor(request, context, session);
  const [series, hubs] = await Promise.all([attempt(api.createdSeries(session.user.id)), attempt(api.createdHubs(session.user.id))]);
  return {
    series: series.ok
      ? series.value.map((s) => ({ id: s.id, name: s.name, profileImageId: s.profileImageId, chapterCount: s.chapterCount }))
      : null,
    hubs: hubs.ok
      ? hubs.value.map((h) => ({ id: h.id, name: h.name, profileImageId: h.profileImageId, memberCount: h.memberCount }))
      : null,
  };
}

const CARDS = [
  {
    to: "/publish/series",
    title: "New Series",
    text: "Start a comic, manga or webcomic: name, description, logo and banner.",
    Icon: BookIcon,
  },
  { to: "/publish/hub", title: "New Hub", text: "Create a community for members to post, discuss and run contests.", Icon: UsersIcon },
  { to: "/publish/chapter", title: "New Chapter", text: "Upload the pages of a chapter of one of your series, in order.", Icon: PagesIcon },
  { to: "/publish/post", title: "New Post", text: "Write a post in a hub you joined, with Markdown and a preview.", Icon: PenIcon },
] as const;

export default function PublishMenu() {
  const { series, hubs } = useLoaderData<typeof loader>();
  return (
    <div className="container publish-menu">
      <header className="page-head">
        <div>
          <p className="eyebrow">Create</p>
          <h1>Publish</h1>
          <p className="muted">Share your work with readers: start a series, add a chapter, open a hub or write a post.</p>
        </div>
      </header>
      <ul className="publish-menu__cards">
        {CARDS.map(({ to, title, text, Icon }) => (
          <li key={to} className="card publish-card">
            <span className="publish-card__icon" aria-hidden="true">
              <Icon size={26} />
            </span>
            <h2 className="card__title">
              <Link to={to} className="card__link">
                {title}
              </Link>
            </h2>
            <p className="card__text">{text}</p>
          </li>
        ))}
      </ul>

      <div className="publish-menu__mine">
        <section className="panel" aria-labelledby="my-series-title">
          <h2 id="my-series-title" className="panel__title">
            Your series
          </h2>
          {series === null ? (
            <p className="muted">Could not load your series right now.</p>
          ) : series.length === 0 ? (
            <p className="muted">No series yet. Create one, then publish its chapters.</p>
          ) : (
            <ul className="manage-list">
              {series.map((s) => (
                <ManageItem
                  key={s.id}
                  name={s.name}
                  imageId={s.profileImageId}
                  to={seriesPath(s.name)}
                  detail={plural(s.chapterCount, "chapter")}
                  editTo={`/publish/series/${s.id}`}
                >
                  <Link
                    to={`/publish/chapter?series=${encodeURIComponent(s.name)}`}
                    className="button button--small button--secondary"
                    aria-label={`New chapter in ${s.name}`}
                  >
                    <PlusIcon /> Chapter
                  </Link>
                </ManageItem>
              ))}
            </ul>
          )}
        </section>
        <section className="panel" aria-labelledby="my-hubs-title">
          <h2 id="my-hubs-title" className="panel__title">
            Your hubs
          </h2>
          {hubs === null ? (
            <p className="muted">Could not load your hubs right now.</p>
          ) : hubs.length === 0 ? (
            <p className="muted">No hubs yet.</p>
          ) : (
            <ul className="manage-list">
              {hubs.map((h) => (
                <ManageItem
                  key={h.id}
                  name={h.name}
                  imageId={h.profileImageId}
                  to={hubPath(h.name)}
                  detail={plural(h.memberCount, "member")}
                  editTo={`/publish/hub/${h.id}`}
                />
              ))}
            </ul>
          )}
          <p className="manage-list__more">
            <Link to="/profile">Change your avatar and banner</Link>
          </p>
        </section>
      </div>
    </div>
  );
}

/** One of your series or hubs: its logo and name (a link), a detail line, and its actions, Edit last. */
function ManageItem({
  name,
  imageId,
  to,
  detail,
  editTo,
  children,
}: {
  name: string;
  imageId: number | null;
  to: string;
  detail: string;
  editTo: string;
  children?: React.ReactNode;
}) {
  return (
    <li className="manage-list__item">
      <Logo name={name} imageId={imageId} size={40} />
      <span className="manage-list__text">
        <Link to={to} className="manage-list__name">
          {name}
        </Link>
        <span className="muted">{detail}</span>
      </span>
      <span className="manage-list__actions">
        {children}
        <Link to={editTo} className="button button--small button--ghost" aria-label={`Edit ${name}`}>
          Edit
        </Link>
      </span>
    </li>
  );
}
