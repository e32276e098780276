-- Substring search on hub and series names (docs/decisions/014-data-layer.md): trigram GIN indexes over the
-- already case-folded name keys, used by `"nameKey" LIKE '%text%'` for text of three characters or more.
-- Written by hand: Prisma's schema language cannot name the operator class without a preview feature.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Hub_nameKey_trgm_idx" ON "Hub" USING gin ("nameKey" gin_trgm_ops);
CREATE INDEX "Series_nameKey_trgm_idx" ON "Series" USING gin ("nameKey" gin_trgm_ops);
