import { Link } from "./link.tsx";
import type { Hub } from "../../server/rules/api-responses.ts";
import { hubPath, postPath } from "../lib/urls.ts";
import { Logo } from "./images.tsx";

/** What the sidebar shows of a hub: loaders send only this (app/lib/load.server.ts `loadRecentHubs`). */
export type RecentHub = Pick<Hub, "id" | "name" | "description" | "profileImageId"> & {
  latestPost: Pick<NonNullable<Hub["latestPost"]>, "id" | "title"> | null;
};

/**
 * The Recent Hubs sidebar: the top hubs, each with its latest post. `hubs` is null when loading
 * failed, and then the sidebar is not shown at all (docs/web.md §5).
 */
export function RecentHubs({ hubs }: { hubs: RecentHub[] | null }) {
  if (!hubs || hubs.length === 0) return null;
  return (
    <aside className="panel recent-hubs" aria-labelledby="recent-hubs-title">
      <h2 id="recent-hubs-title" className="panel__title">
        Recent Hubs
      </h2>
      <ul className="recent-hubs__list">
        {hubs.map((hub) => (
          <li key={hub.id} className="recent-hub">
            <Logo name={hub.name} imageId={hub.profileImageId} size={40} />
            <div className="recent-hub__text">
              <Link to={hubPath(hub.name)} className="recent-hub__name">
                {hub.name}
              </Link>
              {hub.description ? <p className="recent-hub__description clamp-2">{hub.description}</p> : null}
              {hub.latestPost ? (
                <p className="recent-hub__post">
                  <span className="visually-hidden">Latest post: </span>
                  <Link to={postPath(hub.name, hub.latestPost.id)}>{hub.latestPost.title}</Link>
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
