import type { Database } from "../db/database.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { assertOwnImages, publishOwnImagesQuery } from "../images/image-refs.ts";
import type { User } from "../rules/responses.ts";
import type { UserEditInput } from "../rules/user.ts";

interface UserRecord {
  id: number;
  username: string;
  email: string;
  joinedAt: Date;
  profileImageId: number | null;
  profileBannerId: number | null;
}

/** Emails are private: only the user sees their own (docs/api.md §5). */
const toUser = (u: UserRecord, viewerId: number | undefined): User => ({
  id: u.id,
  username: u.username,
  email: u.id === viewerId ? u.email : null,
  joinedAt: u.joinedAt.toISOString(),
  profileImageID: u.profileImageId,
  profileBannerID: u.profileBannerId,
});

const PUBLIC_FIELDS = {
  id: true,
  username: true,
  email: true,
  joinedAt: true,
  profileImageId: true,
  profileBannerId: true,
} as const;

export function createUserService(db: Database) {
  const { prisma, sqlite } = db;

  async function byId(id: number): Promise<UserRecord> {
    const user = await prisma.user.findUnique({ where: { id }, select: PUBLIC_FIELDS });
    if (!user) throw notFound("User not found");
    return user;
  }

  return {
    async getByUsername(username: string, viewerId?: number): Promise<User> {
      const user = await prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() }, select: PUBLIC_FIELDS });
      if (!user) throw notFound("User not found");
      return toUser(user, viewerId);
    },

    getById: async (id: number, viewerId?: number) => toUser(await byId(id), viewerId),

    /** 404 when the user does not exist. */
    assertExists: async (id: number) => void (await byId(id)),

    /** The user's own avatar and banner; nobody else's. */
    async update(id: number, input: UserEditInput, viewerId: number): Promise<User> {
      await byId(id);
      if (id !== viewerId) throw forbidden("You can only edit your own profile");
      assertOwnImages(sqlite, viewerId, [
        { field: "profileImageID", label: "Avatar", id: input.profileImageID },
        { field: "profileBannerID", label: "Banner", id: input.profileBannerID },
      ]);
      const [user] = await prisma.$transaction([
        prisma.user.update({
          where: { id },
          data: {
            ...(input.profileImageID !== undefined ? { profileImageId: input.profileImageID } : {}),
            ...(input.profileBannerID !== undefined ? { profileBannerId: input.profileBannerID } : {}),
          },
          select: PUBLIC_FIELDS,
        }),
        publishOwnImagesQuery(prisma, viewerId, [input.profileImageID, input.profileBannerID]),
      ]);
      return toUser(user, viewerId);
    },
  };
}
