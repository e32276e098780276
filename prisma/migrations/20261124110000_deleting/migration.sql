-- Deleting posts, chapters, series and hubs (docs/api.md §15, docs/decisions/018-governance.md).
-- ImageUse: which rows use which images (logos, banners, avatars, covers, pages, and images embedded in markdown),
-- written where the images are published, so "does anything else use this image" is one indexed lookup. Uses are
-- only added (an edit that drops an image keeps its use until the row goes): a stale use keeps an image, never loses one.
CREATE TABLE "ImageUse" (
    "userType" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "imageId" INTEGER NOT NULL,

    PRIMARY KEY ("userType", "userId", "imageId")
);
CREATE INDEX "ImageUse_imageId_idx" ON "ImageUse"("imageId");

-- Images a deletion left without the uses it removed: the image-release job deletes those that nothing uses any
-- more (files, then rows) after the commit.
CREATE TABLE "ImageRelease" (
    "imageId" INTEGER NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL
);

-- A deletion removes the notifications about what it removes, found by these.
CREATE INDEX "Notification_postId_idx" ON "Notification"("postId");
CREATE INDEX "Notification_seriesId_idx" ON "Notification"("seriesId");
CREATE INDEX "Notification_hubId_idx" ON "Notification"("hubId");

-- Backfill. Structured references first.
INSERT OR IGNORE INTO "ImageUse" SELECT 'user', "id", "profileImageId" FROM "User" WHERE "profileImageId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'user', "id", "profileBannerId" FROM "User" WHERE "profileBannerId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'hub', "id", "profileImageId" FROM "Hub" WHERE "profileImageId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'hub', "id", "profileBannerId" FROM "Hub" WHERE "profileBannerId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'series', "id", "profileImageId" FROM "Series" WHERE "profileImageId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'series', "id", "profileBannerId" FROM "Series" WHERE "profileBannerId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'chapter', "id", "coverId" FROM "Chapter" WHERE "coverId" IS NOT NULL;
INSERT OR IGNORE INTO "ImageUse" SELECT 'chapter', "chapterId", "imageId" FROM "ChapterPage";

-- Then every `/images/{id}` in markdown (server/images/image-refs.ts), walked with instr: CAST takes the digits that
-- start the rest, so `/images/12/x` counts too (a few extra uses keep an image; they never lose one).
WITH RECURSIVE "scan"("userType", "userId", "rest") AS (
  SELECT 'post', "id", substr("content", instr("content", '/images/') + 8) FROM "Post" WHERE instr("content", '/images/') > 0
  UNION ALL
  SELECT 'comment', "id", substr("content", instr("content", '/images/') + 8) FROM "Comment" WHERE instr("content", '/images/') > 0
  UNION ALL
  SELECT 'chapter', "id", substr("content", instr("content", '/images/') + 8) FROM "Chapter" WHERE instr("content", '/images/') > 0
  UNION ALL
  SELECT "userType", "userId", substr("rest", instr("rest", '/images/') + 8) FROM "scan" WHERE instr("rest", '/images/') > 0
)
INSERT OR IGNORE INTO "ImageUse" SELECT "userType", "userId", CAST("rest" AS INTEGER) FROM "scan" WHERE CAST("rest" AS INTEGER) > 0;
