-- The totals of the hub and series lists (docs/decisions/016-row-counts.md): a row per table, kept by triggers
-- in the same transaction as every insert and delete, whoever writes (the API, the seeds, copy-site).
-- Statement-level triggers with transition tables: one UPDATE per statement, so copy-site's batch INSERTs of
-- thousands of rows move the count once each. Concurrent creates wait on the count's row lock until commit.
CREATE TABLE "RowCount" (
    "tableName" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,

    CONSTRAINT "RowCount_pkey" PRIMARY KEY ("tableName")
);

INSERT INTO "RowCount" ("tableName", "rows") VALUES ('Hub', (SELECT COUNT(*) FROM "Hub"));
INSERT INTO "RowCount" ("tableName", "rows") VALUES ('Series', (SELECT COUNT(*) FROM "Series"));

CREATE FUNCTION "count_rows_added"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_rows integer;
BEGIN
  SELECT COUNT(*) INTO added_rows FROM added;
  IF added_rows > 0 THEN
    UPDATE "RowCount" SET "rows" = "rows" + added_rows WHERE "tableName" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "count_rows_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed_rows integer;
BEGIN
  SELECT COUNT(*) INTO removed_rows FROM removed;
  IF removed_rows > 0 THEN
    UPDATE "RowCount" SET "rows" = "rows" - removed_rows WHERE "tableName" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Hub_count_insert" AFTER INSERT ON "Hub" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_rows_added"();
CREATE TRIGGER "Hub_count_delete" AFTER DELETE ON "Hub" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_rows_removed"();
CREATE TRIGGER "Series_count_insert" AFTER INSERT ON "Series" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_rows_added"();
CREATE TRIGGER "Series_count_delete" AFTER DELETE ON "Series" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_rows_removed"();
