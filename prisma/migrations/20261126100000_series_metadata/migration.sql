-- Series metadata and browsing (docs/api.md "Series metadata and browsing"): tags, status, content
-- rating, reading direction and the date of the newest live chapter; the user's showMature setting. Columns are
-- added with ALTER TABLE and constant defaults (no rebuild of Series or User on a large site).
ALTER TABLE "User" ADD COLUMN "showMature" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Series" ADD COLUMN "tags" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Series" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'ongoing';
ALTER TABLE "Series" ADD COLUMN "contentRating" TEXT NOT NULL DEFAULT 'general';
ALTER TABLE "Series" ADD COLUMN "readingDirection" TEXT NOT NULL DEFAULT 'vertical';
ALTER TABLE "Series" ADD COLUMN "lastChapterAt" DATETIME;

-- Existing series: the newest live chapter's date.
UPDATE "Series" SET "lastChapterAt" = (
  SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = "Series"."id" AND c."removedReason" IS NULL
);

-- CreateTable
CREATE TABLE "SeriesTag" (
    "seriesId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("seriesId", "tag"),
    CONSTRAINT "SeriesTag_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "Series" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "SeriesTag_tag_seriesId_idx" ON "SeriesTag"("tag", "seriesId");

-- CreateIndex
CREATE INDEX "Series_lastChapterAt_id_idx" ON "Series"("lastChapterAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Series_contentRating_idx" ON "Series"("contentRating");

-- lastChapterAt follows the chapters in the same transaction as every write to them, whoever writes (the API's
-- publish, delete and removal, the seeds): a new live chapter can only move it later; a delete, a removal, a restore
-- or a changed date reads the newest live chapter again (the index on seriesId, date).
CREATE TRIGGER "Chapter_lastChapterAt_insert" AFTER INSERT ON "Chapter" WHEN NEW."removedReason" IS NULL BEGIN
  UPDATE "Series" SET "lastChapterAt" = NEW."date"
  WHERE "id" = NEW."seriesId" AND ("lastChapterAt" IS NULL OR "lastChapterAt" < NEW."date");
END;
CREATE TRIGGER "Chapter_lastChapterAt_delete" AFTER DELETE ON "Chapter" BEGIN
  UPDATE "Series" SET "lastChapterAt" = (
    SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = OLD."seriesId" AND c."removedReason" IS NULL
  ) WHERE "id" = OLD."seriesId";
END;
CREATE TRIGGER "Chapter_lastChapterAt_update" AFTER UPDATE OF "date", "removedReason", "seriesId" ON "Chapter" BEGIN
  UPDATE "Series" SET "lastChapterAt" = (
    SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = "Series"."id" AND c."removedReason" IS NULL
  ) WHERE "id" IN (OLD."seriesId", NEW."seriesId");
END;
