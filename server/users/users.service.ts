import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { isAdminUser } from "../http/auth.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { assertOwnImages } from "../images/own-images.ts";
import { mayActAsUser, maySeeEmailVerified, maySeePrivateSettings } from "../rules/permissions.ts";
import type { User } from "../rules/api-responses.ts";
import { cannotBeAName } from "../rules/text.ts";
import type { UserEditInput } from "../rules/user.ts";
import { createUserQueries, type UserRow } from "./users.queries.ts";
import { createTwoFactorQueries } from "../two-factor/two-factor.queries.ts";
import { reportWrite } from "../db/write-report.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { createEmailVerificationQueries } from "../auth/email-verification.queries.ts";
import type { EmailVerification } from "../auth/email-verification.service.ts";

/**
 * Emails are private: only the user sees their own (docs/api.md §5). The role is derived: `User.isAdmin` or the
 * username in ADMIN_USERNAMES (`adminUsernames`, lower case).
 */
const userOf = (
  u: UserRow,
  viewerId: number | undefined,
  adminUsernames: readonly string[],
): Omit<User, "twoFactor" | "emailVerified" | "pendingEmail"> => {
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

/** `emailChanges`: the links of an email change (services.ts gives it; the viewer's state only reads users). */
export function createUserService(db: Database, adminUsernames: readonly string[] = [], emailChanges?: EmailVerification) {
  const users = createUserQueries(db);
  const links = createEmailVerificationQueries(db);
  const secondFactors = createTwoFactorQueries(db);
  // The owner also sees their second factors (docs/api.md "Second factors") and the address a change waits to take
  // (docs/api.md "Verified email addresses"): two more queries, for them only, at once. Whether the address is
  // verified: the owner and admins (`viewerIsAdmin`).
  const toUser = async (u: UserRow, viewerId: number | undefined, viewerIsAdmin = false): Promise<User> => {
    const own = maySeePrivateSettings(viewerId, u);
    const [twoFactor, pendingEmail] = own
      ? await Promise.all([secondFactors.state(u.id), links.pendingEmail(u.id, u.emailKey, Date.now())])
      : [null, null];
    const viewer = viewerId === undefined ? undefined : { id: viewerId, isAdmin: viewerIsAdmin };
    return {
      ...userOf(u, viewerId, adminUsernames),
      twoFactor,
      emailVerified: maySeeEmailVerified(viewer, u) ? Number(u.emailVerified) === 1 : null,
      pendingEmail,
    };
  };

  async function byId(id: number): Promise<UserRow> {
    const user = await users.byId(id);
    if (!user) throw userNotFound();
    return user;
  }

  return {
    async getByUsername(username: string, viewerId?: number, viewerIsAdmin?: boolean): Promise<User> {
      const user = cannotBeAName(username) ? undefined : await users.byUsernameKey(username.toLowerCase());
      if (!user) throw userNotFound();
      return toUser(user, viewerId, viewerIsAdmin);
    },

    getById: async (id: number, viewerId?: number, viewerIsAdmin?: boolean) => toUser(await byId(id), viewerId, viewerIsAdmin),

    /** 404 when the user does not exist. */
    assertExists: async (id: number) => void (await byId(id)),

    /**
     * The user's own avatar, banner and email; nobody else's. An email change runs `confirmPassword` first (the
     * current password, 400 when wrong) and stays unique case-insensitively (409 as registration's). A new address
     * takes effect only once verified (docs/api.md "Verified email addresses"): it gets a link (counted on the
     * account's verification mails, 429) and the account keeps its address; its own address again, in any case, is
     * set at once and calls off a change that waited.
     */
    async update(id: number, input: UserEditInput, viewerId: number, confirmPassword: () => Promise<void>): Promise<User> {
      const current = await byId(id);
      if (!mayActAsUser({ id: viewerId }, { id })) throw forbidden("You can only edit your own profile");
      const emailKey = input.email?.toLowerCase();
      const newAddress = emailKey !== undefined && emailKey !== current.emailKey ? input.email! : undefined;
      if (emailKey !== undefined) {
        await confirmPassword();
        if (await users.emailTaken(emailKey, id)) throw conflict(EMAIL_TAKEN);
        if (newAddress !== undefined) {
          if (!emailChanges) throw new Error("createUserService: email changes need the email verification service");
          await emailChanges.countChangeMail(id);
        }
      }
      const change = {
        profileImageId: input.profileImageID,
        profileBannerId: input.profileBannerID,
        email: newAddress === undefined ? input.email : undefined,
        emailKey: newAddress === undefined ? emailKey : undefined,
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
          const row = await users.setProfile(trx, id, change);
          if (row && newAddress !== undefined) {
            await emailChanges!.requestChange(trx, { id, username: row.username, emailKey: row.emailKey }, newAddress);
            reportWrite(true);
          } else if (row && emailKey !== undefined) {
            reportWrite((await links.dropStaleLinks(trx, id, emailKey, Date.now())) > 0);
          }
          return row;
        });
      } catch (err) {
        // Two accounts racing for one address: the unique key decides.
        if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
        throw err;
      }
      if (!user) throw userNotFound();
      if (newAddress !== undefined) wakeJobRunners(db);
      return toUser(user, viewerId);
    },
  };
}
