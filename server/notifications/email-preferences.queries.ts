import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { EmailPreferenceTable, NotificationKind } from "../db/schema.ts";
import type { EmailSetting } from "../rules/email-preferences.ts";

/** An account's explicit notification mail choices (docs/api.md "Notification mail"): rows only for kinds it chose. */
export function createEmailPreferenceQueries({ kysely }: Database) {
  const q = {
    choices: prepare<{ userId: number }, Pick<EmailPreferenceTable, "kind" | "setting">>(
      kysely,
      (p) => sql`SELECT "kind", "setting" FROM "EmailPreference" WHERE "userId" = ${p("userId")}`,
    ),
    account: prepare<{ id: number }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "User" WHERE "id" = ${p("id")}`),
  };
  return {
    /** The kinds the account chose a setting for, with it. */
    async choices(userId: number, on?: Executor): Promise<Partial<Record<NotificationKind, EmailSetting>>> {
      const rows = await q.choices.all({ userId }, on);
      return Object.fromEntries(rows.map((r) => [r.kind, r.setting]));
    },
    /** Whether the account exists (a deleted account's unsubscribe link has nothing to change). */
    exists: async (userId: number, on?: Executor) => (await q.account.first({ id: userId }, on)) !== undefined,
    /** Stores the choices (one statement; a kind chosen before gets the new setting). */
    async choose(on: Executor, userId: number, choices: Partial<Record<NotificationKind, EmailSetting>>): Promise<void> {
      const rows = Object.entries(choices).map(([kind, setting]) => ({ userId, kind: kind as NotificationKind, setting: setting }));
      if (rows.length === 0) return;
      await on
        .insertInto("EmailPreference")
        .values(rows)
        .onConflict((oc) => oc.columns(["userId", "kind"]).doUpdateSet({ setting: (eb) => eb.ref("excluded.setting") }))
        .execute();
    },
  };
}
