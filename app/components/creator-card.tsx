import { Link } from "./link.tsx";
import type { User } from "../../server/rules/api-responses.ts";
import { formatDate } from "../lib/format.ts";
import { userPath } from "../lib/urls.ts";
import { Avatar } from "./images.tsx";

/** "Created by @name" with avatar and join date, linking to the user's page (hubs and series). */
export function CreatorCard({ username, user }: { username: string; user: User | null }) {
  return (
    <Link to={userPath(username)} className="creator-card">
      <Avatar name={username} imageId={user?.profileImageID} size={44} />
      <span className="creator-card__text">
        <span className="creator-card__label">Created by @{username}</span>
        {user ? <span className="creator-card__meta">Joined on {formatDate(user.joinedAt)}</span> : null}
      </span>
    </Link>
  );
}
