-- Hub bans and site suspensions (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md). The two User columns are added with
-- ALTER TABLE (nullable, no default): no copy of the User table on a large site.
ALTER TABLE "User" ADD COLUMN "suspendedUntil" DATETIME;
ALTER TABLE "User" ADD COLUMN "suspendedReason" TEXT;

-- CreateTable
CREATE TABLE "HubBan" (
    "hubId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "byId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("hubId", "userId"),
    CONSTRAINT "HubBan_hubId_fkey" FOREIGN KEY ("hubId") REFERENCES "Hub" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HubBan_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HubBan_byId_fkey" FOREIGN KEY ("byId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "HubBan_userId_idx" ON "HubBan"("userId");

-- CreateIndex
CREATE INDEX "HubBan_hubId_createdAt_userId_idx" ON "HubBan"("hubId", "createdAt", "userId");
