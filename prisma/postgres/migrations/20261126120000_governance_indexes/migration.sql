-- Indexes for the governance lists, found with EXPLAIN and the benchmark's governance rows on the large set
-- (docs/decisions/018-governance.md, "Benchmark rows and indexes").

-- A blocker's comment lists count the comments they hide per blocked author ("Blocks"). Over Comment(authorId) that
-- read every comment row of each blocked author: 54 ms for 200 blocks on the benchmark's big post. This index answers
-- the counts from the index alone (0.1 ms) and serves every read by authorId the old one served (its first column).
CREATE INDEX "Comment_authorId_parentId_postId_chapterId_idx" ON "Comment"("authorId", "parentId", "postId", "chapterId");
DROP INDEX "Comment_authorId_idx";

-- A moderator's report queue walks the open reports in order and keeps those of their hubs and series: with hubId and
-- seriesId in the index it reads no Report row for that (0.38 -> 0.10 ms a page, 0.69 -> 0.17 ms the total, at 763
-- open reports). The admins' queue uses it as before.
CREATE INDEX "Report_status_createdAt_id_hubId_seriesId_idx" ON "Report"("status", "createdAt" DESC, "id" DESC, "hubId", "seriesId");
DROP INDEX "Report_status_createdAt_id_idx";
