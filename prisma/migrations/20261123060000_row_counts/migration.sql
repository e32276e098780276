-- The totals of the hub and series lists (docs/decisions/016-row-counts.md): a row per table, kept by triggers
-- in the same transaction as every insert and delete, whoever writes (the API, the seeds, copy-site).
CREATE TABLE "RowCount" (
    "tableName" TEXT NOT NULL PRIMARY KEY,
    "rows" INTEGER NOT NULL
);

INSERT INTO "RowCount" ("tableName", "rows") VALUES ('Hub', (SELECT COUNT(*) FROM "Hub"));
INSERT INTO "RowCount" ("tableName", "rows") VALUES ('Series', (SELECT COUNT(*) FROM "Series"));

CREATE TRIGGER "Hub_count_insert" AFTER INSERT ON "Hub" BEGIN
  UPDATE "RowCount" SET "rows" = "rows" + 1 WHERE "tableName" = 'Hub';
END;
CREATE TRIGGER "Hub_count_delete" AFTER DELETE ON "Hub" BEGIN
  UPDATE "RowCount" SET "rows" = "rows" - 1 WHERE "tableName" = 'Hub';
END;
CREATE TRIGGER "Series_count_insert" AFTER INSERT ON "Series" BEGIN
  UPDATE "RowCount" SET "rows" = "rows" + 1 WHERE "tableName" = 'Series';
END;
CREATE TRIGGER "Series_count_delete" AFTER DELETE ON "Series" BEGIN
  UPDATE "RowCount" SET "rows" = "rows" - 1 WHERE "tableName" = 'Series';
END;
