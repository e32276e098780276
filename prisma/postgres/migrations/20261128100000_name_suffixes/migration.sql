-- Substring search on hub and series names from a B-tree of every name key's suffixes (docs/decisions/014-data-layer.md,
-- "The name search on PostgreSQL"). A name contains a text when one of its suffixes starts with it: one range of the
-- index, read without visiting the table (the pg_trgm index it replaces had to recheck every match in the table:
-- 2.5 of 2.7 ms for the 1,581 of 100,000 hub names that contain "lantern"). Kept by triggers; written by hand, like
-- SQLite's FTS5 name tables, because Prisma's schema language has no triggers.

-- The suffixes of three characters or more (a search of one or two characters scans the names with LIKE), each with
-- "repeatLength": the length of the longest start it shares with an earlier suffix of the same name. A text of length n
-- that a suffix starts with occurs earlier in the name when repeatLength >= n, so `"repeatLength" < n` keeps one row per
-- name: counts and pages need no DISTINCT. Longest common starts by dynamic programming over the characters, from the
-- end: common(i, j) = chars[i] = chars[j] ? common(i + 1, j + 1) + 1 : 0 (at most 100 × 100 steps: names are short).
CREATE FUNCTION "name_suffixes"(name_key TEXT) RETURNS TABLE ("suffix" TEXT, "repeatLength" INTEGER)
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  chars TEXT[] := string_to_array(name_key, NULL);
  n INTEGER := coalesce(array_length(chars, 1), 0);
  below INTEGER[] := array_fill(0, ARRAY[n + 1]);
  here INTEGER[];
  repeats INTEGER[] := array_fill(0, ARRAY[n + 1]);
BEGIN
  FOR i IN REVERSE n..1 LOOP
    here := array_fill(0, ARRAY[n + 1]);
    FOR j IN REVERSE n..i + 1 LOOP
      IF chars[i] = chars[j] THEN
        here[j] := below[j + 1] + 1;
        repeats[j] := greatest(repeats[j], here[j]);
      END IF;
    END LOOP;
    below := here;
  END LOOP;
  FOR p IN 1..n - 2 LOOP
    "suffix" := substr(name_key, p);
    "repeatLength" := repeats[p];
    RETURN NEXT;
  END LOOP;
END $$;

-- "C" collation: compared by code point, so the names starting with a text are one range, [text, the next string).
-- The index carries every column a search reads (index-only scans); the id index serves the triggers' deletes.
CREATE TABLE "HubNameSuffix" (
  "suffix" TEXT COLLATE "C" NOT NULL,
  "repeatLength" INTEGER NOT NULL,
  "createdAt" BIGINT NOT NULL,
  "id" INTEGER NOT NULL
);
CREATE TABLE "SeriesNameSuffix" (LIKE "HubNameSuffix");

-- Keeps a table's suffix rows (the table named by the trigger's argument) with its rows' name keys and dates.
CREATE FUNCTION "keep_name_suffixes"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    EXECUTE format('DELETE FROM %I WHERE "id" = $1', TG_ARGV[0]) USING OLD."id";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    EXECUTE format('INSERT INTO %I SELECT s."suffix", s."repeatLength", $1, $2 FROM "name_suffixes"($3) s', TG_ARGV[0])
      USING NEW."createdAt", NEW."id", NEW."nameKey";
  END IF;
  RETURN NULL;
END $$;

INSERT INTO "HubNameSuffix" SELECT s."suffix", s."repeatLength", h."createdAt", h."id" FROM "Hub" h, "name_suffixes"(h."nameKey") s;
INSERT INTO "SeriesNameSuffix" SELECT s."suffix", s."repeatLength", e."createdAt", e."id" FROM "Series" e, "name_suffixes"(e."nameKey") s;

CREATE INDEX "HubNameSuffix_suffix_idx" ON "HubNameSuffix" ("suffix") INCLUDE ("repeatLength", "createdAt", "id");
CREATE INDEX "HubNameSuffix_id_idx" ON "HubNameSuffix" ("id");
CREATE INDEX "SeriesNameSuffix_suffix_idx" ON "SeriesNameSuffix" ("suffix") INCLUDE ("repeatLength", "createdAt", "id");
CREATE INDEX "SeriesNameSuffix_id_idx" ON "SeriesNameSuffix" ("id");

CREATE TRIGGER "Hub_name_suffixes" AFTER INSERT OR DELETE OR UPDATE OF "nameKey", "createdAt" ON "Hub"
  FOR EACH ROW EXECUTE FUNCTION "keep_name_suffixes"('HubNameSuffix');
CREATE TRIGGER "Series_name_suffixes" AFTER INSERT OR DELETE OR UPDATE OF "nameKey", "createdAt" ON "Series"
  FOR EACH ROW EXECUTE FUNCTION "keep_name_suffixes"('SeriesNameSuffix');

-- No search uses the trigram indexes any more (a text too short for the suffixes has too few characters for trigrams).
DROP INDEX "Hub_nameKey_trgm_idx";
DROP INDEX "Series_nameKey_trgm_idx";
