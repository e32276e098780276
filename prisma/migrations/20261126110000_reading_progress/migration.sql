-- Reading progress (docs/api.md "Reading progress"): where each user is in each series (the latest
-- write wins) and the chapters they have read. Both go with the user, the series or the chapter (cascades). New
-- tables only: existing rows are untouched.

-- CreateTable
CREATE TABLE "ReadingProgress" (
    "userId" INTEGER NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "chapterId" INTEGER NOT NULL,
    "page" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "seriesId"),
    CONSTRAINT "ReadingProgress_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReadingProgress_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "Series" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReadingProgress_chapterId_fkey" FOREIGN KEY ("chapterId") REFERENCES "Chapter" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChapterRead" (
    "userId" INTEGER NOT NULL,
    "chapterId" INTEGER NOT NULL,
    "readAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "chapterId"),
    CONSTRAINT "ChapterRead_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChapterRead_chapterId_fkey" FOREIGN KEY ("chapterId") REFERENCES "Chapter" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReadingProgress_userId_updatedAt_seriesId_idx" ON "ReadingProgress"("userId", "updatedAt" DESC, "seriesId" DESC);

-- CreateIndex
CREATE INDEX "ReadingProgress_seriesId_idx" ON "ReadingProgress"("seriesId");

-- CreateIndex
CREATE INDEX "ReadingProgress_chapterId_idx" ON "ReadingProgress"("chapterId");

-- CreateIndex
CREATE INDEX "ChapterRead_chapterId_idx" ON "ChapterRead"("chapterId");
