// Notification mail (docs/api.md "Notification mail"): which notification kinds an account gets by mail, and how
// often. Shared by the API, the job that makes digests and the web app's settings card (pure: no Node imports).
import { z } from "zod";
import type { NotificationKind } from "../db/schema.ts";

/** How often mail goes for one kind: never, one mail per notification, or in the daily or weekly digest. */
export const EMAIL_SETTINGS = ["off", "instant", "daily", "weekly"] as const;
export type EmailSetting = (typeof EMAIL_SETTINGS)[number];

/** Every notification kind of docs/api.md §11, in the order the settings card lists them. */
export const MAIL_KINDS = ["reply", "mention", "comment", "chapter", "follow", "join"] as const satisfies readonly NotificationKind[];

/** A notification kind, as the web app names it (the same as server/db/schema.ts NotificationKind). */
export type MailKind = (typeof MAIL_KINDS)[number];

/** An account's setting for a kind it never chose (only explicit choices are stored). */
export const DEFAULT_EMAIL_SETTINGS: Record<NotificationKind, EmailSetting> = {
  reply: "instant",
  mention: "instant",
  comment: "off",
  chapter: "daily",
  follow: "off",
  join: "off",
};

/** An account's settings, one per kind. */
export type EmailPreferences = Record<NotificationKind, EmailSetting>;

/** The stored choices over the defaults. */
export function withDefaults(choices: Partial<Record<NotificationKind, EmailSetting>>): EmailPreferences {
  return { ...DEFAULT_EMAIL_SETTINGS, ...choices };
}

/** Words for the web app: the settings card's labels and the unsubscribe page. */
export const EMAIL_SETTING_LABELS: Record<EmailSetting, string> = {
  off: "Off",
  instant: "Instantly",
  daily: "Daily digest",
  weekly: "Weekly digest",
};
export const MAIL_KIND_LABELS: Record<NotificationKind, string> = {
  reply: "Replies to your comments",
  mention: "Mentions of you",
  comment: "Comments on your posts and chapters",
  chapter: "New chapters of series you follow",
  follow: "New followers of your series",
  join: "New members of your hubs",
};
/** "reply emails", "new chapter emails": the unsubscribe page's words for a kind. */
export const MAIL_KIND_NOUNS: Record<NotificationKind, string> = {
  reply: "reply",
  mention: "mention",
  comment: "comment",
  chapter: "new chapter",
  follow: "new follower",
  join: "new member",
};

/** An unknown key in the PUT body. */
export const NOT_A_KIND = `Not a notification kind: use ${MAIL_KINDS.join(", ")}`;

const setting = z.enum(EMAIL_SETTINGS, { error: `Choose one of ${EMAIL_SETTINGS.join(", ")}` });

/** GET /me/email-preferences and the answer of PUT: one setting per kind. */
export const EmailPreferencesShape = z.object(
  Object.fromEntries(MAIL_KINDS.map((kind) => [kind, setting])) as Record<NotificationKind, typeof setting>,
);

/**
 * PUT /me/email-preferences: any of the kinds (partial; a kind left out keeps its setting). An unknown kind is a field
 * error on its name; an unknown setting, a field error on its kind.
 */
export const EmailPreferencesUpdateBody = z
  .object(
    Object.fromEntries(MAIL_KINDS.map((kind) => [kind, setting.optional()])) as Record<NotificationKind, z.ZodOptional<typeof setting>>,
  )
  .catchall(z.unknown())
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!(MAIL_KINDS as readonly string[]).includes(key)) ctx.addIssue({ code: "custom", path: [key], message: NOT_A_KIND });
    }
  });
export type EmailPreferencesUpdate = z.infer<typeof EmailPreferencesUpdateBody>;

/** The settings a PUT body chose, by kind (the body holds no other key once validated). */
export function chosenSettings(body: EmailPreferencesUpdate): Partial<EmailPreferences> {
  const chosen: Partial<EmailPreferences> = {};
  for (const kind of MAIL_KINDS) if (body[kind] !== undefined) chosen[kind] = body[kind];
  return chosen;
}

/** A signed unsubscribe link is a few dozen characters; anything much longer is not one. */
export const INVALID_UNSUBSCRIBE_LINK = "This unsubscribe link is invalid";

/** POST /email-preferences/unsubscribe: the token of a mail's unsubscribe link. */
export const UnsubscribeBody = z.object({
  token: z.string({ error: "Token is required" }).trim().min(1, "Token is required").max(200, INVALID_UNSUBSCRIBE_LINK),
});
export type UnsubscribeInput = z.infer<typeof UnsubscribeBody>;

/**
 * The kind an unsubscribe token names, read without checking its signature (the API checks it when it acts): for the
 * page that shows what the link will do. Tokens are `{userId}.{kind}.{signature}` (server/mail/unsubscribe.ts).
 */
export function kindOfUnsubscribeToken(token: string): NotificationKind | null {
  const kind = /^[1-9][0-9]{0,15}\.([a-z]{1,20})\.[A-Za-z0-9_-]{43}$/.exec(token)?.[1];
  return kind !== undefined && (MAIL_KINDS as readonly string[]).includes(kind) ? (kind as NotificationKind) : null;
}

/** The answer of the unsubscribe: the kind that is now off. */
export const Unsubscribed = z.object({
  kind: z.enum(MAIL_KINDS).describe("The notification kind no longer mailed to the account"),
  setting: z.literal("off"),
});
export type Unsubscribed = z.infer<typeof Unsubscribed>;

/** One-click unsubscribes per client address per hour (a stranger can repeat it); beyond it, 429. */
export const DEFAULT_UNSUBSCRIBES_PER_ADDRESS_PER_HOUR = 30;
