-- Series metadata and browsing (docs/api.md "Series metadata and browsing"): tags, status, content
-- rating, reading direction and the date of the newest live chapter; the user's showMature setting. Columns with
-- constant defaults (no table rewrite).
ALTER TABLE "User" ADD COLUMN "showMature" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Series" ADD COLUMN "tags" TEXT NOT NULL DEFAULT '[]',
  ADD COLUMN "status" TEXT NOT NULL DEFAULT 'ongoing',
  ADD COLUMN "contentRating" TEXT NOT NULL DEFAULT 'general',
  ADD COLUMN "readingDirection" TEXT NOT NULL DEFAULT 'vertical',
  ADD COLUMN "lastChapterAt" BIGINT;

-- Existing series: the newest live chapter's date.
UPDATE "Series" SET "lastChapterAt" = (
  SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = "Series"."id" AND c."removedReason" IS NULL
);

-- CreateTable
CREATE TABLE "SeriesTag" (
    "seriesId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "SeriesTag_pkey" PRIMARY KEY ("seriesId","tag")
);

-- CreateIndex
CREATE INDEX "SeriesTag_tag_seriesId_idx" ON "SeriesTag"("tag", "seriesId");

-- CreateIndex: NULLS LAST (written by hand, Prisma's schema cannot say it), the order of sort=updated: never-updated last.
CREATE INDEX "Series_lastChapterAt_id_idx" ON "Series"("lastChapterAt" DESC NULLS LAST, "id" DESC);

-- CreateIndex
CREATE INDEX "Series_contentRating_idx" ON "Series"("contentRating");

-- AddForeignKey
ALTER TABLE "SeriesTag" ADD CONSTRAINT "SeriesTag_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "Series"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- lastChapterAt follows the chapters in the same transaction as every write to them, whoever writes (the API's
-- publish, delete and removal, the seeds, copy-site): a new live chapter can only move it later; a delete, a
-- removal, a restore or a changed date reads the newest live chapter again (the index on seriesId, date).
CREATE FUNCTION "series_last_chapter"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."removedReason" IS NULL THEN
      UPDATE "Series" SET "lastChapterAt" = NEW."date"
      WHERE "id" = NEW."seriesId" AND ("lastChapterAt" IS NULL OR "lastChapterAt" < NEW."date");
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    UPDATE "Series" SET "lastChapterAt" = (
      SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = "Series"."id" AND c."removedReason" IS NULL
    ) WHERE "id" = OLD."seriesId";
  ELSE
    UPDATE "Series" SET "lastChapterAt" = (
      SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = "Series"."id" AND c."removedReason" IS NULL
    ) WHERE "id" IN (OLD."seriesId", NEW."seriesId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Chapter_lastChapterAt_insert" AFTER INSERT ON "Chapter"
  FOR EACH ROW EXECUTE FUNCTION "series_last_chapter"();
CREATE TRIGGER "Chapter_lastChapterAt_delete" AFTER DELETE ON "Chapter"
  FOR EACH ROW EXECUTE FUNCTION "series_last_chapter"();
CREATE TRIGGER "Chapter_lastChapterAt_update" AFTER UPDATE OF "date", "removedReason", "seriesId" ON "Chapter"
  FOR EACH ROW EXECUTE FUNCTION "series_last_chapter"();
