// Shapes of the API's responses (docs/api.md §7). They document /openapi.json, and the web
// app's client takes its types from them.
import { z } from "zod";
import { TwoFactorState } from "./two-factor.ts";
import { Removed } from "./removal.ts";
import { CONTENT_RATINGS, READING_DIRECTIONS, SERIES_STATUSES } from "./series.ts";

const id = z.number().int().positive();
const imageId = id.nullable();
const date = z.iso.datetime();

export const ErrorBody = z.object({
  status: z.number().int(),
  error: z.string(),
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
/** One entry of an error body's `errors`: the field and what is wrong with it. */
export type FieldError = NonNullable<z.infer<typeof ErrorBody>["errors"]>[number];

export const User = z.object({
  id,
  username: z.string(),
  email: z.string().nullable().describe("Only the user's own email; null for everyone else"),
  joinedAt: date,
  profileImageID: imageId,
  profileBannerID: imageId,
  role: z.enum(["user", "admin"]).describe("admin: a site admin (granted by `npm run admin`, or named by ADMIN_USERNAMES)"),
  showMature: z.boolean().nullable().describe("Only the user's own setting (mature series in their lists); null for everyone else"),
  emailVerified: z
    .boolean()
    .nullable()
    .describe(
      'Only to the user and admins: whether the address is verified (docs/api.md "Verified email addresses"); null for everyone else',
    ),
  pendingEmail: z
    .string()
    .nullable()
    .describe("Only to the user: the new address a change waits to take once verified; null when none (and for everyone else)"),
  twoFactor: TwoFactorState.nullable().describe(
    'Only to the user: their second factors on (docs/api.md "Second factors"); null for everyone else',
  ),
});
export type User = z.infer<typeof User>;

const PostRef = z.object({ id, title: z.string(), date });

export const Hub = z.object({
  id,
  name: z.string(),
  description: z.string(),
  memberCount: z.number().int().nonnegative(),
  followersCount: z.number().int().nonnegative().describe("Same value as memberCount"),
  postCount: z.number().int().nonnegative(),
  profileImageId: imageId,
  profileBannerId: imageId,
  authorId: id,
  authorName: z.string(),
  createdAt: date,
  latestPost: PostRef.nullable(),
  removed: Removed,
});
export type Hub = z.infer<typeof Hub>;

export const HubModeratorRef = z.object({ id, username: z.string() });

export const HubDetail = Hub.extend({
  joinedByMe: z.boolean(),
  moderators: z.array(HubModeratorRef).describe("The creator first, then the moderators added, earliest first"),
  moderatedByMe: z.boolean().describe("The caller moderates the hub: its creator, an added moderator or an admin"),
});
export type HubDetail = z.infer<typeof HubDetail>;

export const HubModerator = z.object({
  id,
  username: z.string(),
  profileImageId: imageId,
  creator: z.boolean().describe("The hub's creator: a moderator by creating it, never removed"),
  addedAt: date.describe("When they were added; the hub's creation for its creator"),
});
export type HubModerator = z.infer<typeof HubModerator>;

export const HubModerators = z.object({ items: z.array(HubModerator) });
export type HubModerators = z.infer<typeof HubModerators>;

export const PostSummary = z.object({
  id,
  title: z.string(),
  description: z.string(),
  date,
  likes: z.number().int().nonnegative(),
  authorId: id,
  authorName: z.string(),
  hubId: id,
  hubName: z.string(),
  likedByMe: z.boolean(),
  commentCount: z.number().int().nonnegative().describe("Comments and replies, deleted ones not counted"),
  removed: Removed,
});
export type PostSummary = z.infer<typeof PostSummary>;

export const Post = PostSummary.extend({
  content: z.string(),
  authorProfileImageID: imageId,
});
export type Post = z.infer<typeof Post>;

const ChapterRef = z.object({ id, number: z.number().int().positive(), title: z.string(), date, coverId: imageId });

export const Series = z.object({
  id,
  name: z.string(),
  description: z.string(),
  author: id,
  authorName: z.string(),
  followersCount: z.number().int().nonnegative(),
  chapterCount: z.number().int().nonnegative(),
  profileImageId: imageId,
  profileBannerId: imageId,
  createdAt: date,
  latestChapter: ChapterRef.nullable(),
  removed: Removed,
  tags: z.array(z.string()).describe("Lowercase, in the order the author gave them (0 to 10)"),
  status: z.enum(SERIES_STATUSES),
  contentRating: z.enum(CONTENT_RATINGS).describe("mature series are left out of lists for guests and users without showMature"),
  readingDirection: z.enum(READING_DIRECTIONS).describe("The reader's default mode"),
  lastChapterAt: date.nullable().describe("The newest live chapter's date; null without one"),
});
export type Series = z.infer<typeof Series>;

export const TagCount = z.object({ name: z.string(), seriesCount: z.number().int().positive() });
export type TagCount = z.infer<typeof TagCount>;

export const SeriesDetail = Series.extend({ followedByMe: z.boolean() });
export type SeriesDetail = z.infer<typeof SeriesDetail>;

export const ChapterSummary = z.object({
  id,
  number: z.number().int().positive(),
  title: z.string(),
  description: z.string(),
  likes: z.number().int().nonnegative(),
  date,
  coverId: imageId,
  authorId: id,
  seriesId: id,
  seriesName: z.string(),
  pageCount: z.number().int().nonnegative(),
  likedByMe: z.boolean(),
  readByMe: z
    .boolean()
    .describe("The caller has read the chapter: reached its last page, or moved on to a later chapter (false for guests)"),
  commentCount: z.number().int().nonnegative().describe("Comments and replies, deleted ones not counted"),
  removed: Removed,
});
export type ChapterSummary = z.infer<typeof ChapterSummary>;

export const ChapterPage = z.object({ imageId: id, width: z.number().int().positive(), height: z.number().int().positive() });

export const Chapter = ChapterSummary.extend({
  content: z.string(),
  authorName: z.string(),
  pages: z.array(ChapterPage),
  previousNumber: z.number().int().positive().nullable(),
  nextNumber: z.number().int().positive().nullable(),
});
export type Chapter = z.infer<typeof Chapter>;

export const ImageMetadata = z.object({
  id,
  fileName: z.string(),
  contentType: z.enum(["image/jpeg", "image/png", "image/webp", "image/gif"]),
  size: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  authorId: id,
  createdAt: date,
});
export type ImageMetadata = z.infer<typeof ImageMetadata>;

// Comments (docs/api.md §10).
export const Comment = z.object({
  id,
  content: z.string().describe("Markdown; empty for a deleted comment (a tombstone)"),
  authorId: id.nullable().describe("Null for a tombstone"),
  authorName: z.string().nullable(),
  authorImageId: imageId.describe("The author's profile image"),
  createdAt: date,
  editedAt: date.nullable(),
  likes: z.number().int().nonnegative(),
  likedByMe: z.boolean(),
  parentId: id.nullable().describe("The thread's top-level comment; null for a top-level comment"),
  replyCount: z.number().int().nonnegative(),
  deleted: z.boolean().describe("A tombstone: deleted, kept for its replies"),
  removed: Removed,
});
export type Comment = z.infer<typeof Comment>;
export const CommentDeleted = z.object({
  id,
  deleted: z.literal(true),
  tombstone: z.boolean().describe("It stays as a tombstone for its replies"),
});
export type CommentDeleted = z.infer<typeof CommentDeleted>;

export const LikeState = z.object({ liked: z.boolean(), likes: z.number().int().nonnegative() });
export const MemberState = z.object({ member: z.boolean(), memberCount: z.number().int().nonnegative() });
export const FollowState = z.object({ following: z.boolean(), followersCount: z.number().int().nonnegative() });

/** The schema of a page of `item`s (the contract's paged body). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    page: z.number().int().positive(),
    perPage: z.number().int().positive(),
    totalPages: z.number().int().positive(),
    totalElements: z.number().int().nonnegative(),
  });
}
export interface Page<T> {
  content: T[];
  page: number;
  perPage: number;
  totalPages: number;
  totalElements: number;
}

// Notifications and the following feed (docs/api.md §11).
export const NotificationKind = z.enum(["reply", "comment", "mention", "chapter", "follow", "join"]);
export const Notification = z.object({
  id,
  kind: NotificationKind,
  read: z.boolean(),
  createdAt: date,
  actor: z.object({ id, username: z.string(), profileImageID: imageId }).nullable(),
  subject: z.object({
    type: z.enum(["comment", "post", "chapter", "series", "hub"]),
    id,
    title: z.string(),
    url: z.string().describe("The web path to open"),
  }),
});
export type Notification = z.infer<typeof Notification>;
export const UnreadCount = z.object({ count: z.number().int().nonnegative() });
export const FeedItem = z.discriminatedUnion("type", [
  z.object({ type: z.literal("chapter"), date, chapter: ChapterSummary }),
  z.object({ type: z.literal("post"), date, post: PostSummary }),
]);
export type FeedItem = z.infer<typeof FeedItem>;
