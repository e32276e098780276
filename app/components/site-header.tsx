import { Form, NavLink } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { RootData } from "../lib/root-data.ts";
import { userPath } from "../lib/urls.ts";
import { InkwellMark } from "./icons.tsx";
import { Avatar } from "./images.tsx";
import { NotificationBell } from "./notification-bell.tsx";
import { SocialLinks } from "./social-links.tsx";

/** The header: Home, Hubs, Series for everyone; Feed, Publish, Profile, Settings, the bell, Logout and the user's page when signed in. */
export function SiteHeader({ user, unreadCount = null }: { user: RootData["user"]; unreadCount?: RootData["unreadCount"] }) {
  return (
    <header className="site-header">
      <div className={`container site-header__inner${user ? " site-header__inner--member" : ""}`}>
        <Link to="/" className="brand" aria-label="Inkwell home">
          <InkwellMark />
          <span className="brand__name">Inkwell</span>
        </Link>
        <nav className="site-nav" aria-label="Main">
          <ul>
            <li>
              <NavLink to="/" end>
                Home
              </NavLink>
            </li>
            <li>
              <NavLink to="/hubs">Hubs</NavLink>
            </li>
            <li>
              <NavLink to="/series">Series</NavLink>
            </li>
            {user ? (
              <>
                <li>
                  <NavLink to="/feed">Feed</NavLink>
                </li>
                <li>
                  <NavLink to="/publish">Publish</NavLink>
                </li>
                <li>
                  <NavLink to="/profile">Profile</NavLink>
                </li>
                <li>
                  <NavLink to="/settings">Settings</NavLink>
                </li>
              </>
            ) : null}
          </ul>
        </nav>
        {user ? (
          <div className="site-header__account">
            <NotificationBell count={unreadCount} />
            <Link to={userPath(user.username)} className="user-link">
              <Avatar name={user.username} imageId={null} size={30} />
              <span className="user-link__name">@{user.username}</span>
            </Link>
            <Form method="post" action="/logout">
              <button type="submit" className="button button--ghost button--small">
                Logout
              </button>
            </Form>
          </div>
        ) : (
          <>
            <SocialLinks className="site-header__social" />
            <div className="site-header__account">
              <Link to="/register" className="button button--ghost button--small">
                Register
              </Link>
              <Link to="/login" className="button button--primary button--small">
                Login
              </Link>
            </div>
          </>
        )}
      </div>
    </header>
  );
}
