import { Link } from "./link.tsx";
import type { User } from "../../server/rules/api-responses.ts";
import { yearOf } from "../lib/format.ts";
import type { RootData } from "../lib/root-data.ts";
import { Avatar } from "./images.tsx";

/**
 * Home's right sidebar, 'Welcome!': the signed-in user's card with Stats, or Register and Login
 * for a guest. `me` is the user's record, or null when it could not be loaded (the card then
 * uses what the session knows).
 */
export function WelcomePanel({ user, me }: { user: RootData["user"]; me: User | null }) {
  return (
    <aside className="panel welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title" className="panel__title">
        Welcome!
      </h2>
      {user ? (
        <div className="welcome__user">
          <div className="welcome__identity">
            <Avatar name={user.username} imageId={me?.profileImageID} size={56} />
            <div>
              <p className="welcome__name">{user.username}</p>
              <p className="welcome__email">{me?.email ?? user.email}</p>
            </div>
          </div>
          <Link to="/profile" className="button button--secondary button--block">
            View Profile
          </Link>
          <h3 className="welcome__stats-title">Stats</h3>
          <dl className="stats">
            <div>
              <dt>Member since</dt>
              <dd>{yearOf(me?.joinedAt) ?? "Recently"}</dd>
            </div>
            <div>
              <dt>Profile image</dt>
              <dd>{me?.profileImageID ? `#${me.profileImageID}` : "Default"}</dd>
            </div>
          </dl>
        </div>
      ) : (
        <div className="welcome__guest">
          <p>Join Inkwell to follow series, join hubs, like chapters and publish your own comics.</p>
          <Link to="/register" className="button button--primary button--block">
            Register
          </Link>
          <Link to="/login" className="button button--ghost button--block">
            Login
          </Link>
        </div>
      )}
    </aside>
  );
}
