import { CheckIcon, PlusIcon } from "./icons.tsx";
import { useToggle, type Toggle } from "./toggle-button.tsx";

/** The join state of a hub; `shown.count` is the member count to display meanwhile. */
export const useJoinToggle = (member: boolean, memberCount: number) =>
  useToggle({ on: member, count: memberCount }, { on: "join", off: "leave" });

/** 'Join Hub', and once joined `joinedLabel` ('Joined' on the hub page, 'Leave Hub' on a post). */
export function JoinButton({ toggle, hubId, joinedLabel = "Joined" }: { toggle: Toggle; hubId: number; joinedLabel?: string }) {
  const on = toggle.shown.on;
  return toggle.form(
    <button type="submit" className={`button ${on ? "button--ghost is-on" : "button--primary"}`}>
      {on ? <CheckIcon /> : <PlusIcon />} {on ? joinedLabel : "Join Hub"}
    </button>,
    { hubId },
  );
}
