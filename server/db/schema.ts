import type { Generated } from "kysely";

/**
 * The tables as the data layer sees them (Kysely), written from `prisma/schema.prisma`, which stays the
 * source of the schema; tests/api/schema-types.test.ts checks them against the migrated database of each engine
 * (docs/decisions/027-schema-copies-checked.md). Dates are Unix milliseconds on both engines (SQLite INTEGER,
 * PostgreSQL BIGINT), so a row reads the same whichever engine holds it (docs/decisions/014-data-layer.md).
 */
export interface UserTable {
  id: Generated<number>;
  username: string;
  usernameKey: string;
  email: string;
  emailKey: string;
  passwordHash: string;
  joinedAt: number;
  profileImageId: number | null;
  profileBannerId: number | null;
  tokenGeneration: Generated<number>;
  /** Moved in the same transaction as the user's notifications. */
  unreadNotifications: Generated<number>;
  /** 1: a site admin by grant (ADMIN_USERNAMES names more); 0 or 1 on both engines. */
  isAdmin: Generated<number>;
  /** Suspended by an admin while later than now; 9999-12-31 for no end (SUSPENDED_FOREVER). */
  suspendedUntil: number | null;
  suspendedReason: string | null;
  /** How many users the user blocks (Block rows), moved in the same transaction as they are. */
  blockCount: Generated<number>;
  /** 1: mature series appear in the user's lists (docs/api.md "Series metadata and browsing"); 0 or 1 on both engines. */
  showMature: Generated<number>;
  /** 1: the address was verified (docs/api.md "Verified email addresses"); 0 or 1 on both engines. */
  emailVerified: Generated<number>;
}

export interface ImageTable {
  id: Generated<number>;
  fileName: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  authorId: number;
  createdAt: number;
  publishedAt: number | null;
  fileKey: string | null;
}

export interface HubTable {
  id: Generated<number>;
  name: string;
  nameKey: string;
  description: Generated<string>;
  memberCount: Generated<number>;
  postCount: Generated<number>;
  /** Versions of the hub's post orders, bumped by the changes that move them (server/posts/post-page-keys.ts). */
  postOrderVersion: Generated<number>;
  likeOrderVersion: Generated<number>;
  profileImageId: number | null;
  profileBannerId: number | null;
  authorId: number;
  createdAt: number;
  /** Removal by moderators (null while not removed): the row keeps its place (docs/decisions/018-governance.md). */
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
}

export interface PostTable {
  id: Generated<number>;
  title: string;
  content: string;
  description: Generated<string>;
  date: number;
  likes: Generated<number>;
  commentCount: Generated<number>;
  threadCount: Generated<number>;
  authorId: number;
  hubId: number;
  /** Removal by moderators (null while not removed): the row keeps its place (docs/decisions/018-governance.md). */
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
}

export interface SeriesTable {
  id: Generated<number>;
  name: string;
  nameKey: string;
  description: Generated<string>;
  followersCount: Generated<number>;
  chapterCount: Generated<number>;
  profileImageId: number | null;
  profileBannerId: number | null;
  authorId: number;
  createdAt: number;
  /** Removal by moderators (null while not removed): the row keeps its place (docs/decisions/018-governance.md). */
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
  /** The tags as given, a JSON array (SeriesTag holds them for the filters). */
  tags: Generated<string>;
  status: Generated<string>;
  contentRating: Generated<string>;
  readingDirection: Generated<string>;
  /** The newest live chapter's date, kept by triggers on Chapter (migration series_metadata). */
  lastChapterAt: number | null;
}

/** A series' tag (lowercase, as validated), written with the series. */
export interface SeriesTagTable {
  seriesId: number;
  tag: string;
  /** The series' sort keys and filters, copied by triggers (migration series_tag_order): writers leave them out. */
  createdAt: Generated<number>;
  followersCount: Generated<number>;
  lastChapterAt: Generated<number | null>;
  status: Generated<string>;
  contentRating: Generated<string>;
}

/** How many series carry a tag, per rating and status, kept by triggers (migration series_tag_order). */
export interface SeriesTagCountTable {
  tag: string;
  contentRating: string;
  status: string;
  rows: number;
}

/** The same per pair of tags, `tag` before `otherTag` (migration series_tag_order). */
export interface SeriesTagPairCountTable {
  tag: string;
  otherTag: string;
  contentRating: string;
  status: string;
  rows: number;
}

export interface ChapterTable {
  id: Generated<number>;
  seriesId: number;
  number: number;
  title: string;
  description: Generated<string>;
  content: Generated<string>;
  likes: Generated<number>;
  commentCount: Generated<number>;
  threadCount: Generated<number>;
  date: number;
  coverId: number | null;
  authorId: number;
  /** Removal by moderators (null while not removed): the row keeps its place (docs/decisions/018-governance.md). */
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
}

export interface ChapterPageTable {
  chapterId: number;
  position: number;
  imageId: number;
}

export interface MembershipTable {
  userId: number;
  hubId: number;
  createdAt: number;
}

export interface FollowTable {
  userId: number;
  seriesId: number;
  createdAt: number;
}

export interface PostLikeTable {
  userId: number;
  postId: number;
}

export interface ChapterLikeTable {
  userId: number;
  chapterId: number;
}

export interface RevokedTokenTable {
  jti: string;
  userId: number;
  expiresAt: number;
}

/** A table's row count, kept by triggers (migration row_counts). */
export interface RowCountTable {
  tableName: string;
  rows: number;
}

/** A comment on a post or a chapter (exactly one of postId, chapterId), or a reply (parentId: its thread's top comment). */
export interface CommentTable {
  id: Generated<number>;
  postId: number | null;
  chapterId: number | null;
  parentId: number | null;
  /** Null once the account is gone. */
  authorId: number | null;
  content: string;
  likes: Generated<number>;
  replyCount: Generated<number>;
  createdAt: number;
  editedAt: number | null;
  /** A tombstone: deleted while it had replies. */
  deletedAt: number | null;
  /** Removal by moderators (null while not removed): the row keeps its place (docs/decisions/018-governance.md). */
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
}

export interface CommentLikeTable {
  userId: number;
  commentId: number;
}

export type NotificationKind = "reply" | "comment" | "mention" | "chapter" | "follow" | "join";

export interface NotificationTable {
  id: Generated<number>;
  userId: number;
  kind: NotificationKind;
  actorId: number | null;
  commentId: number | null;
  postId: number | null;
  chapterId: number | null;
  seriesId: number | null;
  hubId: number | null;
  createdAt: number;
  readAt: number | null;
}

/** Work done after the request, by any instance (docs/decisions/017-discussion.md). */
export interface JobTable {
  id: Generated<number>;
  kind: "chapter-notifications" | "image-release" | "digests";
  subjectId: number;
  cursor: Generated<number>;
  runAfter: number;
  createdAt: number;
}

/** A hub's added moderators; the creator moderates by being the hub's author (docs/decisions/018-governance.md). */
export interface HubModeratorTable {
  hubId: number;
  userId: number;
  /** Null once that account is gone. */
  addedById: number | null;
  createdAt: number;
}

export type ModLogAction =
  | "moderator-added"
  | "moderator-removed"
  | "removed"
  | "restored"
  | "banned"
  | "unbanned"
  | "suspended"
  | "unsuspended"
  | "report-dismissed";
export type ModLogSubjectType = "post" | "comment" | "chapter" | "series" | "hub" | "user";

/** A user banned from a hub while `expiresAt` is null (no end) or later than now (docs/decisions/018-governance.md). */
export interface HubBanTable {
  hubId: number;
  userId: number;
  reason: string;
  expiresAt: number | null;
  /** Null once that account is gone. */
  byId: number | null;
  /** When the ban was last set. */
  createdAt: number;
}

/** What moderators and admins did, written in the transaction of the action (docs/decisions/018-governance.md). */
export interface ModLogEntryTable {
  id: Generated<number>;
  /** Null for a site-wide action. */
  hubId: number | null;
  action: ModLogAction;
  /** Null once the moderator's account is gone. */
  moderatorId: number | null;
  subjectType: ModLogSubjectType;
  subjectId: number;
  /** Copied at the time: the log still reads after the subject is deleted. */
  subjectTitle: string;
  reason: Generated<string>;
  createdAt: number;
}

/** userId blocks blockedId (docs/decisions/018-governance.md, Blocks). */
export interface BlockTable {
  userId: number;
  blockedId: number;
  createdAt: number;
}

export type ReportSubjectType = "post" | "comment" | "chapter" | "series" | "hub" | "user";
export type ReportReason = "spam" | "harassment" | "copyright" | "sexual" | "violence" | "other";

/** A report (docs/decisions/018-governance.md, Reports): hubId and seriesId name the queue it is in, copied at report time. */
export interface ReportTable {
  id: Generated<number>;
  /** Null once the reporter's account is gone. */
  reporterId: number | null;
  subjectType: ReportSubjectType;
  subjectId: number;
  reason: ReportReason;
  note: Generated<string>;
  status: Generated<"open" | "resolved">;
  /** The hub whose moderators see it: a post's, or the post's of a comment on a post. */
  hubId: number | null;
  /** The series whose author sees it: a comment on one of its chapters. */
  seriesId: number | null;
  createdAt: number;
  resolvedAt: number | null;
  resolvedById: number | null;
  resolution: "dismiss" | "remove" | null;
  resolutionReason: string | null;
}

/** Which rows use which images (docs/decisions/018-governance.md): only added to, read when a deletion releases images. */
export interface ImageUseTable {
  userType: ImageUserType;
  userId: number;
  imageId: number;
}
export type ImageUserType = "user" | "hub" | "series" | "chapter" | "post" | "comment";

/** An image a deletion took a use of; the "image-release" job deletes it when nothing uses it any more. */
export interface ImageReleaseTable {
  imageId: number;
  createdAt: number;
}

/** Where userId is in seriesId: one row per user and series, the latest write wins (docs/api.md "Reading progress"). */
export interface ReadingProgressTable {
  userId: number;
  seriesId: number;
  chapterId: number;
  /** 1-based page of the chapter. */
  page: number;
  updatedAt: number;
}

/** userId has read chapterId (its last page reached, or moved on to a later chapter). */
export interface ChapterReadTable {
  userId: number;
  chapterId: number;
  readAt: number;
}

/** A message waiting for the job runner (server/mail/outbox.ts); deleted once sent or given up on. */
export interface OutgoingMailTable {
  id: Generated<number>;
  kind: string;
  userId: number | null;
  toAddress: string;
  subject: string;
  text: string;
  html: string;
  /** A JSON object of extra headers, or null. */
  headers: string | null;
  attempts: Generated<number>;
  runAfter: number;
  createdAt: number;
}

/** A password reset token's sha256 (server/auth/password-reset.service.ts). */
export interface PasswordResetTokenTable {
  tokenHash: string;
  userId: number;
  expiresAt: number;
  createdAt: number;
}

/** An account's TOTP second factor (docs/api.md "Second factors"); the secret kept as is, base32. */
export interface TotpFactorTable {
  userId: number;
  secret: string;
  /** Null while pending; on from then. */
  confirmedAt: number | null;
  /** The time step of the last accepted code (no replay within its window). */
  lastUsedStep: number | null;
  createdAt: number;
}

/** A TOTP recovery code's sha256; deleted when used. */
export interface RecoveryCodeTable {
  userId: number;
  codeHash: string;
}

/** The login's code step: the challenge id's sha256, 5 minutes, dead after 5 wrong codes. */
export interface LoginChallengeTable {
  idHash: string;
  userId: number;
  expiresAt: number;
  wrongCodes: Generated<number>;
}

/** A link that verifies an address, stored as its token's sha256 (server/auth/email-verification.service.ts). */
export interface EmailVerificationTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  email: string;
  emailKey: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

/** A passkey (WebAuthn credential) of an account (docs/api.md "Passkeys"): the public key and id as base64url. */
export interface PasskeyTable {
  id: Generated<number>;
  userId: number;
  credentialId: string;
  publicKey: string;
  /** The signature counter as last seen (0 to 2^32-1). */
  counter: number;
  /** Transports separated by commas; empty when the browser named none. */
  transports: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A WebAuthn challenge's sha256, 5 minutes, used once: adding a passkey (userId) or signing in (challengeIdHash). */
export interface PasskeyChallengeTable {
  challengeHash: string;
  userId: number | null;
  challengeIdHash: string | null;
  expiresAt: number;
}

/** An account's explicit choice of notification mail for one kind (docs/api.md "Notification mail"); none: the default. */
export interface EmailPreferenceTable {
  userId: number;
  kind: NotificationKind;
  setting: "off" | "instant" | "daily" | "weekly";
}

/** Per account and kind, the newest notification its last digest listed (docs/api.md "Digests"). */
export interface NotificationDigestTable {
  userId: number;
  kind: NotificationKind;
  lastNotificationId: number;
  sentAt: number;
}

/** One day's digest run, made once with its job (docs/api.md "Digests"). */
export interface DigestRunTable {
  /** Days since 1970-01-01 (UTC). */
  day: number;
  startedAt: number;
  finishedAt: number | null;
  mails: Generated<number>;
}

export interface DB {
  User: UserTable;
  Image: ImageTable;
  Hub: HubTable;
  Post: PostTable;
  Series: SeriesTable;
  SeriesTag: SeriesTagTable;
  SeriesTagCount: SeriesTagCountTable;
  SeriesTagPairCount: SeriesTagPairCountTable;
  Chapter: ChapterTable;
  ChapterPage: ChapterPageTable;
  Membership: MembershipTable;
  Follow: FollowTable;
  PostLike: PostLikeTable;
  ChapterLike: ChapterLikeTable;
  RevokedToken: RevokedTokenTable;
  RowCount: RowCountTable;
  Comment: CommentTable;
  CommentLike: CommentLikeTable;
  Notification: NotificationTable;
  Job: JobTable;
  HubModerator: HubModeratorTable;
  ModLogEntry: ModLogEntryTable;
  HubBan: HubBanTable;
  ImageUse: ImageUseTable;
  ImageRelease: ImageReleaseTable;
  Report: ReportTable;
  Block: BlockTable;
  ReadingProgress: ReadingProgressTable;
  ChapterRead: ChapterReadTable;
  EmailVerification: EmailVerificationTable;
  OutgoingMail: OutgoingMailTable;
  PasswordResetToken: PasswordResetTokenTable;
  TotpFactor: TotpFactorTable;
  RecoveryCode: RecoveryCodeTable;
  LoginChallenge: LoginChallengeTable;
  Passkey: PasskeyTable;
  PasskeyChallenge: PasskeyChallengeTable;
  NotificationDigest: NotificationDigestTable;
  DigestRun: DigestRunTable;
  EmailPreference: EmailPreferenceTable;
}
