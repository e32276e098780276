import type { Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import type { UserTable } from "../db/schema.ts";
import { prepare } from "../db/prepared.ts";
import type { ImageRef } from "../images/image-refs.ts";
import { assertOwnImages, publishOwnImages } from "../images/own-images.ts";

/** A user as the API shows them (the email is the service's to hide). */
export type UserRow = Pick<Selectable<UserTable>, (typeof PUBLIC_COLUMNS)[number]>;

export interface ProfileImages {
  profileImageId?: number | null;
  profileBannerId?: number | null;
}

const PUBLIC_COLUMNS = ["id", "username", "email", "joinedAt", "profileImageId", "profileBannerId"] as const;

export function createUserQueries({ kysely }: Database) {
  const byId = prepare<{ id: number }, UserRow>(kysely, (p) => kysely.selectFrom("User").select(PUBLIC_COLUMNS).where("id", "=", p("id")));
  const byUsernameKey = prepare<{ usernameKey: string }, UserRow>(kysely, (p) =>
    kysely.selectFrom("User").select(PUBLIC_COLUMNS).where("usernameKey", "=", p("usernameKey")),
  );

  return {
    byId: (id: number) => byId.first({ id }),
    byUsernameKey: (usernameKey: string) => byUsernameKey.first({ usernameKey }),

    /**
     * Sets the avatar and/or banner in one unit: checks they are the user's own images (400 otherwise),
     * updates the row and publishes the images. Undefined when the user does not exist.
     */
    setProfileImages: (id: number, images: ProfileImages, refs: ImageRef[]): Promise<UserRow | undefined> =>
      kysely.transaction().execute(async (trx) => {
        await assertOwnImages(trx, id, refs);
        // The columns set vary per call (undefined ones are left out); with none, the row is only read back.
        const user =
          images.profileImageId === undefined && images.profileBannerId === undefined
            ? await byId.first({ id }, trx)
            : await trx.updateTable("User").set(images).where("id", "=", id).returning(PUBLIC_COLUMNS).executeTakeFirst();
        if (user) await publishOwnImages(trx, id, [images.profileImageId, images.profileBannerId]);
        return user;
      }),
  };
}
