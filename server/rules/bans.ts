// Hub bans and site suspensions (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): the request bodies and the
// answers. Pure (no Node imports): the web forms import the rules too.
import { z } from "zod";
import { text } from "./text.ts";

/** The message of every write a hub ban refuses (posting, commenting, liking, joining). */
export const BANNED_FROM_HUB = "You are banned from this hub";
/** Login's answer while an account is suspended (after the password check). */
export const ACCOUNT_SUSPENDED = "This account is suspended";

export const MAX_BAN_DAYS = 3650;
export const BAN_REASON_MAX = 500;
const DAYS_MESSAGE = `Days must be a whole number from 1 to ${MAX_BAN_DAYS}`;

export const banReason = text("Reason", {
  required: "Reason cannot be empty",
  max: [BAN_REASON_MAX, `Reason must be at most ${BAN_REASON_MAX} characters`],
});

/** `days` absent or null: no end. */
export const banDays = z
  .number({ error: DAYS_MESSAGE })
  .int(DAYS_MESSAGE)
  .min(1, DAYS_MESSAGE)
  .max(MAX_BAN_DAYS, DAYS_MESSAGE)
  .nullable()
  .optional();

/** PUT /hubs/{id}/bans/{userId} and PUT /admin/users/{id}/ban. */
export const BanBody = z.object({ reason: banReason, days: banDays });
export type BanInput = z.infer<typeof BanBody>;

const id = z.number().int().positive();
const date = z.iso.datetime();

export const HubBan = z.object({
  user: z.object({ id, username: z.string(), profileImageId: id.nullable() }),
  reason: z.string(),
  expiresAt: date.nullable().describe("null: no end. A ban stops counting once this is past (the row stays until lifted)"),
  by: z.object({ id, username: z.string() }).nullable().describe("Who set it; null once that account is gone"),
  createdAt: date.describe("When the ban was last set"),
});
export type HubBan = z.infer<typeof HubBan>;

/** The answer of a ban or an unban: the user's ban in the hub now. */
export const HubBanState = z.object({ banned: z.boolean(), ban: HubBan.nullable() });
export type HubBanState = z.infer<typeof HubBanState>;

/** An account's suspension now (the answer of suspending, lifting, and of the admins' read). */
export const Suspension = z.object({
  userId: id,
  suspended: z.boolean(),
  until: date.nullable().describe("null while suspended: no end"),
  reason: z.string().nullable(),
});
export type Suspension = z.infer<typeof Suspension>;

/** DELETE /hubs/{id}/bans/{userId} and DELETE /admin/users/{id}/ban: a reason for the mod log is optional. */
export const LiftBody = z.object({
  reason: text("Reason", { max: [BAN_REASON_MAX, `Reason must be at most ${BAN_REASON_MAX} characters`] }),
});
