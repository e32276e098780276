import type { AuthConfig } from "./auth/auth.service.ts";
import { createBlockService } from "./blocks/blocks.service.ts";
import { createAuthService } from "./auth/auth.service.ts";
import { createTotpService } from "./two-factor/totp.service.ts";
import { createChapterLikeService } from "./chapters/chapter-likes.service.ts";
import { createChapterService } from "./chapters/chapters.service.ts";
import { createCommentLikeService } from "./comments/comment-likes.service.ts";
import { createCommentService } from "./comments/comments.service.ts";
import type { Database } from "./db/database.ts";
import { createAccountDeletion } from "./deletion/account-deletion.service.ts";
import { createDeletionService } from "./deletion/deletion.service.ts";
import { createFeedService } from "./feed/feed.service.ts";
import { createSitemapService } from "./sitemap/sitemap.service.ts";
import { createHubService } from "./hubs/hubs.service.ts";
import { createMembershipService } from "./hubs/membership.service.ts";
import { createModeratorService } from "./hubs/moderators.service.ts";
import { createBanService } from "./moderation/bans.service.ts";
import { createModLogService } from "./moderation/modlog.service.ts";
import { createSuspensionService } from "./moderation/suspensions.service.ts";
import type { AttemptCounters } from "./http/attempt-counter.ts";
import { BucketImageFiles } from "./images/bucket-storage.ts";
import { ImageFiles } from "./images/folder-storage.ts";
import type { ImageStorage } from "./images/image-storage.ts";
import { imagesDir } from "./images/image-tidy.ts";
import { createImageService } from "./images/images.service.ts";
import { s3ObjectStore, type S3Settings } from "./images/s3-storage.ts";
import { createRedaction } from "./moderation/redaction.service.ts";
import { createRemovalService } from "./moderation/removal.service.ts";
import { createNotificationService } from "./notifications/notifications.service.ts";
import { createEmailPreferenceService } from "./notifications/email-preferences.service.ts";
import { createNotificationMail } from "./notifications/notification-mail.ts";
import { createPostLikeService } from "./posts/post-likes.service.ts";
import { createPostService } from "./posts/posts.service.ts";
import { createPasskeyService } from "./passkeys/passkeys.service.ts";
import { createProgressService } from "./progress/progress.service.ts";
import { createReportService } from "./reports/reports.service.ts";
import { createFollowService } from "./series/follows.service.ts";
import { createSeriesService } from "./series/series.service.ts";
import { createAccountExport } from "./users/account-export.ts";
import { createUserListService } from "./users/user-lists.service.ts";
import { createUserService } from "./users/users.service.ts";
import { createViewerService } from "./viewer/viewer.service.ts";
import type { DataVersionStore } from "./shared-state.ts";
import type { Logger } from "pino";
import { createPasswordReset, type PasswordResetConfig } from "./auth/password-reset.service.ts";
import { createEmailVerification } from "./auth/email-verification.service.ts";
import { createVerifiedEmailCheck } from "./moderation/write-guards.service.ts";

export interface ServiceConfig extends AuthConfig {
  dataDir: string;
  /** Bytes of images each user may store; default 2 GB. */
  uploadQuotaBytes?: number;
  /** Image resizes at once and waiting (default 2 and 8); beyond them `?w=` gets the original. */
  imageResizeLimits?: { running: number; queued: number };
  /** S3_*: images in a bucket instead of DATA_DIR/images (docs/api.md §1). */
  s3?: S3Settings;
  /** The web app's public origin, for links in mail (PUBLIC_URL); default http://localhost:3000. */
  publicUrl?: string;
  /** SMTP_URL: where mail goes; unset: DATA_DIR/outbox (docs/api.md "Mail"). */
  smtpUrl?: string;
  /** MAIL_FROM: the From of every message. */
  mailFrom?: string;
  /** Password reset requests per client address per hour; default 10, 0 turns the limit off (docs/api.md "Password reset"). */
  resetRequestsPerHour?: number;
  /** Password reset mails per account per hour; default 3, 0 turns the limit off. */
  resetMailsPerHour?: number;
  /** REQUIRE_VERIFIED_EMAIL: posting, commenting, publishing and uploading need a verified address; default false. */
  requireVerifiedEmail?: boolean;
  /** Verification emails (resends and email changes) per account per hour; default 3, 0 turns the limit off. */
  verificationMailsPerHour?: number;
  /** One-click unsubscribes per client address per hour; default 30, 0 turns the limit off (docs/api.md "Notification mail"). */
  unsubscribesPerHour?: number;
}

/** Where image bytes live: the S3 bucket when one is set, else the data folder. */
export function imageStorage(config: ServiceConfig): ImageStorage {
  return config.s3
    ? new BucketImageFiles(s3ObjectStore(config.s3), config.imageResizeLimits)
    : new ImageFiles(imagesDir(config.dataDir), config.imageResizeLimits);
}

export type Services = ReturnType<typeof createServices>;

/**
 * `counters`: the attempt counters of the login throttle, shared by every instance when Redis is set. `versions`: the
 * data version the app's response cache moves (shared-state.ts); the image byte cache checks kept images against it.
 */
export function createServices(
  db: Database,
  config: ServiceConfig,
  counters?: AttemptCounters,
  versions?: DataVersionStore,
  /** For what a service logs itself (a reset request's work after its answer). */
  logger?: Logger,
) {
  const storage = imageStorage(config);
  // Instant notification mail, queued with the notifications (docs/api.md "Notification mail").
  const notificationMail = createNotificationMail(config);
  // Verified addresses (docs/api.md "Verified email addresses"): links on register and email change, and the check of new
  // content under REQUIRE_VERIFIED_EMAIL.
  const emailVerification = createEmailVerification(db, config, counters);
  const verifiedEmail = createVerifiedEmailCheck(db, config.requireVerifiedEmail ?? false);
  const auth = createAuthService(db, config, counters, emailVerification.sendOnRegister);
  // Finds the hub of every endpoint under /hubs/{name}/... (its resolveId).
  const hubs = createHubService(db, verifiedEmail);
  // Series, chapters, progress and the user lists answer with removed content left out; chapters find their series.
  const redaction = createRedaction(db);
  const users = createUserService(db, config.adminUsernames, emailVerification);
  const series = createSeriesService(db, redaction, verifiedEmail);
  const chapters = createChapterService(db, series, redaction, verifiedEmail);
  return {
    auth,
    passwordReset: createPasswordReset(db, config satisfies PasswordResetConfig, counters, logger),
    emailVerification,
    totp: createTotpService(db, config, auth.confirmPassword),
    users,
    userLists: createUserListService(users, hubs, series, redaction),
    hubs,
    moderators: createModeratorService(db, hubs),
    bans: createBanService(db, hubs, config.adminUsernames),
    suspensions: createSuspensionService(db, config.adminUsernames),
    modLog: createModLogService(db, hubs),
    membership: createMembershipService(db, notificationMail),
    posts: createPostService(db, hubs, notificationMail, verifiedEmail),
    postLikes: createPostLikeService(db, hubs),
    series,
    follows: createFollowService(db, notificationMail),
    chapters,
    chapterLikes: createChapterLikeService(db, chapters),
    comments: createCommentService(db, notificationMail, verifiedEmail),
    commentLikes: createCommentLikeService(db),
    images: createImageService(db, storage, { quotaBytes: config.uploadQuotaBytes, versions, verifiedEmail }),
    accountExport: createAccountExport(db, storage),
    notifications: createNotificationService(db),
    emailPreferences: createEmailPreferenceService(db, config, counters),
    feed: createFeedService(db),
    sitemap: createSitemapService(db),
    reports: createReportService(db, config.adminUsernames),
    blocks: createBlockService(db),
    progress: createProgressService(db, series.cardsByIds, redaction),
    viewer: createViewerService(db, config.adminUsernames),
    deletion: createDeletionService(db, series),
    accountDeletion: createAccountDeletion(db, storage, auth),
    passkeys: createPasskeyService(db, config, counters),
    removal: createRemovalService(db, config.adminUsernames),
    redaction,
  };
}
