import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { isAdminUser } from "../http/auth.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { assertOwnImages } from "../images/own-images.ts";
import { mayActAsUser, maySeePrivateSettings } from "../rules/permissions.ts";
import type { User } from "../rules/api-responses.ts";
import { cannotBeAName } from "../rules/text.ts";
import type { UserEditInput } from "../rules/user.ts";
import { createUserQueries, type UserRow } from "./users.queries.ts";

/**
 * Emails are private: only the user sees their own (docs/api.md §5). The role is derived: `User.isAdmin` or the
 * username in ADMIN_USERNAMES (`adminUsernames`, lower case).
 */
const userOf = (u: UserRow, viewerId: number | undefined, adminUsernames: readonly string[]): User => {
  const own = maySeePrivateSettings(viewerId, u);
  return {
    id: u.id,
    username: u.username,
    email: own ? u.email : null,
    joinedAt: toIso(u.joinedAt),
    profileImageID: u.profileImageId,
    profileBannerID: u.profileBannerId,
    role: isAdminUser(u, adminUsernames) ? "admin" : "user",
    showMature: own ? u.showMature === 1 : null,
  };
};

const EMAIL_TAKEN = "Email is already registered";

const userNotFound = () => notFound("User not found");

export function createUserService(db: Database, adminUsernames: readonly string[] = []) {
  const users = createUserQueries(db);
  const toUser = (u: UserRow, viewerId: number | undefined) => userOf(u, viewerId, adminUsernames);

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

    /**
     * The user's own avatar, banner and email; nobody else's. An email change runs `confirmPassword` first (the
     * current password, 400 when wrong) and stays unique case-insensitively (409 as registration's).
     */
    async update(id: number, input: UserEditInput, viewerId: number, confirmPassword: () => Promise<void>): Promise<User> {
      await byId(id);
      if (!mayActAsUser({ id: viewerId }, { id })) throw forbidden("You can only edit your own profile");
      const emailKey = input.email?.toLowerCase();
      if (emailKey !== undefined) {
        await confirmPassword();
        if (await users.emailTaken(emailKey, id)) throw conflict(EMAIL_TAKEN);
      }
      const change = {
        profileImageId: input.profileImageID,
        profileBannerId: input.profileBannerID,
        email: input.email,
        emailKey,
        showMature: input.showMature === undefined ? undefined : input.showMature ? 1 : 0,
      };
      const refs = [
        { field: "profileImageID", label: "Avatar", id: input.profileImageID },
        { field: "profileBannerID", label: "Banner", id: input.profileBannerID },
      ];
      let user: UserRow | undefined;
      try {
        // The images are checked (400 when not the user's own), the row set and the images published: one unit.
        user = await db.kysely.transaction().execute(async (trx) => {
          await assertOwnImages(trx, id, refs);
          return users.setProfile(trx, id, change);
        });
      } catch (err) {
        // Two accounts racing for one address: the unique key decides.
        if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
        throw err;
      }
      if (!user) throw userNotFound();
      return toUser(user, viewerId);
    },
  };
}
