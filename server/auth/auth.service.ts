import bcrypt from "bcryptjs";
import type { Database } from "../db/database.ts";
import { conflict, HttpError } from "../http/errors.ts";
import { signAccessToken, type TokenConfig } from "../http/auth.ts";
import type { LoginInput, RegisterInput } from "../rules/auth.ts";

export interface AuthConfig extends TokenConfig {
  bcryptCost: number;
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(db: Database, config: AuthConfig) {
  const { prisma } = db;
  // Compared against when the username is unknown, so both failures take the same time.
  const dummyHash = bcrypt.hashSync("not-a-real-password", config.bcryptCost);

  return {
    async register(input: RegisterInput): Promise<{ accessToken: string }> {
      const usernameKey = input.username.toLowerCase();
      const emailKey = input.email.toLowerCase();
      const taken = await prisma.user.findFirst({
        where: { OR: [{ usernameKey }, { emailKey }] },
        select: { usernameKey: true },
      });
      if (taken) {
        throw taken.usernameKey === usernameKey
          ? conflict("Username is already taken")
          : conflict("Email is already registered");
      }
      const passwordHash = await bcrypt.hash(input.password, config.bcryptCost);
      try {
        const user = await prisma.user.create({
          data: { username: input.username, usernameKey, email: input.email, emailKey, passwordHash, joinedAt: new Date() },
        });
        return { accessToken: signAccessToken(user, config) };
      } catch (err) {
        // Two registrations racing for one name: the unique key decides.
        if ((err as { code?: string }).code === "P2002") throw conflict("Username or email already exists");
        throw err;
      }
    },

    async login(input: LoginInput): Promise<{ accessToken: string }> {
      const user = await prisma.user.findUnique({ where: { usernameKey: input.username.toLowerCase() } });
      const ok = await bcrypt.compare(input.password, user?.passwordHash ?? dummyHash);
      if (!user || !ok) throw new HttpError(401, "Invalid credentials");
      return { accessToken: signAccessToken(user, config) };
    },
  };
}
