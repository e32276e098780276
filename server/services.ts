import type { AuthConfig } from "./auth/auth.service.ts";
import { createAuthService } from "./auth/auth.service.ts";
import { createChapterLikeService } from "./chapters/chapter-likes.service.ts";
import { createChapterService } from "./chapters/chapters.service.ts";
import type { Database } from "./db/database.ts";
import { createHubService } from "./hubs/hubs.service.ts";
import { createMembershipService } from "./hubs/membership.service.ts";
import { imagesDir } from "./images/image-tidy.ts";
import { createImageService } from "./images/images.service.ts";
import { createPostLikeService } from "./posts/post-likes.service.ts";
import { createPostService } from "./posts/posts.service.ts";
import { createFollowService } from "./series/follows.service.ts";
import { createSeriesService } from "./series/series.service.ts";
import { createUserService } from "./users/users.service.ts";

export interface ServiceConfig extends AuthConfig {
  dataDir: string;
  /** Bytes of images each user may store; default 2 GB. */
  uploadQuotaBytes?: number;
  /** Image resizes at once and waiting (default 2 and 8); beyond them `?w=` gets the original. */
  imageResizeLimits?: { running: number; queued: number };
}

export type Services = ReturnType<typeof createServices>;

export function createServices(db: Database, config: ServiceConfig) {
  return {
    auth: createAuthService(db, config),
    users: createUserService(db),
    hubs: createHubService(db),
    membership: createMembershipService(db),
    posts: createPostService(db),
    postLikes: createPostLikeService(db),
    series: createSeriesService(db),
    follows: createFollowService(db),
    chapters: createChapterService(db),
    chapterLikes: createChapterLikeService(db),
    images: createImageService(db, imagesDir(config.dataDir), {
      quotaBytes: config.uploadQuotaBytes,
      resizeLimits: config.imageResizeLimits,
    }),
  };
}
