-- Blocks (docs/decisions/018-governance.md "Blocks"): a user blocks another; the blocked user's posts
-- and comments leave the blocker's lists. User.blockCount is moved in the transaction of each block and unblock, so a
-- viewer without blocks (0, the usual case) runs the lists' plain queries. Added with ALTER TABLE (a constant default):
-- no copy of User.
ALTER TABLE "User" ADD COLUMN "blockCount" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Block" (
    "userId" INTEGER NOT NULL,
    "blockedId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "blockedId"),
    CONSTRAINT "Block_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Block_blockedId_fkey" FOREIGN KEY ("blockedId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Block_blockedId_idx" ON "Block"("blockedId");

-- CreateIndex
CREATE INDEX "Block_userId_createdAt_blockedId_idx" ON "Block"("userId", "createdAt" DESC, "blockedId" DESC);

-- A blocker's `hidden` count of a hub's posts (Block JOIN Post ON authorId, filtered by hubId) reads only this index;
-- it replaces the index on authorId alone, whose other readers it serves as well.
DROP INDEX "Post_authorId_idx";

-- CreateIndex
CREATE INDEX "Post_authorId_hubId_idx" ON "Post"("authorId", "hubId");
