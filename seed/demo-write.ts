import type { Database } from "../server/db/database.ts";
import { prepare } from "../server/db/sql.ts";
import { createChapterLikeService } from "../server/chapters/chapter-likes.service.ts";
import { createChapterService } from "../server/chapters/chapters.service.ts";
import { createHubService } from "../server/hubs/hubs.service.ts";
import { createMembershipService } from "../server/hubs/membership.service.ts";
import { createPostLikeService } from "../server/posts/post-likes.service.ts";
import { createPostService } from "../server/posts/posts.service.ts";
import { RegisterBody } from "../server/rules/auth.ts";
import { NewChapterBody } from "../server/rules/chapter.ts";
import { HubBody } from "../server/rules/hub.ts";
import { NewPostBody } from "../server/rules/post.ts";
import { SeriesBody } from "../server/rules/series.ts";
import { createFollowService } from "../server/series/follows.service.ts";
import { createSeriesService } from "../server/series/series.service.ts";
import { DEMO_PASSWORD } from "./content/users.ts";
import { imageKey, type OwnedImage } from "./demo-images.ts";
import type { DemoPlan } from "./demo-plan.ts";
import { imageRowInserter } from "./image-store.ts";
import { noRows, type RowCounts } from "./row-counts.ts";

/**
 * Writes the planned demo in ONE transaction, through the API's own services (validation,
 * ownership, membership and every counter stay right), then moves each row's date to the one
 * the plan gave it: the services stamp "now", the demo needs months of history.
 *
 * Users are inserted directly (registering is async and would hash the password once per user);
 * their input still goes through the registration schema.
 */
export function writeDemo(db: Database, plan: DemoPlan, images: Map<string, OwnedImage>, passwordHash: string): RowCounts {
  const { sqlite } = db;
  const hubs = createHubService(db);
  const membership = createMembershipService(db);
  const posts = createPostService(db);
  const postLikes = createPostLikeService(db);
  const series = createSeriesService(db);
  const follows = createFollowService(db);
  const chapters = createChapterService(db);
  const chapterLikes = createChapterLikeService(db);

  const sql = {
    insertUser: prepare(
      sqlite,
      "INSERT INTO User (username, usernameKey, email, emailKey, passwordHash, joinedAt) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    userImages: prepare(sqlite, "UPDATE User SET profileImageId = ?, profileBannerId = ? WHERE id = ?"),
    hubDate: prepare(sqlite, "UPDATE Hub SET createdAt = ? WHERE id = ?"),
    membershipDate: prepare(sqlite, "UPDATE Membership SET createdAt = ? WHERE userId = ? AND hubId = ?"),
    postDate: prepare(sqlite, "UPDATE Post SET date = ? WHERE id = ?"),
    seriesDate: prepare(sqlite, "UPDATE Series SET createdAt = ? WHERE id = ?"),
    followDate: prepare(sqlite, "UPDATE Follow SET createdAt = ? WHERE userId = ? AND seriesId = ?"),
    chapterDate: prepare(sqlite, "UPDATE Chapter SET date = ? WHERE id = ?"),
  };
  const insertImage = imageRowInserter(sqlite);

  const counts = noRows();
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

  const write = sqlite.transaction(() => {
    for (const user of plan.users) {
      const input = RegisterBody.parse({ username: user.username, email: user.email, password: DEMO_PASSWORD });
      const { lastInsertRowid } = sql.insertUser.run(
        input.username,
        input.username.toLowerCase(),
        input.email,
        input.email.toLowerCase(),
        passwordHash,
        user.joinedAt,
      );
      userIds.set(user.username, Number(lastInsertRowid));
      counts.users++;
    }
    for (const { image, owner } of images.values()) {
      insertImage(image, userId(owner));
      counts.images++;
    }
    for (const user of plan.users) {
      sql.userImages.run(imageId(imageKey.avatar(user.username)), imageId(imageKey.userBanner(user.username)), userId(user.username));
    }

    for (const plannedHub of plan.hubs) {
      const ownerId = userId(plannedHub.owner);
      const input = HubBody.parse({
        name: plannedHub.name,
        description: plannedHub.description,
        profileImageId: imageId(imageKey.hubLogo(plannedHub.name)),
        profileBannerId: imageId(imageKey.hubBanner(plannedHub.name)),
      });
      const hubId = hubs.create(input, ownerId).id;
      sql.hubDate.run(plannedHub.createdAt, hubId);
      sql.membershipDate.run(plannedHub.createdAt, ownerId, hubId);
      counts.hubs++;
      counts.memberships++;
      for (const member of plannedHub.members) {
        membership.join(userId(member.username), hubId);
        sql.membershipDate.run(member.at, userId(member.username), hubId);
        counts.memberships++;
      }
      for (const post of plannedHub.posts) {
        const input = NewPostBody.parse({ title: post.title, content: post.content, description: post.description, hubId });
        const postId = posts.create(input, userId(post.author)).id;
        sql.postDate.run(post.date, postId);
        counts.posts++;
        for (const liker of post.likers) {
          postLikes.like(userId(liker), hubId, postId);
          counts.postLikes++;
        }
      }
    }

    for (const plannedSeries of plan.series) {
      const authorId = userId(plannedSeries.author);
      const input = SeriesBody.parse({
        name: plannedSeries.name,
        description: plannedSeries.description,
        profileImageId: imageId(imageKey.seriesLogo(plannedSeries.name)),
        profileBannerId: imageId(imageKey.seriesBanner(plannedSeries.name)),
      });
      const created = series.create(input, authorId);
      sql.seriesDate.run(plannedSeries.createdAt, created.id);
      counts.series++;
      for (const follower of plannedSeries.followers) {
        follows.follow(userId(follower.username), created.id);
        sql.followDate.run(follower.at, userId(follower.username), created.id);
        counts.follows++;
      }
      const ref = { id: created.id, authorId, name: created.name };
      for (const chapter of plannedSeries.chapters) {
        const pages = Array.from({ length: chapter.pageCount }, (_, i) =>
          imageId(imageKey.page(plannedSeries.name, chapter.number, i + 1)),
        );
        const input = NewChapterBody.parse({
          title: chapter.title,
          description: chapter.description,
          content: chapter.notes,
          coverId: imageId(imageKey.cover(plannedSeries.name, chapter.number)),
          pages,
        });
        const published = chapters.publish(ref, input, authorId);
        if (published.number !== chapter.number)
          throw new Error(`Chapter ${chapter.number} of ${plannedSeries.name} got number ${published.number}`);
        sql.chapterDate.run(chapter.date, published.id);
        counts.chapters++;
        counts.chapterPages += pages.length;
        for (const liker of chapter.likers) {
          chapterLikes.like(userId(liker), published.id);
          counts.chapterLikes++;
        }
      }
    }
  });
  write();
  return counts;
}
