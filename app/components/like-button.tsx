import { likesLabel } from "../lib/format.ts";
import { HeartIcon } from "./icons.tsx";
import { LoginToAct, useToggle } from "./toggle-button.tsx";

/**
 * The like button of posts, chapters and comments: the count with 'Like' when it is 1, else
 * 'Likes'; pressed when the viewer likes it (the API's likedByMe). Posts intent like/unlike
 * (or `intents`). A guest gets a link to the login page instead (`loginHref`).
 */
export function LikeButton({
  liked,
  likes,
  loginHref,
  fields,
  fetcherKey,
  intents = { on: "like", off: "unlike" },
  small = false,
}: {
  liked: boolean;
  likes: number;
  loginHref?: string | null;
  fields?: Record<string, string | number>;
  /** Like buttons for the same item share their state through this key. */
  fetcherKey?: string;
  intents?: { on: string; off: string };
  /** The comments' smaller button. */
  small?: boolean;
}) {
  const { shown, form } = useToggle({ on: liked, count: likes }, intents, fetcherKey);
  const className = `button${small ? " button--small" : ""} like-button`;
  const content = (
    <>
      <HeartIcon filled={shown.on} size={small ? 16 : 20} />
      <span>
        <span className="like-button__count">{shown.count}</span> {likesLabel(shown.count)}
      </span>
    </>
  );
  if (loginHref) {
    return (
      <LoginToAct to={loginHref} className={className}>
        {content}
      </LoginToAct>
    );
  }
  return form(
    <button type="submit" className={`${className}${shown.on ? " is-on" : ""}`} aria-pressed={shown.on}>
      {content}
    </button>,
    fields,
  );
}
