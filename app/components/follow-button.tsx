import { CheckIcon, PlusIcon } from "./icons.tsx";
import { LoginToAct, useToggle, type Toggle } from "./toggle-button.tsx";

/** The follow state of a series; `shown.count` is the follower count to display meanwhile. */
export const useFollowToggle = (following: boolean, followersCount: number) =>
  useToggle({ on: following, count: followersCount }, { on: "follow", off: "unfollow" }, "follow-series");

/**
 * 'Follow' / 'Unfollow' (docs/web.md §2) for a series. A guest gets a link to the login page
 * that comes back here (`loginHref`). A `closed` series (removed by moderators) takes no new followers, so only a
 * follower sees the button, to unfollow.
 */
export function FollowButton({
  toggle,
  seriesId,
  loginHref,
  closed = false,
}: {
  toggle: Toggle;
  seriesId: number;
  loginHref?: string | null;
  closed?: boolean;
}) {
  if (closed && !toggle.shown.on) return null;
  if (loginHref) {
    return (
      <LoginToAct to={loginHref} className="button button--primary">
        <PlusIcon /> Follow
      </LoginToAct>
    );
  }
  const on = toggle.shown.on;
  return toggle.form(
    <button type="submit" className={`button ${on ? "button--ghost is-on" : "button--primary"}`}>
      {on ? <CheckIcon /> : <PlusIcon />} {on ? "Unfollow" : "Follow"}
    </button>,
    { seriesId },
  );
}
