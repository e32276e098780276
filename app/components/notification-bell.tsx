import { Link } from "./link.tsx";

/** "Notifications, 3 unread": the bell's accessible name, in words. */
export const bellLabel = (count: number | null) => `Notifications, ${count ?? 0} unread`;

/** The header's bell: a link to /notifications named by the unread count, with a badge when there are any. */
export function NotificationBell({ count }: { count: number | null }) {
  const unread = count ?? 0;
  return (
    <Link to="/notifications" className="bell" aria-label={bellLabel(count)} data-unread={unread}>
      <svg
        className="icon"
        width={22}
        height={22}
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
        <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
      </svg>
      {unread > 0 ? (
        <span className="bell__badge" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
