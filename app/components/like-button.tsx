import { likesLabel } from "../lib/format.ts";
import { HeartIcon } from "./icons.tsx";
import { LoginToAct, useToggle } from "./toggle-button.tsx";

/**
 * The like button of posts and chapters: the count with 'Like' when it is 1, else
 * 'Likes'; pressed when the viewer likes it (the API's likedByMe). Posts intent like/unlike.
 * A guest gets a link to the login page instead (`loginHref`).
 */
export function LikeButton({
  liked,
  likes,
  loginHref,
  fields,
  fetcherKey,
}: {
  liked: boolean;
  likes: number;
  loginHref?: string | null;
  fields?: Record<string, string | number>;
  /** Like buttons for the same item share their state through this key. */
  fetcherKey?: string;
}) {
  const { shown, form } = useToggle({ on: liked, count: likes }, { on: "like", off: "unlike" }, fetcherKey);
  const content = (
    <>
      <HeartIcon filled={shown.on} size={20} />
      <span>
        <span className="like-button__count">{shown.count}</span> {likesLabel(shown.count)}
      </span>
    </>
  );
  if (loginHref) {
    return (
      <LoginToAct to={loginHref} className="button like-button">
        {content}
      </LoginToAct>
    );
  }
  return form(
    <button type="submit" className={`button like-button${shown.on ? " is-on" : ""}`} aria-pressed={shown.on}>
      {content}
    </button>,
    fields,
  );
}
