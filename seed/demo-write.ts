import { sql } from "kysely";
import type { Database } from "../server/db/database.ts";
import type { Executor } from "../server/db/prepared.ts";
import { RegisterBody } from "../server/rules/auth.ts";
import { NewChapterBody } from "../server/rules/chapter.ts";
import { HubBody } from "../server/rules/hub.ts";
import { NewPostBody } from "../server/rules/post.ts";
import { SeriesBody } from "../server/rules/series.ts";
import { nameKey } from "../server/rules/text.ts";
import { DEMO_PASSWORD } from "./content/users.ts";
import { imageKey, type OwnedImage } from "./demo-images.ts";
import type { DiscussionPlan } from "./demo-discussion-plan.ts";
import type { DemoPlan } from "./demo-plan.ts";
import { chapterKey, writeDemoDiscussion, type DiscussionCounts } from "./demo-write-discussion.ts";
import { writeDemoModeration } from "./demo-write-moderation.ts";
import { insertImageRows } from "./image-store.ts";
import { IMAGE_USE_COLUMNS } from "./image-uses.ts";
import { noRows, type RowCounts } from "./row-counts.ts";

export type DemoCounts = RowCounts & DiscussionCounts;

/**
 * Writes the planned demo on `trx`, the seed's one transaction, with the dates the plan gave (months of
 * history). Every input goes through the API's own schemas; the rows are written here, with each counter
 * set to the rows written behind it (the plan makes post authors members and images their users' own;
 * tests/seed/demo.test.ts checks both, and every counter). The discussion (comments, their likes, notifications)
 * goes through the API's own units instead (demo-write-discussion.ts).
 */
export async function writeDemo(
  trx: Executor,
  db: Database,
  plan: DemoPlan,
  discussion: DiscussionPlan,
  images: Map<string, OwnedImage>,
  passwordHash: string,
): Promise<DemoCounts> {
  const { engine } = db;
  const counts = noRows();
  const ids = {
    posts: new Map<string, number>(),
    chapters: new Map<string, number>(),
    series: new Map<string, number>(),
    hubs: new Map<string, number>(),
  };
  const userIds = new Map<string, number>();
  const userId = (username: string) => {
    const id = userIds.get(username);
    if (id === undefined) throw new Error(`Unknown demo user ${username}`);
    return id;
  };
  const imageId = (key: string) => {
    const found = images.get(key);
    if (!found) throw new Error(`Missing demo image ${key}`);
    return found.image.id;
  };

  for (const user of plan.users) {
    const input = RegisterBody.parse({ username: user.username, email: user.email, password: DEMO_PASSWORD });
    const { id } = await trx
      .insertInto("User")
      .values({
        username: input.username,
        usernameKey: input.username.toLowerCase(),
        email: input.email,
        emailKey: input.email.toLowerCase(),
        passwordHash,
        joinedAt: user.joinedAt,
        // The demo's members read their mail (docs/api.md "Verified email addresses"): they post under REQUIRE_VERIFIED_EMAIL too.
        emailVerified: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    userIds.set(user.username, id);
    counts.users++;
  }
  counts.images += await insertImageRows(
    trx,
    engine,
    [...images.values()].map(({ image, owner }) => ({ image, authorId: userId(owner) })),
  );
  for (const user of plan.users) {
    await trx
      .updateTable("User")
      .set({ profileImageId: imageId(imageKey.avatar(user.username)), profileBannerId: imageId(imageKey.userBanner(user.username)) })
      .where("id", "=", userId(user.username))
      .execute();
  }

  for (const plannedHub of plan.hubs) {
    const ownerId = userId(plannedHub.owner);
    const input = HubBody.parse({
      name: plannedHub.name,
      description: plannedHub.description,
      profileImageId: imageId(imageKey.hubLogo(plannedHub.name)),
      profileBannerId: imageId(imageKey.hubBanner(plannedHub.name)),
    });
    const { id: hubId } = await trx
      .insertInto("Hub")
      .values({
        name: input.name,
        nameKey: nameKey(input.name),
        description: input.description ?? "",
        profileImageId: input.profileImageId ?? null,
        profileBannerId: input.profileBannerId ?? null,
        memberCount: 1 + plannedHub.members.length,
        postCount: plannedHub.posts.length,
        authorId: ownerId,
        createdAt: plannedHub.createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("Membership")
      .values([
        { userId: ownerId, hubId, createdAt: plannedHub.createdAt },
        ...plannedHub.members.map((member) => ({ userId: userId(member.username), hubId, createdAt: member.at })),
      ])
      .execute();
    ids.hubs.set(plannedHub.name, hubId);
    counts.hubs++;
    counts.memberships += 1 + plannedHub.members.length;
    for (const post of plannedHub.posts) {
      const input = NewPostBody.parse({ title: post.title, content: post.content, description: post.description, hubId });
      const { id: postId } = await trx
        .insertInto("Post")
        .values({
          title: input.title,
          content: input.content,
          description: input.description ?? "",
          date: post.date,
          likes: post.likers.length,
          authorId: userId(post.author),
          hubId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.posts.set(post.title, postId);
      counts.posts++;
      if (post.likers.length === 0) continue;
      await trx
        .insertInto("PostLike")
        .values(post.likers.map((liker) => ({ userId: userId(liker), postId })))
        .execute();
      counts.postLikes += post.likers.length;
    }
  }

  for (const plannedSeries of plan.series) {
    const authorId = userId(plannedSeries.author);
    const input = SeriesBody.parse({
      name: plannedSeries.name,
      description: plannedSeries.description,
      profileImageId: imageId(imageKey.seriesLogo(plannedSeries.name)),
      profileBannerId: imageId(imageKey.seriesBanner(plannedSeries.name)),
      tags: plannedSeries.tags,
      status: plannedSeries.status,
      contentRating: plannedSeries.contentRating,
      readingDirection: plannedSeries.readingDirection,
    });
    const { id: seriesId } = await trx
      .insertInto("Series")
      .values({
        name: input.name,
        nameKey: nameKey(input.name),
        description: input.description ?? "",
        profileImageId: input.profileImageId ?? null,
        profileBannerId: input.profileBannerId ?? null,
        followersCount: plannedSeries.followers.length,
        chapterCount: plannedSeries.chapters.length,
        authorId,
        createdAt: plannedSeries.createdAt,
        tags: JSON.stringify(input.tags),
        status: input.status,
        contentRating: input.contentRating,
        readingDirection: input.readingDirection,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.tags.length > 0)
      await trx
        .insertInto("SeriesTag")
        .values(input.tags.map((tag) => ({ seriesId, tag })))
        .execute();
    ids.series.set(plannedSeries.name, seriesId);
    counts.series++;
    if (plannedSeries.followers.length > 0)
      await trx
        .insertInto("Follow")
        .values(plannedSeries.followers.map((follower) => ({ userId: userId(follower.username), seriesId, createdAt: follower.at })))
        .execute();
    counts.follows += plannedSeries.followers.length;
    for (const chapter of plannedSeries.chapters) {
      const input = NewChapterBody.parse({
        title: chapter.title,
        description: chapter.description,
        content: chapter.notes,
        coverId: imageId(imageKey.cover(plannedSeries.name, chapter.number)),
        pages: Array.from({ length: chapter.pageCount }, (_, i) => imageId(imageKey.page(plannedSeries.name, chapter.number, i + 1))),
      });
      const { id: chapterId } = await trx
        .insertInto("Chapter")
        .values({
          seriesId,
          number: chapter.number,
          title: input.title,
          description: input.description ?? "",
          content: input.content ?? "",
          likes: chapter.likers.length,
          date: chapter.date,
          coverId: input.coverId ?? input.pages[0]!,
          authorId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("ChapterPage")
        .values(input.pages.map((imageId, position) => ({ chapterId, position, imageId })))
        .execute();
      ids.chapters.set(chapterKey(plannedSeries.name, chapter.number), chapterId);
      counts.chapters++;
      counts.chapterPages += input.pages.length;
      if (chapter.likers.length === 0) continue;
      await trx
        .insertInto("ChapterLike")
        .values(chapter.likers.map((liker) => ({ userId: userId(liker), chapterId })))
        .execute();
      counts.chapterLikes += chapter.likers.length;
    }
  }
  await recordImageUses(trx);
  const written = { user: userId, ...ids };
  const discussionCounts = await writeDemoDiscussion(trx, db, plan, discussion, written);
  await writeDemoModeration(trx, plan, written);
  return { ...counts, ...discussionCounts };
}

/** The image uses of what was written above (seed/image-uses.ts). */
async function recordImageUses(trx: Executor): Promise<void> {
  for (const [type, table, column, id] of IMAGE_USE_COLUMNS) {
    await sql`INSERT INTO "ImageUse" ("userType", "userId", "imageId")
      SELECT ${sql.lit(type)}, ${sql.ref(id)}, ${sql.ref(column)} FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL
      ON CONFLICT DO NOTHING`.execute(trx);
  }
}
