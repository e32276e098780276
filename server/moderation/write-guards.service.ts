import type { Database } from "../db/database.ts";
import type { Executor } from "../db/prepared.ts";
import { forbidden } from "../http/errors.ts";
import { BANNED_FROM_HUB } from "../rules/bans.ts";
import { createEmailVerificationQueries } from "../auth/email-verification.queries.ts";
import { VERIFY_EMAIL_FIRST } from "../rules/email-verification.ts";
import { mayPublishContent } from "../rules/permissions.ts";
import { createHubBanLookups } from "./bans.queries.ts";
import { removedContainerOf, type RemovedKind } from "./removal.queries.ts";

// The refusals a write runs in its own transaction, after it locked its row, so the unit rolls back: the facts come
// from the queries (removal.queries.ts, bans.queries.ts), the 403 from here.

/**
 * Nothing new goes into a removed thing, nor into anything inside a removed hub or series (docs/api.md "Removal"): a
 * removed post or chapter takes no likes or comments, a removed comment no likes, a removed hub no members, posts, or
 * likes and comments on its posts, a removed series no followers, chapters, or likes and comments on its chapters.
 * 403 naming the nearest removed thing.
 */
export async function refuseRemoved(on: Executor, type: RemovedKind, id: number): Promise<void> {
  const removed = await removedContainerOf(on, type, id);
  if (removed) throw forbidden(`This ${removed} was removed by moderators`);
}

/** 403 `You are banned from this hub` when the user is banned from the hub now: by the hub, the post, the comment. */
export function createHubBanChecks(db: Database) {
  const banned = createHubBanLookups(db);
  const refuse = (found: boolean) => {
    if (found) throw forbidden(BANNED_FROM_HUB);
  };
  return {
    inHub: async (on: Executor, hubId: number, userId: number) => refuse(await banned.inHub(on, hubId, userId)),
    onPost: async (on: Executor, postId: number, userId: number) => refuse(await banned.onPost(on, postId, userId)),
    onComment: async (on: Executor, commentId: number, userId: number) => refuse(await banned.onComment(on, commentId, userId)),
  };
}

/**
 * REQUIRE_VERIFIED_EMAIL (docs/api.md "Verified email addresses"): 403 `Verify your email address first` on posting,
 * commenting, publishing and uploading by an account whose address is not verified. Off (the default), it reads nothing.
 */
export function createVerifiedEmailCheck(db: Database, requireVerifiedEmail: boolean) {
  const accounts = createEmailVerificationQueries(db);
  return async (on: Executor, userId: number): Promise<void> => {
    if (!requireVerifiedEmail) return;
    const emailVerified = await accounts.isEmailVerified(on, userId);
    if (!mayPublishContent({ emailVerified }, { requireVerifiedEmail })) throw forbidden(VERIFY_EMAIL_FIRST);
  };
}

/** The check of a site's setting (createVerifiedEmailCheck); the services take it, off unless given. */
export type VerifiedEmailCheck = ReturnType<typeof createVerifiedEmailCheck>;
export const noVerifiedEmailCheck: VerifiedEmailCheck = () => Promise.resolve();
