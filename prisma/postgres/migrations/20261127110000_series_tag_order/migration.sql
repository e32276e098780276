-- The tag filters' cost grows with the page, not the table (issue 15, docs/decisions/019-reading-and-discovery.md):
-- each SeriesTag row carries its series' sort keys and filters, so a tag's list is read in order from an index
-- and stops at the page's end; SeriesTagCount holds how many series carry each tag per rating and status, and
-- SeriesTagPairCount each pair of tags, so a one- or two-tag total is a few rows. Triggers keep both in step in the same transaction as every write to SeriesTag
-- and Series, whoever writes (the API, the seeds, copy-site). Columns with constant defaults (no table rewrite).
ALTER TABLE "SeriesTag" ADD COLUMN "createdAt" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "followersCount" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "lastChapterAt" BIGINT,
  ADD COLUMN "status" TEXT NOT NULL DEFAULT 'ongoing',
  ADD COLUMN "contentRating" TEXT NOT NULL DEFAULT 'general';

UPDATE "SeriesTag" t SET "createdAt" = s."createdAt", "followersCount" = s."followersCount", "lastChapterAt" = s."lastChapterAt",
  "status" = s."status", "contentRating" = s."contentRating"
FROM "Series" s WHERE s."id" = t."seriesId";

-- CreateTable
CREATE TABLE "SeriesTagCount" (
    "tag" TEXT NOT NULL,
    "contentRating" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,

    CONSTRAINT "SeriesTagCount_pkey" PRIMARY KEY ("tag","contentRating","status")
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

    CONSTRAINT "SeriesTagPairCount_pkey" PRIMARY KEY ("tag","otherTag","contentRating","status")
);

INSERT INTO "SeriesTagPairCount" ("tag", "otherTag", "contentRating", "status", "rows")
  SELECT a."tag", b."tag", a."contentRating", a."status", COUNT(*) FROM "SeriesTag" a
  JOIN "SeriesTag" b ON b."seriesId" = a."seriesId" AND a."tag" < b."tag"
  GROUP BY a."tag", b."tag", a."contentRating", a."status";

-- DropIndex: the three below start with the tag and hold the series id.
DROP INDEX "SeriesTag_tag_seriesId_idx";

-- CreateIndex: one per sort (docs/api.md "Series metadata and browsing"), ending with the filters so a page is read from the index alone.
-- NULLS LAST written by hand (Prisma's schema cannot say it), the order of sort=updated.
CREATE INDEX "SeriesTag_tag_createdAt_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "createdAt" DESC, "seriesId" DESC, "contentRating", "status");
CREATE INDEX "SeriesTag_tag_followersCount_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "followersCount" DESC, "seriesId" DESC, "contentRating", "status");
CREATE INDEX "SeriesTag_tag_lastChapterAt_seriesId_contentRating_status_idx" ON "SeriesTag"("tag", "lastChapterAt" DESC NULLS LAST, "seriesId" DESC, "contentRating", "status");

-- A new row takes its series' values (writers name only the series and the tag).
CREATE FUNCTION "series_tag_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s."createdAt", s."followersCount", s."lastChapterAt", s."status", s."contentRating"
    INTO NEW."createdAt", NEW."followersCount", NEW."lastChapterAt", NEW."status", NEW."contentRating"
    FROM "Series" s WHERE s."id" = NEW."seriesId";
  RETURN NEW;
END $$;
CREATE TRIGGER "SeriesTag_fill" BEFORE INSERT ON "SeriesTag"
  FOR EACH ROW EXECUTE FUNCTION "series_tag_fill"();

-- The counts move once per statement (copy-site's batches of thousands of rows), the count rows in key order so two
-- writers never wait on each other in a circle; a removal adds a negative number to a row that exists.
CREATE FUNCTION "series_tag_counts_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
    SELECT "tag", "contentRating", "status", COUNT(*) FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("tag", "contentRating", "status") DO UPDATE SET "rows" = "SeriesTagCount"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;
CREATE FUNCTION "series_tag_counts_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
    SELECT "tag", "contentRating", "status", -COUNT(*) FROM removed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("tag", "contentRating", "status") DO UPDATE SET "rows" = "SeriesTagCount"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;
CREATE TRIGGER "SeriesTag_count_insert" AFTER INSERT ON "SeriesTag" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "series_tag_counts_added"();
-- A tag edit and a series' delete (by cascade) remove rows.
CREATE TRIGGER "SeriesTag_count_delete" AFTER DELETE ON "SeriesTag" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "series_tag_counts_removed"();

-- A series' new followers, chapters, status or rating reach its tags' rows; a new status or rating moves the counts.
CREATE FUNCTION "series_tag_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating" THEN
    INSERT INTO "SeriesTagCount" ("tag", "contentRating", "status", "rows")
      SELECT t."tag", v."contentRating", v."status", v."rows" FROM "SeriesTag" t
      CROSS JOIN (VALUES (OLD."contentRating", OLD."status", -1), (NEW."contentRating", NEW."status", 1)) v("contentRating", "status", "rows")
      WHERE t."seriesId" = NEW."id" ORDER BY 1, 2, 3
    ON CONFLICT ("tag", "contentRating", "status") DO UPDATE SET "rows" = "SeriesTagCount"."rows" + EXCLUDED."rows";
  END IF;
  UPDATE "SeriesTag" SET "createdAt" = NEW."createdAt", "followersCount" = NEW."followersCount", "lastChapterAt" = NEW."lastChapterAt",
    "status" = NEW."status", "contentRating" = NEW."contentRating"
  WHERE "seriesId" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "Series_tags_update" AFTER UPDATE OF "createdAt", "followersCount", "lastChapterAt", "status", "contentRating" ON "Series"
  FOR EACH ROW WHEN (OLD."createdAt" <> NEW."createdAt" OR OLD."followersCount" <> NEW."followersCount"
    OR OLD."lastChapterAt" IS DISTINCT FROM NEW."lastChapterAt" OR OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating")
  EXECUTE FUNCTION "series_tag_follow"();

-- The pairs follow the series' tag list (the JSON column, written in the same transaction as its SeriesTag rows): the
-- old pairs counted down, the new ones up, in key order.
CREATE FUNCTION "series_tag_pairs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SeriesTagPairCount" ("tag", "otherTag", "contentRating", "status", "rows")
    SELECT p."tag", p."otherTag", p."contentRating", p."status", SUM(p."rows") FROM (
      SELECT a."tag", b."tag" AS "otherTag", OLD."contentRating", OLD."status", -1 AS "rows"
        FROM jsonb_array_elements_text(OLD."tags"::jsonb) a("tag") JOIN jsonb_array_elements_text(OLD."tags"::jsonb) b("tag") ON a."tag" < b."tag"
        WHERE TG_OP <> 'INSERT'
      UNION ALL
      SELECT a."tag", b."tag", NEW."contentRating", NEW."status", 1
        FROM jsonb_array_elements_text(NEW."tags"::jsonb) a("tag") JOIN jsonb_array_elements_text(NEW."tags"::jsonb) b("tag") ON a."tag" < b."tag"
        WHERE TG_OP <> 'DELETE'
    ) p GROUP BY 1, 2, 3, 4 HAVING SUM(p."rows") <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("tag", "otherTag", "contentRating", "status") DO UPDATE SET "rows" = "SeriesTagPairCount"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;
CREATE TRIGGER "Series_tag_pairs_insert" AFTER INSERT ON "Series"
  FOR EACH ROW WHEN (NEW."tags" <> '[]') EXECUTE FUNCTION "series_tag_pairs"();
CREATE TRIGGER "Series_tag_pairs_delete" AFTER DELETE ON "Series"
  FOR EACH ROW WHEN (OLD."tags" <> '[]') EXECUTE FUNCTION "series_tag_pairs"();
CREATE TRIGGER "Series_tag_pairs_update" AFTER UPDATE OF "tags", "status", "contentRating" ON "Series"
  FOR EACH ROW WHEN (OLD."tags" <> NEW."tags" OR OLD."status" <> NEW."status" OR OLD."contentRating" <> NEW."contentRating")
  EXECUTE FUNCTION "series_tag_pairs"();
