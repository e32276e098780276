-- Site admins, hub moderators and the mod log (docs/api.md §14, docs/decisions/018-governance.md). User.isAdmin is 0 or
-- 1, an INTEGER on both engines so that both give the services the same value (a BOOLEAN reads as 0/1 on SQLite but
-- as true/false on PostgreSQL). It is added with ALTER TABLE (a constant default: no rewrite of the table).
ALTER TABLE "User" ADD COLUMN "isAdmin" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "HubModerator" (
    "hubId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "addedById" INTEGER,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "HubModerator_pkey" PRIMARY KEY ("hubId","userId")
);

-- CreateTable
CREATE TABLE "ModLogEntry" (
    "id" SERIAL NOT NULL,
    "hubId" INTEGER,
    "action" TEXT NOT NULL,
    "moderatorId" INTEGER,
    "subjectType" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "subjectTitle" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "ModLogEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "HubModerator_userId_idx" ON "HubModerator"("userId");

-- CreateIndex
CREATE INDEX "ModLogEntry_hubId_createdAt_id_idx" ON "ModLogEntry"("hubId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ModLogEntry_createdAt_id_idx" ON "ModLogEntry"("createdAt", "id");

-- AddForeignKey
ALTER TABLE "HubModerator" ADD CONSTRAINT "HubModerator_hubId_fkey" FOREIGN KEY ("hubId") REFERENCES "Hub"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HubModerator" ADD CONSTRAINT "HubModerator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HubModerator" ADD CONSTRAINT "HubModerator_addedById_fkey" FOREIGN KEY ("addedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModLogEntry" ADD CONSTRAINT "ModLogEntry_moderatorId_fkey" FOREIGN KEY ("moderatorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
