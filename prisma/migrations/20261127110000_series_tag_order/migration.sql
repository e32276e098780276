-- The tag filters' cost grows with the page, not the table (issue 15, docs/decisions/019-reading-and-discovery.md):
-- each SeriesTag row carries its series' sort keys and filters, so a tag's list is read in order from an index
-- and stops at the page's end; SeriesTagCount holds how many series carry each tag per rating and status, and
-- SeriesTagPairCount each pair of tags, so a one- or two-tag total is a few rows. Triggers keep both in step in the same transaction as every write to SeriesTag
-- and Series, whoever writes (the API, the seeds, copy-site). Columns are added with constant defaults (no rebuild).
ALTER TABLE "SeriesTag" ADD COLUMN "createdAt" DATETIME NOT NULL DEFAULT 0;
ALTER TABLE "SeriesTag" ADD COLUMN "followersCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "SeriesTag" ADD COLUMN "lastChapterAt" DATETIME;
ALTER TABLE "SeriesTag" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'ongoing';
ALTER TABLE "SeriesTag" ADD COLUMN "contentRating" TEXT NOT NULL DEFAULT 'general';

UPDATE "SeriesTag" SET ("createdAt", "followersCount", "lastChapterAt", "status", "contentRating") = (
  SELECT s."createdAt", s."followersCount", s."lastChapterAt", s."status", s."contentRating" FROM "Series" s WHERE s."id" = "SeriesTag"."seriesId"
);

-- CreateTable
CREATE TABLE "SeriesTagCount" (
    "tag" TEXT NOT NULL,
    "contentRating" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,

    PRIMARY KEY ("tag", "contentRating", "status")
);

INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
  SELECT "tag", "contentRating", "status", COUNT(*) FROM "SeriesTag" GROUP BY "tag", "contentRating", "status";

-- CreateTable: the same per pair of tags (the first before the other), for the two-tag lists.
CREATE TABLE "SeriesTagPairCount" (
    "tag" TEXT NOT NULL,
    "otherTag" TEXT NOT NULL,
    "contentRating" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,

    PRIMARY KEY ("tag", "otherTag", "contentRating", "status")
);

INSERT INTO "SeriesTagPairCount" ("tag", "otherTag", "contentRating", "status", "rows")
  SELECT a."tag", b."tag", a."contentRating", a."status", COUNT(*) FROM "SeriesTag" a
  JOIN "SeriesTag" b ON b."seriesId" = a."seriesId" AND a."tag" < b."tag"
  GROUP BY a."tag", b."tag", a."contentRating", a."status";

-- DropIndex: the three below start with the tag and hold the series id.
DROP INDEX "SeriesTag_tag_seriesId_idx";

-- CreateIndex: one per sort (docs/api.md "Series metadata and browsing"), ending with the filters so a page is read from the index alone.
CREATE INDEX "SeriesTag_tag_createdAt_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "createdAt" DESC, "seriesId" DESC, "contentRating", "status");
CREATE INDEX "SeriesTag_tag_followersCount_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "followersCount" DESC, "seriesId" DESC, "contentRating", "status");
CREATE INDEX "SeriesTag_tag_lastChapterAt_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "lastChapterAt" DESC, "seriesId" DESC, "contentRating", "status");

-- A new row takes its series' values (writers name only the series and the tag) and is counted with them.
CREATE TRIGGER "SeriesTag_insert" AFTER INSERT ON "SeriesTag" BEGIN
  UPDATE "SeriesTag" SET ("createdAt", "followersCount", "lastChapterAt", "status", "contentRating") = (
    SELECT s."createdAt", s."followersCount", s."lastChapterAt", s."status", s."contentRating" FROM "Series" s WHERE s."id" = NEW."seriesId"
  ) WHERE "seriesId" = NEW."seriesId" AND "tag" = NEW."tag";
  INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
    SELECT NEW."tag", s."contentRating", s."status", 1 FROM "Series" s WHERE s."id" = NEW."seriesId"
    ON CONFLICT ("tag", "contentRating", "status") DO UPDATE SET "rows" = "rows" + 1;
END;
-- A tag edit and a series' delete (by cascade) remove rows.
CREATE TRIGGER "SeriesTag_delete" AFTER DELETE ON "SeriesTag" BEGIN
  UPDATE "SeriesTagCount" SET "rows" = "rows" - 1
  WHERE "tag" = OLD."tag" AND "contentRating" = OLD."contentRating" AND "status" = OLD."status";
END;
-- A series' new followers, chapters, status or rating reach its tags' rows; a new status or rating moves the counts.
CREATE TRIGGER "Series_tag_counts_update" AFTER UPDATE OF "status", "contentRating" ON "Series"
WHEN OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating" BEGIN
  UPDATE "SeriesTagCount" SET "rows" = "rows" - 1
  WHERE "contentRating" = OLD."contentRating" AND "status" = OLD."status"
    AND "tag" IN (SELECT t."tag" FROM "SeriesTag" t WHERE t."seriesId" = NEW."id");
  INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
    SELECT t."tag", NEW."contentRating", NEW."status", 1 FROM "SeriesTag" t WHERE t."seriesId" = NEW."id"
    ON CONFLICT ("tag", "contentRating", "status") DO UPDATE SET "rows" = "rows" + 1;
END;
CREATE TRIGGER "Series_tag_rows_update" AFTER UPDATE OF "createdAt", "followersCount", "lastChapterAt", "status", "contentRating" ON "Series"
WHEN OLD."createdAt" <> NEW."createdAt" OR OLD."followersCount" <> NEW."followersCount"
  OR OLD."lastChapterAt" IS NOT NEW."lastChapterAt" OR OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating" BEGIN
  UPDATE "SeriesTag" SET "createdAt" = NEW."createdAt", "followersCount" = NEW."followersCount", "lastChapterAt" = NEW."lastChapterAt",
    "status" = NEW."status", "contentRating" = NEW."contentRating"
  WHERE "seriesId" = NEW."id";
END;
-- The pairs follow the series' tag list (the JSON column, written in the same transaction as its SeriesTag rows).
CREATE TRIGGER "Series_tag_pairs_insert" AFTER INSERT ON "Series" WHEN NEW."tags" <> '[]' BEGIN
  INSERT INTO "SeriesTagPairCount" ("tag", "otherTag", "contentRating", "status", "rows")
    SELECT a."value", b."value", NEW."contentRating", NEW."status", 1 FROM json_each(NEW."tags") a JOIN json_each(NEW."tags") b ON a."value" < b."value"
    WHERE true
    ON CONFLICT ("tag", "otherTag", "contentRating", "status") DO UPDATE SET "rows" = "rows" + 1;
END;
CREATE TRIGGER "Series_tag_pairs_delete" AFTER DELETE ON "Series" WHEN OLD."tags" <> '[]' BEGIN
  UPDATE "SeriesTagPairCount" SET "rows" = "rows" - 1
  WHERE "contentRating" = OLD."contentRating" AND "status" = OLD."status"
    AND ("tag", "otherTag") IN (SELECT a."value", b."value" FROM json_each(OLD."tags") a JOIN json_each(OLD."tags") b ON a."value" < b."value");
END;
CREATE TRIGGER "Series_tag_pairs_update" AFTER UPDATE OF "tags", "status", "contentRating" ON "Series"
WHEN OLD."tags" <> NEW."tags" OR OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating" BEGIN
  UPDATE "SeriesTagPairCount" SET "rows" = "rows" - 1
  WHERE "contentRating" = OLD."contentRating" AND "status" = OLD."status"
    AND ("tag", "otherTag") IN (SELECT a."value", b."value" FROM json_each(OLD."tags") a JOIN json_each(OLD."tags") b ON a."value" < b."value");
  INSERT INTO "SeriesTagPairCount" ("tag", "otherTag", "contentRating", "status", "rows")
    SELECT a."value", b."value", NEW."contentRating", NEW."status", 1 FROM json_each(NEW."tags") a JOIN json_each(NEW."tags") b ON a."value" < b."value"
    WHERE true
    ON CONFLICT ("tag", "otherTag", "contentRating", "status") DO UPDATE SET "rows" = "rows" + 1;
END;
