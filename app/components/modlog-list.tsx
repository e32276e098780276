import { Link } from "./link.tsx";
import type { SiteModLogItem } from "../../server/rules/modlog.ts";
import { formatDate } from "../lib/format.ts";
import { actionPhrase } from "../lib/modlog.ts";
import { hubPath, userPath } from "../lib/urls.ts";

type Item = Omit<SiteModLogItem, "hub"> & { hub?: SiteModLogItem["hub"] };

/**
 * The subject: a user linked by name, a hub or series by its name; a post, comment or chapter by its number only
 * (the public log never repeats their text, docs/api.md "Bans, suspensions and the mod log"), a post linked when its
 * hub is known. The site log (admins) has their current title, when they still exist.
 */
function Subject({ item, hubName }: { item: Item; hubName: string | null }) {
  const { type, id, title } = item.subject;
  if (type === "user" && title !== null) return <Link to={userPath(title)}>{title}</Link>;
  const label = title ?? `#${id}`;
  if (type === "post" && hubName) return <Link to={`${hubPath(hubName)}/${id}`}>{label}</Link>;
  return <strong>{label}</strong>;
}

/** Mod log entries, newest first: who did what to which subject, why and when; `hub` on the site log's entries. */
export function ModLogList({ items, hubName = null }: { items: Item[]; hubName?: string | null }) {
  return (
    <ol className="modlog" data-testid="modlog">
      {items.map((item) => (
        <li key={item.id} className="modlog__item">
          <p>
            {item.moderator ? <Link to={userPath(item.moderator.username)}>{item.moderator.username}</Link> : <em>[deleted]</em>}{" "}
            {actionPhrase(item)} <Subject item={item} hubName={item.hub?.name ?? hubName} />
            {item.hub ? (
              <>
                {" in "}
                {item.hub.name ? <Link to={hubPath(item.hub.name)}>{item.hub.name}</Link> : <em>a deleted hub</em>}
              </>
            ) : null}
          </p>
          {item.reason ? <p className="modlog__reason">Reason: {item.reason}</p> : null}
          <p className="meta">
            <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
          </p>
        </li>
      ))}
    </ol>
  );
}
