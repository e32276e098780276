-- Reports (docs/decisions/018-governance.md "Reports"): one row per reporter and subject. hubId and
-- seriesId are copied at report time so that each queue (admins: all; a hub's moderators: its posts and their
-- comments; a series' author: comments on its chapters) is one range of an index in its order.
CREATE TABLE "Report" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reporterId" INTEGER,
    "subjectType" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'open',
    "hubId" INTEGER,
    "seriesId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    "resolvedById" INTEGER,
    "resolution" TEXT,
    "resolutionReason" TEXT,
    CONSTRAINT "Report_reporterId_fkey" FOREIGN KEY ("reporterId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Report_resolvedById_fkey" FOREIGN KEY ("resolvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Report_status_createdAt_id_idx" ON "Report"("status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Report_hubId_status_createdAt_id_idx" ON "Report"("hubId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Report_seriesId_status_createdAt_id_idx" ON "Report"("seriesId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Report_subjectType_subjectId_status_idx" ON "Report"("subjectType", "subjectId", "status");

-- CreateIndex
CREATE INDEX "Report_reporterId_createdAt_id_idx" ON "Report"("reporterId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Report_resolvedById_idx" ON "Report"("resolvedById");

-- Reporting the same subject again while the first report is open answers that report: at most one open report per
-- reporter and subject. Written by hand: Prisma's schema language has no partial indexes.
CREATE UNIQUE INDEX "Report_open_reporter_subject_key" ON "Report"("reporterId", "subjectType", "subjectId") WHERE "status" = 'open';
