import { CheckIcon, PlusIcon } from "./icons.tsx";
import { useToggle, type Toggle } from "./toggle-button.tsx";

/** The join state of a hub; `shown.count` is the member count to display meanwhile. */
export const useJoinToggle = (member: boolean, memberCount: number) =>
  useToggle({ on: member, count: memberCount }, { on: "join", off: "leave" });

/**
 * 'Join Hub', and once joined `joinedLabel` ('Joined' on the hub page, 'Leave Hub' on a post). A `closed` hub (removed
 * by moderators) takes no new members, so only a member sees the button, to leave.
 */
export function JoinButton({
  toggle,
  hubId,
  joinedLabel = "Joined",
  closed = false,
}: {
  toggle: Toggle;
  hubId: number;
  joinedLabel?: string;
  closed?: boolean;
}) {
  const on = toggle.shown.on;
  if (closed && !on) return null;
  return toggle.form(
    <button type="submit" className={`button ${on ? "button--ghost is-on" : "button--primary"}`}>
      {on ? <CheckIcon /> : <PlusIcon />} {on ? joinedLabel : "Join Hub"}
    </button>,
    { hubId },
  );
}
