import type { Database } from "../db/database.ts";
import { memoryAttemptCounter, unlimitedAttempts, type AttemptCounters } from "../http/attempt-counter.ts";
import { badRequest, TooManyRequests } from "../http/errors.ts";
import { readUnsubscribeToken, unsubscribeSecret } from "../mail/unsubscribe.ts";
import {
  DEFAULT_UNSUBSCRIBES_PER_ADDRESS_PER_HOUR,
  INVALID_UNSUBSCRIBE_LINK,
  chosenSettings,
  withDefaults,
  type EmailPreferences,
  type EmailPreferencesUpdate,
  type Unsubscribed,
  type UnsubscribeInput,
} from "../rules/email-preferences.ts";
import { createEmailPreferenceQueries } from "./email-preferences.queries.ts";

export interface EmailPreferencesConfig {
  /** Unsubscribe links are signed with a key derived from it (server/mail/unsubscribe.ts). */
  jwtSecret: string;
  /** One-click unsubscribes per client address per hour; default 30, 0 turns the limit off. */
  unsubscribesPerHour?: number;
}

const invalidLink = () => badRequest(INVALID_UNSUBSCRIBE_LINK, [{ field: "token", message: INVALID_UNSUBSCRIBE_LINK }]);

/**
 * Notification mail settings (docs/api.md "Notification mail"): an account's setting per notification kind, and the
 * one-click unsubscribe of a mail's signed link, which needs no sign-in.
 */
export function createEmailPreferenceService(
  db: Database,
  config: EmailPreferencesConfig,
  counters: AttemptCounters = memoryAttemptCounter,
) {
  const preferences = createEmailPreferenceQueries(db);
  const secret = unsubscribeSecret(config.jwtSecret);
  const perHour = config.unsubscribesPerHour ?? DEFAULT_UNSUBSCRIBES_PER_ADDRESS_PER_HOUR;
  const unsubscribesPerAddress = perHour > 0 ? counters("unsubscribe-address", perHour, 3600) : unlimitedAttempts;

  return {
    /** GET /me/email-preferences: every kind, chosen or default. */
    get: async (userId: number): Promise<EmailPreferences> => withDefaults(await preferences.choices(userId)),

    /** PUT /me/email-preferences: the kinds sent get their settings, the others keep theirs; answers them all. */
    update: (userId: number, update: EmailPreferencesUpdate): Promise<EmailPreferences> =>
      db.kysely.transaction().execute(async (trx) => {
        await preferences.choose(trx, userId, chosenSettings(update));
        return withDefaults(await preferences.choices(userId, trx));
      }),

    /**
     * POST /email-preferences/unsubscribe: the kind the token was signed for turns off for its account. Idempotent; a
     * deleted account's link answers the same (nothing is mailed to it anyway). 400 on `token` for any other token.
     */
    async unsubscribe(input: UnsubscribeInput, origin: { address: string }): Promise<Unsubscribed> {
      const wait = await unsubscribesPerAddress.take(origin.address);
      if (wait !== null) throw new TooManyRequests("Too many unsubscribe requests. Please try again later.", wait);
      const signed = readUnsubscribeToken(secret, input.token);
      if (!signed) throw invalidLink();
      await db.kysely.transaction().execute(async (trx) => {
        if (await preferences.exists(signed.userId, trx)) await preferences.choose(trx, signed.userId, { [signed.kind]: "off" });
      });
      return { kind: signed.kind, setting: "off" };
    },
  };
}
