-- Removal by moderators (docs/decisions/018-governance.md "Removal keeps the place"): a removed post,
-- comment, chapter, series or hub keeps its row and its place in every list; these say when, why and by whom.
-- Added with ALTER TABLE (nullable, no default to write): no copy of the large tables.
ALTER TABLE "Post" ADD COLUMN "removedAt" BIGINT, ADD COLUMN "removedReason" TEXT, ADD COLUMN "removedById" INTEGER;
ALTER TABLE "Post" ADD CONSTRAINT "Post_removedById_fkey" FOREIGN KEY ("removedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Comment" ADD COLUMN "removedAt" BIGINT, ADD COLUMN "removedReason" TEXT, ADD COLUMN "removedById" INTEGER;
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_removedById_fkey" FOREIGN KEY ("removedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Chapter" ADD COLUMN "removedAt" BIGINT, ADD COLUMN "removedReason" TEXT, ADD COLUMN "removedById" INTEGER;
ALTER TABLE "Chapter" ADD CONSTRAINT "Chapter_removedById_fkey" FOREIGN KEY ("removedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Series" ADD COLUMN "removedAt" BIGINT, ADD COLUMN "removedReason" TEXT, ADD COLUMN "removedById" INTEGER;
ALTER TABLE "Series" ADD CONSTRAINT "Series_removedById_fkey" FOREIGN KEY ("removedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Hub" ADD COLUMN "removedAt" BIGINT, ADD COLUMN "removedReason" TEXT, ADD COLUMN "removedById" INTEGER;
ALTER TABLE "Hub" ADD CONSTRAINT "Hub_removedById_fkey" FOREIGN KEY ("removedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Deleting an account sets its removals' removedById to null: found by these small partial indexes (only removed rows),
-- not by a scan of every post and comment. Prisma's schema language cannot say "WHERE", so they are written here.
CREATE INDEX "Post_removedById_idx" ON "Post"("removedById") WHERE "removedById" IS NOT NULL;
CREATE INDEX "Comment_removedById_idx" ON "Comment"("removedById") WHERE "removedById" IS NOT NULL;
CREATE INDEX "Chapter_removedById_idx" ON "Chapter"("removedById") WHERE "removedById" IS NOT NULL;
CREATE INDEX "Series_removedById_idx" ON "Series"("removedById") WHERE "removedById" IS NOT NULL;
CREATE INDEX "Hub_removedById_idx" ON "Hub"("removedById") WHERE "removedById" IS NOT NULL;
