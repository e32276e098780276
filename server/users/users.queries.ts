import type { Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import type { UserTable } from "../db/schema.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { reportWrite } from "../db/write-report.ts";
import { useImages } from "../images/own-images.ts";

/** A user as the API shows them (the email is the service's to hide). */
export type UserRow = Pick<Selectable<UserTable>, (typeof PUBLIC_COLUMNS)[number]>;

export interface ProfileImages {
  profileImageId?: number | null;
  profileBannerId?: number | null;
}

/** What PUT /user/{id} may set: the images, and the email with its lowercase key. */
export interface ProfileChange extends ProfileImages {
  email?: string;
  emailKey?: string;
  /** 1 or 0 (docs/api.md "Series metadata and browsing"). */
  showMature?: number;
}

// usernameKey and isAdmin make the role (isAdminUser).
const PUBLIC_COLUMNS = [
  "id",
  "username",
  "usernameKey",
  "email",
  "joinedAt",
  "profileImageId",
  "profileBannerId",
  "isAdmin",
  "showMature",
  "emailVerified",
  // Compared with the pending link's key (the address a change waits to take).
  "emailKey",
] as const;

export function createUserQueries({ kysely }: Database) {
  const byId = prepare<{ id: number }, UserRow>(kysely, (p) => kysely.selectFrom("User").select(PUBLIC_COLUMNS).where("id", "=", p("id")));
  const byUsernameKey = prepare<{ usernameKey: string }, UserRow>(kysely, (p) =>
    kysely.selectFrom("User").select(PUBLIC_COLUMNS).where("usernameKey", "=", p("usernameKey")),
  );

  const emailTaken = prepare<{ emailKey: string; id: number }, { id: number }>(kysely, (p) =>
    kysely.selectFrom("User").select("id").where("emailKey", "=", p("emailKey")).where("id", "<>", p("id")),
  );

  return {
    /** Whether another user has this email (case-insensitively). */
    emailTaken: async (emailKey: string, id: number) => (await emailTaken.first({ emailKey, id })) !== undefined,
    byId: (id: number) => byId.first({ id }),
    byUsernameKey: (usernameKey: string) => byUsernameKey.first({ usernameKey }),

    /**
     * Sets the avatar, banner and/or email on the service's transaction: updates the row and publishes the images.
     * Undefined when the user does not exist. A taken email throws a unique violation (isUniqueViolation).
     */
    async setProfile(trx: Executor, id: number, images: ProfileChange): Promise<UserRow | undefined> {
      // Saving what is stored changes nothing: the data version may stay (server/db/write-report.ts).
      const setting = Object.entries(images).filter(([, value]) => value !== undefined);
      const stored =
        setting.length === 0
          ? {}
          : await trx
              .selectFrom("User")
              .select(setting.map(([column]) => column as keyof ProfileChange))
              .where("id", "=", id)
              .executeTakeFirst();
      reportWrite(stored === undefined || setting.some(([column, value]) => (stored as Record<string, unknown>)[column] !== value));
      // The columns set vary per call (undefined ones are left out); with none, the row is only read back.
      const user = Object.values(images).every((v) => v === undefined)
        ? await byId.first({ id }, trx)
        : await trx.updateTable("User").set(images).where("id", "=", id).returning(PUBLIC_COLUMNS).executeTakeFirst();
      if (user) await useImages(trx, id, "user", id, [images.profileImageId, images.profileBannerId]);
      return user;
    },
  };
}
