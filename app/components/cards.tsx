import { Link } from "./link.tsx";
import type { Hub, PostSummary, Series } from "../../server/rules/api-responses.ts";
import { formatDate, likesLabel, plural } from "../lib/format.ts";
import { chapterPath, hubPath, postPath, seriesPath } from "../lib/urls.ts";
import { removedText } from "../lib/removal.ts";
import { HeartIcon, UsersIcon } from "./icons.tsx";
import { Avatar, Banner, Logo } from "./images.tsx";
import { SeriesBadges } from "./series-badges.tsx";

/**
 * A grid card's banner. `sizes` is its shown width, so a phone takes the rendition its width needs: the grid's one
 * column on a phone (the viewport less the container's padding and the card's border, app.css `.grid--cards`), at
 * most about 480px in the wider grids.
 */
function CardBanner({
  entity,
  className,
  eager,
}: {
  entity: Pick<Hub | Series, "name" | "profileBannerId">;
  className: string;
  eager?: boolean;
}) {
  return (
    <Banner
      name={entity.name}
      imageId={entity.profileBannerId}
      className={className}
      width={480}
      eager={eager}
      sizes="(max-width: 527px) calc(100vw - 34px), 480px"
    />
  );
}

/** What a hub's card shows: the Hubs page's loader sends only this (its data is written into the page). */
export type HubCardData = Pick<Hub, "id" | "name" | "description" | "memberCount" | "profileImageId" | "profileBannerId">;

/**
 * A hub in a grid: banner, logo, name, description, member count. The whole card is the link.
 * `eager`: the first cards' banners are in the first screen (one is the LCP): not lazy, high priority, found by the
 * preload scanner.
 */
export function HubCard({ hub, headingLevel = 3, eager }: { hub: HubCardData; headingLevel?: 2 | 3; eager?: boolean }) {
  const H = `h${headingLevel}` as const;
  return (
    <article className="card hub-card">
      <CardBanner entity={hub} className="hub-card__banner" eager={eager} />
      <div className="hub-card__body">
        <Logo name={hub.name} imageId={hub.profileImageId} size={56} className="hub-card__logo" />
        <H className="card__title">
          <Link to={hubPath(hub.name)} className="card__link">
            {hub.name}
          </Link>
        </H>
        {hub.description ? <p className="card__text clamp-2">{hub.description}</p> : null}
        <p className="meta">
          <UsersIcon size={16} /> {plural(hub.memberCount, "member")}
        </p>
      </div>
    </article>
  );
}

/** A compact hub: logo, name and member count (Top Hubs row, popups). */
export function HubChip({
  hub,
  unit = "member",
}: {
  hub: Pick<Hub, "name" | "profileImageId" | "memberCount">;
  unit?: "member" | "follower";
}) {
  return (
    <Link to={hubPath(hub.name)} className="chip">
      <Logo name={hub.name} imageId={hub.profileImageId} size={40} />
      <span className="chip__text">
        <span className="chip__title">{hub.name}</span>
        <span className="chip__meta">{plural(hub.memberCount, unit)}</span>
      </span>
    </Link>
  );
}

/** A compact series: logo, name and followers (popups, user pages). */
export function SeriesChip({ series }: { series: Pick<Series, "name" | "profileImageId" | "followersCount"> }) {
  return (
    <Link to={seriesPath(series.name)} className="chip">
      <Logo name={series.name} imageId={series.profileImageId} size={40} />
      <span className="chip__text">
        <span className="chip__title">{series.name}</span>
        <span className="chip__meta">{plural(series.followersCount, "follower")}</span>
      </span>
    </Link>
  );
}

/** A post in a hub's list: title, description, likes, author and date. */
export function PostCard({ post }: { post: PostSummary }) {
  return (
    <article className="card post-card">
      <h3 className="card__title">
        <Link to={postPath(post.hubName, post.id)} className="card__link">
          {/* A removed post keeps its place; its title only for its author and the hub's moderators. */}
          {post.removed && post.title === "" ? removedText(post.removed.reason) : post.title}
        </Link>
      </h3>
      {post.removed && post.title !== "" ? <p className="card__text">{removedText(post.removed.reason)}</p> : null}
      {post.description ? <p className="card__text clamp-2">{post.description}</p> : null}
      <p className="meta">
        <span className="meta__item">
          <Avatar name={post.authorName} imageId={null} size={22} /> @{post.authorName}
        </span>
        <span className="meta__item">
          <HeartIcon size={16} filled={post.likedByMe} /> {post.likes} {likesLabel(post.likes)}
        </span>
        <span className="meta__item">{plural(post.commentCount, "comment")}</span>
        <time className="meta__item" dateTime={post.date}>
          {formatDate(post.date)}
        </time>
      </p>
    </article>
  );
}

/** What home's Latest Chapters card shows of a series: its loader sends only this (app/routes/_index.tsx). */
export type LatestChapterCardData = Pick<Series, "id" | "name" | "authorName" | "profileImageId" | "profileBannerId"> & {
  latestChapter: Pick<NonNullable<Series["latestChapter"]>, "number" | "title">;
};

/** Home's Latest Chapters: a series with its newest chapter, linking to the chapter (`eager` as HubCard's). */
export function LatestChapterCard({
  series,
  headingLevel = 3,
  eager,
}: {
  series: LatestChapterCardData;
  headingLevel?: 2 | 3;
  eager?: boolean;
}) {
  const chapter = series.latestChapter;
  const H = `h${headingLevel}` as const;
  return (
    <article className="card chapter-card">
      <CardBanner entity={series} className="chapter-card__banner" eager={eager} />
      <div className="chapter-card__body">
        <Logo name={series.name} imageId={series.profileImageId} size={56} className="chapter-card__logo" />
        <p className="chapter-card__number">Chapter #{chapter.number}</p>
        <H className="card__title">
          <Link to={chapterPath(series.name, chapter.number)} className="card__link">
            {series.name}
          </Link>
        </H>
        <p className="chapter-card__author">@{series.authorName}</p>
        <p className="card__text clamp-2">{chapter.title}</p>
      </div>
    </article>
  );
}

/** A series in a grid: banner, logo, name, author, followers and chapters; `rank` on the Top Series shelf. */
export function SeriesCard({ series, rank }: { series: Series; rank?: number }) {
  return (
    <article className="card hub-card series-card">
      <CardBanner entity={series} className="hub-card__banner" />
      {rank ? (
        <span className="series-card__rank" aria-label={`Rank ${rank}`}>
          #{rank}
        </span>
      ) : null}
      <div className="hub-card__body">
        <Logo name={series.name} imageId={series.profileImageId} size={56} className="hub-card__logo" />
        <h3 className="card__title">
          <Link to={seriesPath(series.name)} className="card__link">
            {series.name}
          </Link>
        </h3>
        <p className="series-card__author">@{series.authorName}</p>
        {series.description ? <p className="card__text clamp-2">{series.description}</p> : null}
        <p className="meta">
          <span className="meta__item">
            <UsersIcon size={16} /> Followers: {series.followersCount}
          </span>
          <span className="meta__item">{plural(series.chapterCount, "chapter")}</span>
          <SeriesBadges status={series.status} contentRating={series.contentRating} />
        </p>
      </div>
    </article>
  );
}
