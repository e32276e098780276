-- Comments, notifications and the jobs that make new-chapter notifications after the request
-- (docs/decisions/017-discussion.md). The three counters are added with ALTER TABLE (a constant default), not by
-- rebuilding User, Post and Chapter as Prisma's diff would: on a large site that copy would hold the start.
ALTER TABLE "User" ADD COLUMN "unreadNotifications" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Post" ADD COLUMN "commentCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Chapter" ADD COLUMN "commentCount" INTEGER NOT NULL DEFAULT 0;

-- DropIndex
DROP INDEX "Follow_seriesId_idx";

-- CreateTable
CREATE TABLE "Comment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "postId" INTEGER,
    "chapterId" INTEGER,
    "parentId" INTEGER,
    "authorId" INTEGER,
    "content" TEXT NOT NULL,
    "likes" INTEGER NOT NULL DEFAULT 0,
    "replyCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" DATETIME,
    "deletedAt" DATETIME,
    CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_chapterId_fkey" FOREIGN KEY ("chapterId") REFERENCES "Chapter" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Comment" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Comment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CommentLike" (
    "userId" INTEGER NOT NULL,
    "commentId" INTEGER NOT NULL,

    PRIMARY KEY ("userId", "commentId"),
    CONSTRAINT "CommentLike_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "CommentLike_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "actorId" INTEGER,
    "commentId" INTEGER,
    "postId" INTEGER,
    "chapterId" INTEGER,
    "seriesId" INTEGER,
    "hubId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readAt" DATETIME,
    CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Job" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "cursor" INTEGER NOT NULL DEFAULT 0,
    "runAfter" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Comment_postId_parentId_likes_createdAt_id_idx" ON "Comment"("postId", "parentId", "likes" DESC, "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_postId_parentId_createdAt_id_idx" ON "Comment"("postId", "parentId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_chapterId_parentId_likes_createdAt_id_idx" ON "Comment"("chapterId", "parentId", "likes" DESC, "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_chapterId_parentId_createdAt_id_idx" ON "Comment"("chapterId", "parentId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_parentId_createdAt_id_idx" ON "Comment"("parentId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_authorId_idx" ON "Comment"("authorId");

-- CreateIndex
CREATE INDEX "CommentLike_commentId_idx" ON "CommentLike"("commentId");

-- CreateIndex
CREATE INDEX "Notification_userId_createdAt_id_idx" ON "Notification"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Notification_userId_readAt_createdAt_id_idx" ON "Notification"("userId", "readAt", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Notification_commentId_idx" ON "Notification"("commentId");

-- CreateIndex
CREATE INDEX "Notification_chapterId_idx" ON "Notification"("chapterId");

-- CreateIndex
CREATE INDEX "Job_runAfter_id_idx" ON "Job"("runAfter", "id");

-- CreateIndex
CREATE INDEX "Follow_seriesId_userId_idx" ON "Follow"("seriesId", "userId");

-- CreateIndex
CREATE INDEX "Chapter_seriesId_date_id_idx" ON "Chapter"("seriesId", "date" DESC, "id" DESC);
