-- Hub bans and site suspensions (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md). The two User columns are nullable
-- without a default: adding them rewrites nothing.
ALTER TABLE "User" ADD COLUMN "suspendedUntil" BIGINT,
ADD COLUMN "suspendedReason" TEXT;

-- CreateTable
CREATE TABLE "HubBan" (
    "hubId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "expiresAt" BIGINT,
    "byId" INTEGER,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "HubBan_pkey" PRIMARY KEY ("hubId","userId")
);

-- CreateIndex
CREATE INDEX "HubBan_userId_idx" ON "HubBan"("userId");

-- CreateIndex
CREATE INDEX "HubBan_hubId_createdAt_userId_idx" ON "HubBan"("hubId", "createdAt", "userId");

-- AddForeignKey
ALTER TABLE "HubBan" ADD CONSTRAINT "HubBan_hubId_fkey" FOREIGN KEY ("hubId") REFERENCES "Hub"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HubBan" ADD CONSTRAINT "HubBan_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HubBan" ADD CONSTRAINT "HubBan_byId_fkey" FOREIGN KEY ("byId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
