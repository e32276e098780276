import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { forbidden, notFound } from "../http/errors.ts";
import type { User } from "../rules/responses.ts";
import { cannotBeAName } from "../rules/text.ts";
import type { UserEditInput } from "../rules/user.ts";
import { createUserQueries, type UserRow } from "./users.queries.ts";

/** Emails are private: only the user sees their own (docs/api.md §5). */
const toUser = (u: UserRow, viewerId: number | undefined): User => ({
  id: u.id,
  username: u.username,
  email: u.id === viewerId ? u.email : null,
  joinedAt: toIso(u.joinedAt),
  profileImageID: u.profileImageId,
  profileBannerID: u.profileBannerId,
});

const userNotFound = () => notFound("User not found");

export function createUserService(db: Database) {
  const users = createUserQueries(db);

  async function byId(id: number): Promise<UserRow> {
    const user = await users.byId(id);
    if (!user) throw userNotFound();
    return user;
  }

  return {
    async getByUsername(username: string, viewerId?: number): Promise<User> {
      const user = cannotBeAName(username) ? undefined : await users.byUsernameKey(username.toLowerCase());
      if (!user) throw userNotFound();
      return toUser(user, viewerId);
    },

    getById: async (id: number, viewerId?: number) => toUser(await byId(id), viewerId),

    /** 404 when the user does not exist. */
    assertExists: async (id: number) => void (await byId(id)),

    /** The user's own avatar and banner; nobody else's. */
    async update(id: number, input: UserEditInput, viewerId: number): Promise<User> {
      await byId(id);
      if (id !== viewerId) throw forbidden("You can only edit your own profile");
      const user = await users.setProfileImages(id, { profileImageId: input.profileImageID, profileBannerId: input.profileBannerID }, [
        { field: "profileImageID", label: "Avatar", id: input.profileImageID },
        { field: "profileBannerID", label: "Banner", id: input.profileBannerID },
      ]);
      if (!user) throw userNotFound();
      return toUser(user, viewerId);
    },
  };
}
