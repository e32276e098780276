import type { User } from "../../server/rules/api-responses.ts";
import { Avatar, Banner } from "./images.tsx";

/** The top of a user's page and of the profile: the banner, the avatar, and what the page puts beside them. */
export function ProfileHero({
  user,
  children,
}: {
  user: Pick<User, "username" | "profileImageID" | "profileBannerID">;
  children: React.ReactNode;
}) {
  return (
    <div className="profile__hero">
      <Banner name={user.username} imageId={user.profileBannerID} className="profile__banner" eager />
      <div className="profile__identity">
        <Avatar name={user.username} imageId={user.profileImageID} size={112} className="profile__avatar" />
        {children}
      </div>
    </div>
  );
}
