-- Notification digests (docs/api.md "Digests"): per account and kind, the newest notification its last digest listed;
-- and one row per day's digest run, made once with its job by whichever instance gets there first.

-- CreateTable
CREATE TABLE "NotificationDigest" (
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "lastNotificationId" INTEGER NOT NULL,
    "sentAt" BIGINT NOT NULL,

    CONSTRAINT "NotificationDigest_pkey" PRIMARY KEY ("userId","kind")
);

-- CreateTable
CREATE TABLE "DigestRun" (
    "day" INTEGER NOT NULL,
    "startedAt" BIGINT NOT NULL,
    "finishedAt" BIGINT,
    "mails" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DigestRun_pkey" PRIMARY KEY ("day")
);

-- AddForeignKey
ALTER TABLE "NotificationDigest" ADD CONSTRAINT "NotificationDigest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
