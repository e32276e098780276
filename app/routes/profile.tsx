import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { userPath } from "../components/cards.tsx";
import { Avatar, Banner } from "../components/images.tsx";
import { Notice } from "../components/notice.tsx";
import { apiFor } from "../lib/api.server.ts";
import { formatDate } from "../lib/format.ts";
import { attempt } from "../lib/load.server.ts";
import { requireUser } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Your profile · Inkwell" }];

/** Only for the signed-in user; guests go to /login and come back (spec section 2). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const me = await attempt(apiFor(request, context, session).user(session.user.username));
  if (me.ok) return { user: me.value, error: null };
  const error = me.status === 404 ? "User not found" : "Failed to load profile data";
  return data({ user: null, error }, { status: me.status === 404 ? 404 : 502 });
}

export default function Profile() {
  const { user, error } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const refreshing = navigation.state === "loading" && navigation.location.pathname === "/profile";
  const refresh = (
    <Form method="get" className="inline-form">
      <button type="submit" className="button button--secondary" disabled={refreshing}>
        {refreshing ? "Refreshing..." : "Refresh Profile"}
      </button>
    </Form>
  );
  if (!user) {
    return (
      <div className="container page-message">
        <h1>Your profile</h1>
        <Notice tone="error">{error}</Notice>
        {refresh}
      </div>
    );
  }
  const rows: [string, string][] = [
    ["Username", user.username],
    ["ID", String(user.id)],
    ["Email", user.email || "N/A"],
    ["Member since", formatDate(user.joinedAt) || "N/A"],
    ["Profile image ID", user.profileImageID ? String(user.profileImageID) : "Default"],
    ["Banner ID", user.profileBannerID ? String(user.profileBannerID) : "None"],
  ];
  return (
    <div className="container profile">
      <div className="profile__hero">
        <Banner name={user.username} imageId={user.profileBannerID} className="profile__banner" eager />
        <div className="profile__identity">
          <Avatar name={user.username} imageId={user.profileImageID} size={112} className="profile__avatar" />
          <div className="profile__heading">
            <h1>{user.username}</h1>
            <p className="muted">Your account</p>
          </div>
        </div>
      </div>
      <section className="card profile__details" aria-labelledby="details-title">
        <h2 id="details-title">Account details</h2>
        <dl className="details">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className="actions">
          {refresh}
          <Link to={userPath(user.username)} className="button button--ghost">
            View public page
          </Link>
        </div>
      </section>
    </div>
  );
}
