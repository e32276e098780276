import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { UserTable } from "../db/schema.ts";

/** What signing in needs of a user. */
export type SignInRow = Pick<Selectable<UserTable>, "id" | "username" | "email" | "passwordHash" | "tokenGeneration">;

export type NewUser = Pick<Insertable<UserTable>, "username" | "usernameKey" | "email" | "emailKey" | "passwordHash" | "joinedAt">;

export function createAuthQueries({ kysely }: Database) {
  const takenKeys = prepare<{ usernameKey: string; emailKey: string }, { usernameKey: string }>(kysely, (p) =>
    kysely
      .selectFrom("User")
      .select("usernameKey")
      .where((w) => w.or([w("usernameKey", "=", p("usernameKey")), w("emailKey", "=", p("emailKey"))])),
  );
  const insertUser = prepare<NewUser, Omit<SignInRow, "passwordHash">>(kysely, (p) =>
    kysely
      .insertInto("User")
      .values({
        username: p("username"),
        usernameKey: p("usernameKey"),
        email: p("email"),
        emailKey: p("emailKey"),
        passwordHash: p("passwordHash"),
        joinedAt: p("joinedAt"),
      })
      .returning(["id", "username", "email", "tokenGeneration"]),
  );
  // With the suspension: login refuses a suspended account after the password check.
  const forSignIn = prepare<{ usernameKey: string }, SignInRow & Pick<Selectable<UserTable>, "suspendedUntil">>(kysely, (p) =>
    kysely
      .selectFrom("User")
      .select(["id", "username", "email", "passwordHash", "tokenGeneration", "suspendedUntil"])
      .where("usernameKey", "=", p("usernameKey")),
  );
  // Logging out twice (two tabs) revokes once.
  const revoke = prepare<{ jti: string; userId: number; expiresAt: number }>(
    kysely,
    (p) => sql`INSERT INTO "RevokedToken" ("jti", "userId", "expiresAt") VALUES (${p("jti")}, ${p("userId")}, ${p("expiresAt")})
      ON CONFLICT DO NOTHING`,
  );
  const dropExpired = prepare<{ now: number }>(kysely, (p) => kysely.deleteFrom("RevokedToken").where("expiresAt", "<", p("now")));
  const bumpGeneration = prepare<{ id: number }>(
    kysely,
    (p) => sql`UPDATE "User" SET "tokenGeneration" = "tokenGeneration" + 1 WHERE "id" = ${p("id")}`,
  );

  const forPasswordCheck = prepare<{ id: number }, SignInRow>(kysely, (p) =>
    kysely.selectFrom("User").select(["id", "username", "email", "passwordHash", "tokenGeneration"]).where("id", "=", p("id")),
  );
  // One statement: the new hash and the next generation together, so no token of the old generation outlives the change.
  const setPassword = prepare<{ id: number; passwordHash: string }, Omit<SignInRow, "passwordHash">>(
    kysely,
    (p) => sql`UPDATE "User" SET "passwordHash" = ${p("passwordHash")}, "tokenGeneration" = "tokenGeneration" + 1
      WHERE "id" = ${p("id")} RETURNING "id", "username", "email", "tokenGeneration"`,
  );

  return {
    /** Which of the two keys are already someone's (the username first). */
    async takenKeys(usernameKey: string, emailKey: string): Promise<{ username: boolean; email: boolean }> {
      const rows = await takenKeys.all({ usernameKey, emailKey });
      return { username: rows.some((r) => r.usernameKey === usernameKey), email: rows.some((r) => r.usernameKey !== usernameKey) };
    },
    /** Throws a unique violation when the username or email key is taken (isUniqueViolation). */
    insertUser: async (user: NewUser, on?: Executor) => (await insertUser.first(user, on))!,
    forSignIn: (usernameKey: string) => forSignIn.first({ usernameKey }),
    revoke: (jti: string, userId: number, expiresAt: number) => revoke.run({ jti, userId, expiresAt }),
    dropExpiredRevocations: (now: number) => dropExpired.run({ now }),
    forPasswordCheck: (id: number) => forPasswordCheck.first({ id }),
    /** Sets the hash and ends every token signed so far; the row as it is now (undefined when there is no such user). */
    setPassword: (id: number, passwordHash: string) => setPassword.first({ id, passwordHash }),
    /** Changes the user's rows count: 0 when there is no such user. */
    bumpTokenGeneration: (id: number) => bumpGeneration.run({ id }),
  };
}
