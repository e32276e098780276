import { Link } from "@remix-run/react";
import type { SiteModLogItem } from "../../server/rules/modlog.ts";
import { formatDate } from "../lib/format.ts";
import { actionPhrase } from "../lib/modlog.ts";
import { hubPath, userPath } from "../lib/urls.ts";

/** Mod log entries, newest first: who did what to which subject, why and when; `hub` on the site log's entries. */
export function ModLogList({ items }: { items: (Omit<SiteModLogItem, "hub"> & { hub?: SiteModLogItem["hub"] })[] }) {
  return (
    <ol className="modlog" data-testid="modlog">
      {items.map((item) => (
        <li key={item.id} className="modlog__item">
          <p>
            {item.moderator ? <Link to={userPath(item.moderator.username)}>{item.moderator.username}</Link> : <em>[deleted]</em>}{" "}
            {actionPhrase(item)}{" "}
            {item.subject.type === "user" ? (
              <Link to={userPath(item.subject.title)}>{item.subject.title}</Link>
            ) : (
              <strong>{item.subject.title}</strong>
            )}
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
