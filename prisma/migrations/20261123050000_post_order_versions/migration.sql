-- Versions of a hub's two post orders (docs/decisions/014-data-layer.md, "Page keys"): bumped in the same
-- transaction as a change that moves the order (a new post moves both, a like or unlike moves "by-likes"), read
-- with the page, so sort keys remembered for deep pages are never used after a change, on any instance.
ALTER TABLE "Hub" ADD COLUMN "postOrderVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Hub" ADD COLUMN "likeOrderVersion" INTEGER NOT NULL DEFAULT 0;
