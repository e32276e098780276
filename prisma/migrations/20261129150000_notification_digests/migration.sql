-- Notification digests (docs/api.md "Digests"): per account and kind, the newest notification its last digest listed;
-- and one row per day's digest run, made once with its job by whichever instance gets there first.

-- CreateTable
CREATE TABLE "NotificationDigest" (
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "lastNotificationId" INTEGER NOT NULL,
    "sentAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "kind"),
    CONSTRAINT "NotificationDigest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DigestRun" (
    "day" INTEGER NOT NULL PRIMARY KEY,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "mails" INTEGER NOT NULL DEFAULT 0
);
