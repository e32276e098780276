-- Image safety (docs/decisions/009-image-safety.md).
-- publishedAt: null while nothing published references the image (visible to its uploader only).
-- Every image that exists before this migration was already served to anyone: it stays public.
ALTER TABLE "Image" ADD COLUMN "publishedAt" DATETIME;
UPDATE "Image" SET "publishedAt" = "createdAt";

-- fileKey: the upload's file name in images/incoming/ while it is moved into place; older rows have none.
ALTER TABLE "Image" ADD COLUMN "fileKey" TEXT;
CREATE UNIQUE INDEX "Image_fileKey_key" ON "Image"("fileKey");

-- Covers the per-user quota sum.
CREATE INDEX "Image_authorId_size_idx" ON "Image"("authorId", "size");
