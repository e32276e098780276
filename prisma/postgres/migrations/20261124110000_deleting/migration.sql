-- Deleting posts, chapters, series and hubs (docs/api.md §15, docs/decisions/018-governance.md).
-- ImageUse: which rows use which images (logos, banners, avatars, covers, pages, and images embedded in markdown),
-- written where the images are published, so "does anything else use this image" is one indexed lookup. Uses are
-- only added (an edit that drops an image keeps its use until the row goes): a stale use keeps an image, never loses one.
CREATE TABLE "ImageUse" (
    "userType" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "imageId" INTEGER NOT NULL,

    CONSTRAINT "ImageUse_pkey" PRIMARY KEY ("userType", "userId", "imageId")
);
CREATE INDEX "ImageUse_imageId_idx" ON "ImageUse"("imageId");

-- Images a deletion left without the uses it removed: the image-release job deletes those that nothing uses any
-- more (files, then rows) after the commit.
CREATE TABLE "ImageRelease" (
    "imageId" INTEGER NOT NULL,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "ImageRelease_pkey" PRIMARY KEY ("imageId")
);

-- A deletion removes the notifications about what it removes, found by these.
CREATE INDEX "Notification_postId_idx" ON "Notification"("postId");
CREATE INDEX "Notification_seriesId_idx" ON "Notification"("seriesId");
CREATE INDEX "Notification_hubId_idx" ON "Notification"("hubId");

-- Backfill. Structured references first.
INSERT INTO "ImageUse" SELECT 'user', "id", "profileImageId" FROM "User" WHERE "profileImageId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'user', "id", "profileBannerId" FROM "User" WHERE "profileBannerId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'hub', "id", "profileImageId" FROM "Hub" WHERE "profileImageId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'hub', "id", "profileBannerId" FROM "Hub" WHERE "profileBannerId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'series', "id", "profileImageId" FROM "Series" WHERE "profileImageId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'series', "id", "profileBannerId" FROM "Series" WHERE "profileBannerId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'chapter', "id", "coverId" FROM "Chapter" WHERE "coverId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ImageUse" SELECT 'chapter', "chapterId", "imageId" FROM "ChapterPage" ON CONFLICT DO NOTHING;

-- Then every `/images/{id}` in markdown (server/images/image-refs.ts). The pattern also takes `/images/12/x`: a few
-- extra uses keep an image; they never lose one.
INSERT INTO "ImageUse"
  SELECT DISTINCT t."userType", t."userId", m[1]::bigint::integer FROM (
    SELECT 'post' AS "userType", "id" AS "userId", "content" FROM "Post" WHERE strpos("content", '/images/') > 0
    UNION ALL SELECT 'comment', "id", "content" FROM "Comment" WHERE strpos("content", '/images/') > 0
    UNION ALL SELECT 'chapter', "id", "content" FROM "Chapter" WHERE strpos("content", '/images/') > 0
  ) t, regexp_matches(t."content", '/images/([1-9][0-9]{0,8})', 'g') AS m
  ON CONFLICT DO NOTHING;
