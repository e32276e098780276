import { Link } from "./link.tsx";
import type { FeedItem } from "../../server/rules/api-responses.ts";
import { PostCard } from "./cards.tsx";
import { ChapterCard } from "./chapter-card.tsx";
import { hubPath, seriesPath } from "../lib/urls.ts";

/** Feed items: chapters as the series' chapter card and posts as the hub's post card, each under where it is from. */
export function FeedList({ items }: { items: FeedItem[] }) {
  return (
    <ul className="feed-list">
      {items.map((item) => (
        <li key={`${item.type}-${item.type === "chapter" ? item.chapter.id : item.post.id}`} className="feed-list__item">
          {item.type === "chapter" ? (
            <>
              <p className="feed-list__from">
                New chapter in <Link to={seriesPath(item.chapter.seriesName)}>{item.chapter.seriesName}</Link>
              </p>
              <ChapterCard chapter={item.chapter} />
            </>
          ) : (
            <>
              <p className="feed-list__from">
                New post in <Link to={hubPath(item.post.hubName)}>{item.post.hubName}</Link>
              </p>
              <PostCard post={item.post} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The empty feed: where to find something to follow. */
export function EmptyFeed() {
  return (
    <p className="notice notice--empty" role="status">
      Nothing here yet. Follow <Link to="/series">series</Link> and join <Link to="/hubs">hubs</Link> to see their new chapters and posts
      here.
    </p>
  );
}
