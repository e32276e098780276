-- A kept count of each post's and chapter's top-level comments, tombstones included: a page of comments reads its
-- total from the place's row instead of counting 10,000 comments per request (docs/decisions/017-discussion.md).
-- ALTER TABLE with a constant default, then a backfill of the places that have comments (a tombstone stays only
-- while it has live replies, so every place with one has commentCount > 0).
ALTER TABLE "Post" ADD COLUMN "threadCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Chapter" ADD COLUMN "threadCount" INTEGER NOT NULL DEFAULT 0;
UPDATE "Post" SET "threadCount" = (SELECT COUNT(*) FROM "Comment" c WHERE c."postId" = "Post"."id" AND c."parentId" IS NULL)
  WHERE "commentCount" > 0;
UPDATE "Chapter" SET "threadCount" = (SELECT COUNT(*) FROM "Comment" c WHERE c."chapterId" = "Chapter"."id" AND c."parentId" IS NULL)
  WHERE "commentCount" > 0;
