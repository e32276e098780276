-- Site admins, hub moderators and the mod log (docs/api.md §14, docs/decisions/018-governance.md). User.isAdmin is 0 or
-- 1, an INTEGER on both engines so that both give the services the same value (a BOOLEAN reads as 0/1 on SQLite but
-- as true/false on PostgreSQL). It is added with ALTER TABLE (a constant default), not by rebuilding User: on a large
-- site that copy would hold the start.
ALTER TABLE "User" ADD COLUMN "isAdmin" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "HubModerator" (
    "hubId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "addedById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("hubId", "userId"),
    CONSTRAINT "HubModerator_hubId_fkey" FOREIGN KEY ("hubId") REFERENCES "Hub" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "HubModerator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "HubModerator_addedById_fkey" FOREIGN KEY ("addedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ModLogEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hubId" INTEGER,
    "action" TEXT NOT NULL,
    "moderatorId" INTEGER,
    "subjectType" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "subjectTitle" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ModLogEntry_moderatorId_fkey" FOREIGN KEY ("moderatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "HubModerator_userId_idx" ON "HubModerator"("userId");

-- CreateIndex
CREATE INDEX "ModLogEntry_hubId_createdAt_id_idx" ON "ModLogEntry"("hubId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ModLogEntry_createdAt_id_idx" ON "ModLogEntry"("createdAt", "id");
